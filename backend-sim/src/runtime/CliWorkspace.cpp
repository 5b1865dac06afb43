#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "LayerSize.h"
#include "SpareDisks.h"
#include "WorkspaceDisk.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

using namespace Qt::StringLiterals;

// An instance's disks: the /workspace volume (an ext4 image of the instance's disk where the
// host allows it, mounted around exports and imports), and the container's own disk, measured.

namespace cardhour::sim {

using namespace clidetail;

void CliRuntime::createVolume(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    QStringList args{u"volume"_s, u"create"_s};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id
         << u"--label"_s << kOwner + u'=' + launch->spec.ownerId << u"--label"_s
         << kProvider + u'=' + m_options.providerId;
    if (!m_diskQuota.workspaceBounded() || launch->spec.diskGib <= 0)
        return runVolumeCreate(launch, args << volumeName(id));
    const QString image = WorkspaceDisk::imagePath(m_options.dataDir, id);
    args << WorkspaceDisk::volumeOptions(image) << volumeName(id);
    // An image kept from an earlier attempt belongs to a volume that may hold data: reused.
    if (QFileInfo::exists(image))
        return runVolumeCreate(launch, args);
    makeWorkspaceImage(launch, args);
}

void CliRuntime::makeWorkspaceImage(const std::shared_ptr<Launch> &launch, const QStringList &args)
{
    const QString image = WorkspaceDisk::imagePath(m_options.dataDir, launch->id());
    const qint64 gib = launch->spec.diskGib;
    if (m_spareDisks && m_spareDisks->take(gib, image)) {
        m_spareDisks->replenish(gib, kSpareDiskDelayMs);
        return runVolumeCreate(launch, args);
    }
    WorkspaceDisk::format(this, image, gib, m_options.commandTimeoutMs,
                          [this, launch, args, image, gib](const QString &error) {
                              if (m_shuttingDown)
                                  return;
                              const QString id = launch->id();
                              if (!current(id, launch->token)) {
                                  QFile::remove(image);
                                  return endOp(id);
                              }
                              if (!error.isEmpty())
                                  return failLaunch(launch, error, false);
                              // The next launch of this size takes one made while nothing waits.
                              if (m_spareDisks)
                                  m_spareDisks->replenish(gib, kSpareDiskDelayMs);
                              runVolumeCreate(launch, args);
                          });
}

void CliRuntime::runOnWorkspace(const QString &instanceId, const QStringList &args,
                                ProcCallback done, int timeoutMs, bool snapshotStep)
{
    auto step = [this, snapshotStep](const QStringList &stepArgs, ProcCallback stepDone,
                                     int stepTimeoutMs) {
        if (snapshotStep)
            return runSnapshotStep(stepArgs, std::move(stepDone), stepTimeoutMs);
        runCli(stepArgs, std::move(stepDone), stepTimeoutMs);
    };
    if (m_options.dataDir.isEmpty()
        || !QFileInfo::exists(WorkspaceDisk::imagePath(m_options.dataDir, instanceId)))
        return step(args, std::move(done), timeoutMs);
    const QString volume = volumeName(instanceId);
    runCli({u"volume"_s, u"mount"_s, volume},
           [this, volume, args, step, done = std::move(done), timeoutMs](const ProcResult &mount) {
               if (!mount.ok())
                   return done(mount);
               step(
                   args,
                   [this, volume, done](const ProcResult &result) {
                       runCli({u"volume"_s, u"unmount"_s, volume},
                              [done, result](const ProcResult &) { done(result); });
                   },
                   timeoutMs);
           });
}

} // namespace cardhour::sim

