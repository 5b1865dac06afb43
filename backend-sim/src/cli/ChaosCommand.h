#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// `cardhour-sim chaos ...`: rehearsed failures on a running provider (POST/GET/DELETE
// /v1/chaos/faults), as a client of its API with an account's token; the provider must run with
// --allow-chaos (the desktop client's sandbox does).
//   chaos add fail-launch [--reason TEXT]         the account's next launch fails with TEXT
//   chaos add slow-api --delay-ms N --duration-s S  every answer held N ms for S seconds
//   chaos add drop-ssh INSTANCE                   cut the host's SSH connections
//   chaos add fill-disk INSTANCE                  fill the host's /workspace (ENOSPC)
//   chaos add interrupt INSTANCE                  (refused: the provider cannot interrupt yet)
//   chaos list                                    the account's faults, newest first
//   chaos clear ID | --all                        disarm, end or undo (fill-disk: free it)
// Options: --url URL (default: the address the sandbox recorded in <data>/cardhour-sim.url,
// else http://127.0.0.1:8787), --data DIR, --json (the API's JSON as it is). The token comes
// from $CARDHOUR_TOKEN, or with --email EMAIL from a log-in with the password read from stdin
// (one line; logged out at the end). Never from the command line, where others can read it.
// Returns the exit code: 0 ok, 1 refused or failed, 2 usage, 3 no token or token refused.
int runChaosCommand(const QStringList &args, const QString &defaultDataDir);

} // namespace cardhour::sim
