#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

// One finding of `cardhour-sim doctor`.
struct DoctorCheck
{
    enum Status {
        Ok,
        Warning,
        Problem,
        Skipped
    };

    QString name; // stable key, see Doctor
    Status status = Ok;
    QString detail; // what was found
    QString fix; // what to do about it (Warning/Problem), may be several lines

    static QString statusName(Status status); // "ok", "warning", "problem", "skipped"
};

// Checks whether this host can run the sandbox's containers, and says how to fix it when not.
// Blocking (Process::run with timeouts); meant for the CLI. The checks, in order, by name:
//   podman            `podman --version`
//   containers.conf   the file given (CONTAINERS_CONF), its runtime and default_ulimits
//   oci runtime       `podman info`: host.ociRuntime name/path/version
//   cgroups           host.cgroupVersion and host.cgroupManager
//   rootless          rootless or rootful podman
//   container start   `podman run --rm --network=none <local image> true`; on failure, retried
//                     with recommendedContainersConf() (runc, low ulimits) when runc exists
//   rlimits           hard RLIMIT_NOFILE/RLIMIT_NPROC of this process vs 4096
//   runc, crun        the OCI runtimes installed
//   slirp4netns       the user-mode network instances run with
//   debootstrap       needed to build the images without a registry
//   images            which catalog images are present in podman's store
//   gpu               nvidia-smi, if there is one
//   cdi               the NVIDIA CDI spec (only when there is a GPU)
//   disk quota        whether an instance's /workspace can be a loop-mounted ext4 image of its
//                     disk_gib (WorkspaceDisk), else that nothing bounds it
//   loopback          binding 127.0.0.1:0
// Each is a function of its own in DoctorChecks.h, run in that order from one table.
class Doctor
{
public:
    struct Options
    {
        QString podman = QStringLiteral("podman");
        // CONTAINERS_CONF for podman. Empty: podman's own defaults (CONTAINERS_CONF is removed
        // from podman's environment, so the result does not depend on the caller's).
        QString containersConf;
        QString tagPrefix = QStringLiteral("localhost/cardhour/");
        // The catalog images the "images" check looks for (`doctor` passes the catalog's).
        QStringList imageIds{QStringLiteral("base"), QStringLiteral("pytorch"),
                             QStringLiteral("jupyter")};
        int timeoutMs = 30000; // per podman call (a container start may take a while)
    };

    Doctor();
    explicit Doctor(Options options);

    const Options &options() const { return m_options; }

    QList<DoctorCheck> run();

    // runc and modest default ulimits: what works on cgroup v1/hybrid hosts and where raising
    // the hard rlimits is not permitted (the same as backend-sim/podman/containers.conf).
    static QString recommendedContainersConf();

    // Writes recommendedContainersConf() to path (creating its folder). false: errorString().
    bool writeFix(const QString &path);
    // The same, without a Doctor: false with *error.
    static bool writeRecommendedConf(const QString &path, QString *error);
    QString errorString() const { return m_error; }

private:
    Options m_options;
    QString m_error;
};

} // namespace cardhour::sim
