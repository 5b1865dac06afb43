#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// `cardhour-sim datasets ...`: the shared datasets instances can mount read-only.
//   datasets list                 name, size, files, folder
//   datasets add NAME DIR         register DIR (measured now) as NAME; again to re-measure
//   datasets remove NAME          forget it (the folder itself is never touched)
//   datasets make [--force]       make the apps' sample datasets from their images (those missing
//                                 or older than their image; all with --force), as the provider
//                                 does at start; --podman, --containers-conf (else
//                                 $CONTAINERS_CONF) and --tag-prefix as `images` takes them
// Option: --data DIR (the provider's data folder; default defaultDataDir). Returns the exit
// code (0 ok, 1 failure, 2 usage).
int runDatasetsCommand(const QStringList &args, const QString &defaultDataDir);

} // namespace cardhour::sim
