#include "InProcessRuntime.h"

#include "InstanceFiles.h"
#include "NoticeFiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QStringList kParts{u"disk"_s, u"workspace"_s};

// Copies the tree `from` into `to` (made anew); false on the first file that does not copy.
bool copyTree(const QString &from, const QString &to)
{
    if (QFileInfo::exists(to) && !QDir(to).removeRecursively())
        return false;
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString target = to + u'/' + QDir(from).relativeFilePath(path);
        const QFileInfo info = it.fileInfo();
        const bool ok =
            info.isDir() && !info.isSymLink() ? QDir().mkpath(target) : QFile::copy(path, target);
        if (!ok)
            return false;
    }
    return true;
}

qint64 treeBytes(const QString &dir)
{
    qint64 bytes = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        bytes += it.fileInfo().size();
    }
    return bytes;
}
} // namespace

InProcessRuntime::InProcessRuntime(QObject *parent) : ContainerRuntime(parent) {}

QString InProcessRuntime::name() const
{
    return u"inprocess"_s;
}

void InProcessRuntime::create(const InstanceSpec &given)
{
    InstanceSpec spec = given;
    applyShortfall(takeShortfall(), spec);
    m_specs.insert(spec.instanceId, spec);
    launch(spec, true);
}

void InProcessRuntime::start(const InstanceSpec &given)
{
    // A kept box keeps what it was given when it was made.
    InstanceSpec spec = given;
    if (const auto it = m_specs.constFind(spec.instanceId); it != m_specs.cend()) {
        spec.gpuCount = it->gpuCount;
        spec.gpuCards = it->gpuCards;
        spec.cpus = it->cpus;
        spec.memoryMib = it->memoryMib;
        spec.diskGib = it->diskGib;
    }
    m_specs.insert(spec.instanceId, spec);
    launch(spec, false);
}

void InProcessRuntime::launch(const InstanceSpec &spec, bool fresh)
{
    const QString instanceId = spec.instanceId;
    const QString snapshotId = fresh ? spec.snapshotId : QString();
    QString failure = takeLaunchFailure(spec);
    QTimer::singleShot(0, this, [this, instanceId, fresh, failure, snapshotId]() mutable {
        if (fresh)
            Q_EMIT stageReached(instanceId, u"image"_s);
        const QString dir = instanceDir(instanceId);
        if (failure.isEmpty() && fresh && !dir.isEmpty()) {
            // A restore starts from the snapshot's copies; else from empty folders.
            for (const QString &part : kParts) {
                const bool ok = snapshotId.isEmpty()
                    ? QDir().mkpath(dir + u'/' + part)
                    : copyTree(snapshotDir(snapshotId) + u'/' + part, dir + u'/' + part);
                if (!ok)
                    failure = u"cannot prepare %1/%2"_s.arg(dir, part);
            }
        }
        if (!failure.isEmpty()) {
            Q_EMIT failed(instanceId, failure);
            return;
        }
        m_known.insert(instanceId);
        Q_EMIT stageReached(instanceId, u"container"_s);
        if (m_hold)
            m_held.append(instanceId);
        else
            finish(instanceId);
    });
}

void InProcessRuntime::finish(const QString &instanceId)
{
    if (!m_known.contains(instanceId))
        return;
    m_running.insert(instanceId);
    Q_EMIT stageReached(instanceId, u"ready"_s);
    Q_EMIT ready(instanceId, SshEndpoint{});
}

void InProcessRuntime::release()
{
    const QStringList held = std::exchange(m_held, {});
    for (const QString &id : held)
        QTimer::singleShot(0, this, [this, id] { finish(id); });
}

void InProcessRuntime::stop(const QString &instanceId)
{
    QTimer::singleShot(0, this, [this, instanceId] {
        m_running.remove(instanceId);
        Q_EMIT stopped(instanceId);
    });
}

void InProcessRuntime::remove(const QString &instanceId)
{
    if (const QString failure = takeRemovalFailure(); !failure.isEmpty()) {
        // Everything stays: the box (stopped, as a failed teardown leaves it) and its folders.
        QTimer::singleShot(0, this, [this, instanceId, failure] {
            m_running.remove(instanceId);
            Q_EMIT failed(instanceId, u"cannot remove: "_s + failure);
        });
        return;
    }
    QTimer::singleShot(0, this, [this, instanceId] {
        m_running.remove(instanceId);
        m_known.remove(instanceId);
        m_specs.remove(instanceId);
        m_held.removeAll(instanceId);
        if (const QString dir = instanceDir(instanceId); !dir.isEmpty())
            QDir(dir).removeRecursively();
        Q_EMIT removed(instanceId);
    });
}

