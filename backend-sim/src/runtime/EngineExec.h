#pragma once

#include "EngineCalls.h"

namespace cardhour::sim::cli {

// `exec <container> <command...>` (no flags) over podman's API instead of a podman process:
// an exec session made (this call), started with its output attached, then asked for its exit
// code. CliEngine makes the two later requests; here is what each one is and what it comes to.
std::optional<ApiCall> execCallFor(Engine engine, const QStringList &args);
ApiCall execStartCall(const QString &execId);
ApiCall execInspectCall(const QString &execId);
// The attached output: frames of an 8-byte header (stream 1 stdout, 2 stderr; the size big-endian
// in its last four bytes) and their bytes. A frame cut short keeps what arrived.
void demultiplex(const QByteArray &stream, QByteArray *out, QByteArray *err);
// The command line's result: its output, and its exit code from the session's inspection.
ProcessResult execResult(const EngineReply &started, const EngineReply &inspected);

} // namespace cardhour::sim::cli
