#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// `cardhour-sim images ...`: list and build the container images behind the catalog.
//   images list                   id, status (missing/stale/current), size, built at
//   images build ID... | --all    build them (and what they are built on), one line per STEP,
//                                 a summary with seconds per image; exit 1 if any failed
// Options: --images DIR (recipes; default the source tree's backend-sim/images),
// --podman PATH, --containers-conf FILE, --tag-prefix PREFIX, --catalog DIR, --verbose,
// --data DIR (the sandbox's data folder, default defaultDataDir: build writes its progress
// there, ImageBuildStatus, so that a launch waiting for an image knows when it is ready).
// args: the arguments after "images". containersConf: CONTAINERS_CONF for podman (empty: the
// environment's), overridden by --containers-conf. Needs a QCoreApplication; runs its own
// event loop. Returns the process exit code (0 ok, 1 failure, 2 usage).
int runImagesCommand(const QStringList &args, const QString &containersConf,
                     const QString &defaultDataDir);

} // namespace cardhour::sim
