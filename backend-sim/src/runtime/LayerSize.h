#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace cardhour::sim {

// The size of a container's writable layer, read from its folder (the engine's UpperDir) the
// way containers/storage counts it: the bytes of every file that is not a folder, a file with
// several links once. `podman ps --size` counts the same but also walks every layer of the image
// under each container: at 300 `base` containers one pass took 77 s of CPU, this one milliseconds.
class LayerSize
{
public:
    // -1 when the folder cannot be read (a remote engine, a layer gone meanwhile).
    static qint64 bytesIn(const QString &folder);

    // Measures each key's folders (their sum; -1 if one cannot be read) on a worker thread;
    // `done` runs on `context`'s thread, and not at all once `context` is gone.
    static void measure(QObject *context, QHash<QString, QStringList> folders,
                        std::function<void(const QHash<QString, qint64> &)> done);
};

} // namespace cardhour::sim