bool InProcessRuntime::isRunning(const QString &instanceId) const
{
    return m_running.contains(instanceId);
}

void InProcessRuntime::inspectHardware(const QString &instanceId)
{
    QTimer::singleShot(0, this, [this, instanceId] {
        BoxHardware found;
        const auto it = m_specs.constFind(instanceId);
        if (it == m_specs.cend() || !m_running.contains(instanceId)) {
            found.error = u"the box is not running"_s;
        } else {
            found.gpuCount = it->gpuCards.isEmpty() ? it->gpuCount : int(it->gpuCards.size());
            for (int i = 0; i < found.gpuCount; ++i) {
                found.gpuNames.append(it->gpuName);
                found.gpuVramMib.append(it->gpuVramMib);
            }
            found.cpus = it->cpus;
            found.memoryMib = it->memoryMib;
            found.workspaceBytes = it->diskGib << 30;
            found.workspaceBounded = true;
        }
        Q_EMIT hardwareInspected(instanceId, found);
    });
}

void InProcessRuntime::findLeftovers()
{
    QTimer::singleShot(0, this, [this] {
        QHash<QString, QStringList> held;
        for (const QString &id : std::as_const(m_known))
            held[id].append(m_running.contains(id) ? u"box (running)"_s : u"box"_s);
        if (!m_dataDir.isEmpty()) {
            const QDir dir(QDir(m_dataDir).filePath(u"inprocess"_s));
            for (const QString &id : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                held[id].append(u"disk"_s);
        }
        Q_EMIT leftoversFound(held, true);
    });
}

// ---- snapshots: copies of the instance's two folders ----------------------------------------

QString InProcessRuntime::instanceDir(const QString &instanceId) const
{
    if (m_dataDir.isEmpty() || !InstanceFiles::isSafeId(instanceId))
        return {};
    return QDir(m_dataDir).filePath(u"inprocess/"_s + instanceId);
}

void InProcessRuntime::writeNotice(const QString &instanceId, const QString &name,
                                   const QByteArray &content)
{
    const QString dir = instanceDir(instanceId);
    if (dir.isEmpty() || !InstanceFiles::isSafeId(name))
        return;
    notices::write(dir + u"/disk/run/cardhour/notices"_s, name, content);
}

QString InProcessRuntime::snapshotDir(const QString &snapshotId) const
{
    return QDir(m_dataDir).filePath(u"snapshots/%1/inprocess"_s.arg(snapshotId));
}

QString InProcessRuntime::snapshotsUnsupportedReason() const
{
    return m_dataDir.isEmpty()
        ? u"the in-process runtime keeps no instance files without a data directory"_s
        : QString();
}

void InProcessRuntime::snapshot(const SnapshotSpec &spec)
{
    // Queued behind whatever was asked of the instance before (all of it is on the event loop).
    QTimer::singleShot(0, this, [this, spec] {
        const QString dir = instanceDir(spec.instanceId);
        if (dir.isEmpty() || !InstanceFiles::isSafeId(spec.snapshotId) || !QFileInfo(dir).isDir()) {
            Q_EMIT snapshotFailed(spec.snapshotId, u"the instance has no files to snapshot"_s);
            return;
        }
        SnapshotSizes sizes;
        for (const QString &part : kParts) {
            const QString target = snapshotDir(spec.snapshotId) + u'/' + part;
            if (!copyTree(dir + u'/' + part, target)) {
                QDir(QFileInfo(snapshotDir(spec.snapshotId)).absolutePath()).removeRecursively();
                Q_EMIT snapshotFailed(spec.snapshotId, u"cannot copy %1/%2"_s.arg(dir, part));
                return;
            }
            (part == u"disk"_s ? sizes.diskBytes : sizes.workspaceBytes) = treeBytes(target);
        }
        Q_EMIT snapshotTaken(spec.snapshotId, sizes);
    });
}

void InProcessRuntime::removeSnapshot(const QString &snapshotId)
{
    QTimer::singleShot(0, this, [this, snapshotId] {
        const QString dir = QFileInfo(snapshotDir(snapshotId)).absolutePath();
        if (m_dataDir.isEmpty() || !InstanceFiles::isSafeId(snapshotId)
            || (QFileInfo::exists(dir) && !QDir(dir).removeRecursively())) {
            Q_EMIT snapshotFailed(snapshotId, u"cannot delete the snapshot's files"_s);
            return;
        }
        Q_EMIT snapshotRemoved(snapshotId);
    });
}

} // namespace cardhour::sim
