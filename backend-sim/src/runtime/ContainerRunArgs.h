#pragma once

#include "CliDialect.h"
#include "ContainerRuntime.h"

#include <QStringList>

namespace cardhour::sim {

// The `run -d` of an instance's container: labels, the published sshd port, mounts (/workspace,
// the ssh dir, datasets, models, the simulated cards' status folder), limits, the GPU's devices
// or variables, and the image (the catalog's, or a snapshot's).
struct ContainerRunArgs
{
    struct Settings
    {
        cli::Engine engine = cli::Engine::Podman;
        QString providerId;
        QString imagePrefix; // catalog image X → <prefix>X:latest
        QString network; // --network; empty: the engine's default
        bool selinux = false; // bind mounts get ",z"
        QString dataDir; // where the simulated cards' status folder is, unless the spec says
        int stopTimeoutS = 10;
    };

    QStringList args;

    // Makes the simulated cards' status folder when it is missing.
    static ContainerRunArgs forSpec(const InstanceSpec &spec, int sshPort,
                                    const Settings &settings);
};

} // namespace cardhour::sim