namespace cardhour::sim {

using namespace clidetail;

void CliRuntime::checkContainerDisks()
{
    if (m_diskCheckInFlight || m_shuttingDown)
        return;
    bool anyRunning = false;
    for (const ContainerInfo &info : std::as_const(m_containers))
        anyRunning = anyRunning || info.running;
    if (!anyRunning)
        return;
    m_diskCheckInFlight = true;

    // `boxes`: the running containers as `ps` lists them; `used`: bytes of each one's own disk by
    // container id.
    auto apply = [this](const QJsonArray &boxes, const QHash<QString, qint64> &used) {
        m_diskCheckInFlight = false;
        constexpr qint64 kGib = 1024LL * 1024 * 1024;
        // A box started over its size may delete, and write this much, before it is stopped
        // again.
        constexpr qint64 kSlack = 64LL * 1024 * 1024;
        QSet<QString> seen;
        for (const QJsonValue &value : boxes) {
            const QJsonObject o = value.toObject();
            const QJsonObject labels = o.value(u"Labels"_s).toObject();
            const QString id = labels.value(kInstance).toString();
            if (id.isEmpty() || labels.value(kProvider).toString() != m_options.providerId)
                continue;
            seen.insert(id);
            const qint64 limit = labels.value(kDiskGibLabel).toString().toLongLong() * kGib;
            const qint64 bytes = used.value(o.value(u"Id"_s).toString(), -1);
            if (limit <= 0 || bytes < 0)
                continue;
            const qint64 startedAt = o.value(u"StartedAt"_s).toInteger();
            auto baseline = m_diskBaselines.find(id);
            // A start after a stop for a full disk may keep what it held then; any other
            // start may hold its size.
            if (baseline == m_diskBaselines.end() || baseline->startedAt != startedAt)
                baseline = m_diskBaselines.insert(
                    id, DiskBaseline{startedAt, m_diskFullBytes.value(id, 0)});
            if (bytes > limit && bytes > baseline->bytes + (baseline->bytes > 0 ? kSlack : 0)) {
                qCWarning(lcCli).noquote() << "instance" << id << "holds" << bytes
                                           << "bytes on its own disk, over" << limit << ": stopped";
                m_diskFullBytes.insert(id, bytes);
                Q_EMIT diskFull(id, bytes, limit);
            }
        }
        for (auto it = m_diskBaselines.begin(); it != m_diskBaselines.end();)
            it = seen.contains(it.key()) ? std::next(it) : m_diskBaselines.erase(it);
    };
    const QStringList running = QStringList{u"ps"_s} + labelFilter({})
        + QStringList{u"--filter"_s, u"status=running"_s, u"--format"_s, u"json"_s};
    // Where the layers' folders cannot be read here (a remote engine): `ps --size`, which also
    // walks every image layer under each container (77 s of CPU at 300 `base` boxes).
    auto byEngine = [this, apply, running] {
        runCli(
            QStringList{running.first(), u"--size"_s} + running.mid(1),
            [this, apply](const ProcResult &r) {
                if (!r.ok()) {
                    m_diskCheckInFlight = false;
                    qCDebug(lcCli).noquote() << describe(r, what(u"ps --size"_s));
                    return;
                }
                const QJsonArray boxes = QJsonDocument::fromJson(r.out).array();
                QHash<QString, qint64> used;
                for (const QJsonValue &value : boxes) {
                    const QJsonObject o = value.toObject();
                    used.insert(o.value(u"Id"_s).toString(),
                                o.value(u"Size"_s).toObject().value(u"rwSize"_s).toInteger(-1));
                }
                apply(boxes, used);
            },
            60000);
    };
    // One `ps` (on the engine's API where there is one), an `inspect` of the containers not seen
    // before for the folders of their writable layers (what `--size` counts as rwSize, byte for
    // byte), measured off the event loop.
    runCli(running, [this, apply, byEngine](const ProcResult &r) {
        if (!r.ok()) {
            m_diskCheckInFlight = false;
            qCDebug(lcCli).noquote() << describe(r, what(u"ps"_s));
            return;
        }
        const QJsonArray boxes = QJsonDocument::fromJson(r.out).array();
        // A container's writable layer stays where it is for the container's life: only the
        // containers not seen before are inspected.
        QHash<QString, QString> known;
        QStringList unknown;
        for (const QJsonValue &value : boxes) {
            const QString id = value.toObject().value(u"Id"_s).toString();
            const auto it = m_upperDirs.constFind(id);
            if (it != m_upperDirs.cend())
                known.insert(id, *it);
            else
                unknown << id;
        }
        m_upperDirs = known; // the ones gone are forgotten
        if (boxes.isEmpty())
            return apply(boxes, {});
        auto measure = [this, apply, byEngine, boxes] {
            QHash<QString, QStringList> folders;
            for (auto it = m_upperDirs.cbegin(); it != m_upperDirs.cend(); ++it)
                folders.insert(it.key(), {it.value()});
            if (folders.isEmpty())
                return byEngine();
            LayerSize::measure(this, folders,
                               [this, apply, byEngine, boxes](const QHash<QString, qint64> &used) {
                                   if (m_shuttingDown)
                                       return;
                                   // None readable: not this host's folders. A few: gone.
                                   for (const qint64 bytes : used)
                                       if (bytes >= 0)
                                           return apply(boxes, used);
                                   byEngine();
                               });
        };
        if (unknown.isEmpty())
            return measure();
        const QStringList inspect{u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                                  u"{{.Id}}\t{{.GraphDriver.Data.UpperDir}}"_s};
        // A box gone meanwhile fails the call but not the lines of the others.
        runCli(inspect + unknown, [this, measure](const ProcResult &found) {
            if (m_shuttingDown)
                return;
            for (const QByteArray &line : found.out.split('\n')) {
                const QList<QByteArray> f = line.trimmed().split('\t');
                if (f.size() == 2 && !f.at(1).isEmpty())
                    m_upperDirs.insert(QString::fromUtf8(f.at(0)), QString::fromUtf8(f.at(1)));
            }
            measure();
        });
    });
}

} // namespace cardhour::sim
