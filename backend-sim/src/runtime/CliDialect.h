#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cardhour::sim::cli {

// The container engines CliRuntime drives. Their CLIs share the verbs CardHour needs (run,
// start, stop, rm, ps, volume, inspect, logs) and differ in output formats and a few flags;
// everything that differs lives here, as pure functions, so that it is tested without an engine.
enum class Engine {
    Podman,
    Docker
};

QString engineName(Engine engine); // "podman", "docker"

// The labels every object of CardHour carries; names are never trusted, these are.
inline const QString kManagedLabel = QStringLiteral("cardhour.managed");
inline const QString kInstanceLabel = QStringLiteral("cardhour.instance");
inline const QString kOwnerLabel = QStringLiteral("cardhour.owner");
inline const QString kProviderLabel = QStringLiteral("cardhour.provider");
// The disk an instance was given, in GiB, on its container (what ContainerDiskWatch holds it to).
inline const QString kDiskGibLabel = QStringLiteral("cardhour.disk-gib");

struct ContainerInfo
{
    QString containerId;
    QString instanceId;
    QString ownerId;
    QString state; // the engine's: created, running, exited, ...
    bool running = false;
    int sshPort = 0; // host port of container port 22
    QHash<int, int> ports; // container port → host port (127.0.0.1)
    qint64 diskGib = 0; // its kDiskGibLabel
    // When it last started, as the listing says it (podman); empty where it does not (docker).
    QString startedAt;
    // Bytes in its writable layer, from `ps --size` (podman's {"rwSize": N}, docker's "12.3kB
    // (virtual 80MB)"); -1 where the listing has none. docker prints "0B" when not asked.
    qint64 ownDiskBytes = -1;
};

struct VolumeInfo
{
    QString name;
    QHash<QString, QString> labels;
};

// Labels as either engine prints them: a JSON object (podman) or "k=v,k=v" (docker ps/volume ls).
QHash<QString, QString> parseLabels(const QJsonValue &value);
// Published TCP ports: podman's array of {host_port, container_port, range, protocol} (or
// podman 3's camelCase) or docker's "127.0.0.1:40022->22/tcp, ..." (ranges too).
QHash<int, int> parsePorts(const QJsonValue &value);
// `ps -a --format json`: podman prints one JSON array, docker one object per line. Only
// CardHour's containers of `providerId` with an instance label are returned.
QList<ContainerInfo> parseContainerList(const QByteArray &output, const QString &providerId);
// `volume ls --format json` / `volume inspect`: same two shapes.
QList<VolumeInfo> parseVolumeList(const QByteArray &output);
// `inspect --type container --format json` (both print an array): HostConfig.PortBindings,
// which are kept while a container is stopped.
QHash<int, int> portsFromInspect(const QByteArray &output);

// `stats --no-stream` for all running containers, in numbers: container id → (cpu nanoseconds
// or -1, memory bytes, memory limit bytes). podman prints raw counters with statsFormat();
// docker only percentages and "1.2GiB / 2GiB", from which CPU time cannot be had (-1).
struct StatsLine
{
    qint64 cpuNanos = -1;
    double cpuPercent = -1;
    qint64 memoryBytes = 0;
    qint64 memoryLimitBytes = 0;
};
QStringList statsArgs(Engine engine);
QHash<QString, StatsLine> parseStats(Engine engine, const QByteArray &output);
// "1.5GiB", "300MB", "12kB", "0B" → bytes; -1 when it is not a size.
qint64 parseSize(const QString &text);

// The TCP ports something listens on, from the box's /proc/net/tcp and /proc/net/tcp6 (any
// local address): how an app's readiness is seen without any tool inside the image.
QSet<int> listeningPorts(const QByteArray &procNetTcp);
// How many connections are established to one of `localPorts` in the same tables: the box's
// side of each SSH session (or of a forward to an app), whoever opened it.
int establishedTo(const QByteArray &procNetTcp, const QSet<int> &localPorts);

// What a failed command's stderr says, in the words of either engine.
enum class Failure {
    Other,
    ImageMissing,
    NameInUse,
    PortInUse,
    NoSuchContainer,
    VolumeExists,
    NetworkExists,
    AlreadyRunning // a start of a running container
};
Failure classify(const QString &stderrText);

// `rm` of containers without waiting for a stop (docker's rm -f kills at once; podman's needs -t
// 0).
QStringList forceRemoveArgs(Engine engine, const QStringList &containers);
// `run` arguments that give a container these real cards (nvidia-smi indexes): podman through
// the Container Device Interface (`--device nvidia.com/gpu=N`, needs the CDI spec that
// `nvidia-ctk cdi generate` writes), docker through its NVIDIA runtime (`--gpus "device=N,M"`).
QStringList gpuDeviceArgs(Engine engine, const QList<int> &cards);
// `info` as one JSON object.
QStringList infoArgs(Engine engine);

// The last `chars` characters of a command's output, whitespace tidied, for error messages.
QString tail(const QByteArray &bytes, int chars = 700);

} // namespace cardhour::sim::cli
