#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// `cardhour-sim doctor [options]`: checks whether this host can run the sandbox's containers
// (see Doctor) and prints one line per check, [ ok ] / [warn] / [FAIL] / [skip], with the fix
// under each problem and warning.
// Options: --json (the checks as JSON), --fix PATH (write the recommended containers.conf there
// and say to export CONTAINERS_CONF=PATH), --podman PATH, --containers-conf FILE,
// --tag-prefix PREFIX.
// args: the arguments after "doctor". containersConf: CONTAINERS_CONF for podman (empty:
// podman's defaults), overridden by --containers-conf. Blocking.
// Returns the process exit code: 0 no problem, 1 a problem (or --fix could not write), 2 usage.
// dataDir (or --data DIR): whose containers and volumes without an instance row to list
// (check "quarantine"); empty: that check is skipped.
int runDoctorCommand(const QStringList &args, const QString &containersConf,
                     const QString &dataDir = {});

} // namespace cardhour::sim
