#include "ContainerDiskWatch.h"

#include "LayerSize.h"

#include <QSet>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr qint64 kBytesPerGib = 1024LL * 1024 * 1024;
// A box started over its size may delete, and write this much, before it is stopped again.
constexpr qint64 kFullDiskSlack = 64LL * 1024 * 1024;
} // namespace

ContainerDiskWatch::ContainerDiskWatch(EngineCommands &engine, const ContainerCache &cache,
                                       int intervalMs, bool withWorkspace, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache), m_withWorkspace(withWorkspace)
{
    if (intervalMs <= 0)
        return;
    m_timer = new QTimer(this);
    m_timer->setInterval(intervalMs);
    connect(m_timer, &QTimer::timeout, this, &ContainerDiskWatch::check);
    m_timer->start();
}

QStringList ContainerDiskWatch::runningArgs(bool withSizes) const
{
    QStringList args{u"ps"_s};
    if (withSizes)
        args << u"--size"_s;
    args << m_engine.labelFilter({}) << u"--filter"_s << u"status=running"_s;
    // docker's CLI asks for the sizes (every layer walked) when a JSON listing could show them.
    if (!withSizes && m_engine.engine() == cli::Engine::Docker)
        args << u"--size=false"_s;
    return args + QStringList{u"--format"_s, u"json"_s};
}

void ContainerDiskWatch::check()
{
    if (m_inFlight || m_engine.isShuttingDown() || !m_cache.anyRunning())
        return;
    m_inFlight = true;
    // One `ps` (on the engine's API where there is one), an `inspect` of the containers not seen
    // before for the folders of their writable layers (what `--size` counts as rwSize, byte for
    // byte), measured off the event loop.
    m_engine.run(runningArgs(false), [this](const ProcessResult &r) { listed(r); });
}

void ContainerDiskWatch::listed(const ProcessResult &r)
{
    if (!r.ok()) {
        m_inFlight = false;
        qCDebug(lcCli).noquote() << EngineCommands::describe(r, m_engine.what(u"ps"_s));
        return;
    }
    const QList<cli::ContainerInfo> boxes = cli::parseContainerList(r.out, m_engine.providerId());
    // A container's writable layer stays where it is for the container's life: only the
    // containers not seen before are inspected.
    QHash<QString, Inspected> known;
    QStringList unknown;
    for (const cli::ContainerInfo &box : boxes) {
        const auto it = m_inspected.constFind(box.containerId);
        if (it != m_inspected.cend())
            known.insert(box.containerId, *it);
        else
            unknown << box.containerId;
    }
    m_inspected = known; // the ones gone are forgotten
    if (boxes.isEmpty())
        return apply(boxes, {});
    if (unknown.isEmpty())
        return measure(boxes);
    const QStringList inspect{
        u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
        u"{{.Id}}\t{{.GraphDriver.Data.UpperDir}}\t{{range .Mounts}}"
        "{{if eq .Destination \"/workspace\"}}{{.Source}}{{end}}{{end}}\t{{.State.StartedAt}}"_s};
    // A box gone meanwhile fails the call but not the lines of the others.
    m_engine.run(inspect + unknown, [this, boxes, unknown](const ProcessResult &found) {
        if (m_engine.isShuttingDown())
            return;
        inspected(found.out, unknown);
        measure(boxes);
    });
}

// `inspect`'s lines: full id, layer folder, /workspace folder, start time. docker lists ids cut
// to 12 characters: each line belongs to the listed id its full id starts with.
void ContainerDiskWatch::inspected(const QByteArray &lines, const QStringList &unknown)
{
    // What a template prints for a field the engine does not have (no overlay: containerd's
    // image store, say).
    const auto value = [](const QByteArray &field) {
        return field == "<no value>" ? QString() : QString::fromUtf8(field);
    };
    for (const QByteArray &line : lines.split('\n')) {
        const QList<QByteArray> f = line.trimmed().split('\t');
        const QString fullId = value(f.value(0));
        const auto listed = std::find_if(unknown.cbegin(), unknown.cend(), [&](const QString &id) {
            return !id.isEmpty() && fullId.startsWith(id);
        });
        if (listed == unknown.cend())
            continue;
        Inspected found;
        found.startedAt = value(f.value(3));
        if (const QString layer = value(f.value(1)); !layer.isEmpty()) {
            found.folders << layer;
            if (const QString workspace = value(f.value(2));
                m_withWorkspace && !workspace.isEmpty())
                found.folders << workspace;
        }
        m_inspected.insert(*listed, found);
    }
}

void ContainerDiskWatch::measure(const QList<cli::ContainerInfo> &boxes)
{
    QHash<QString, QStringList> folders;
    for (auto it = m_inspected.cbegin(); it != m_inspected.cend(); ++it)
        if (!it->folders.isEmpty())
            folders.insert(it.key(), it->folders);
    if (folders.isEmpty())
        return measureByEngine();
    LayerSize::measure(this, folders, [this, boxes](const QHash<QString, qint64> &used) {
        if (m_engine.isShuttingDown())
            return;
        // None readable: not this host's folders. A few: gone.
        for (const qint64 bytes : used)
            if (bytes >= 0)
                return apply(boxes, used);
        measureByEngine();
    });
}

// Where the layers' folders cannot be read here (a remote engine): `ps --size`, which also
// walks every image layer under each container (77 s of CPU at 300 `base` boxes).
void ContainerDiskWatch::measureByEngine()
{
    m_engine.run(
        runningArgs(true),
        [this](const ProcessResult &r) {
            if (!r.ok()) {
                m_inFlight = false;
                qCDebug(lcCli).noquote()
                    << EngineCommands::describe(r, m_engine.what(u"ps --size"_s));
                return;
            }
            const QList<cli::ContainerInfo> boxes =
                cli::parseContainerList(r.out, m_engine.providerId());
            QHash<QString, qint64> used;
            for (const cli::ContainerInfo &box : boxes)
                used.insert(box.containerId, box.ownDiskBytes);
            apply(boxes, used);
        },
        60000);
}

void ContainerDiskWatch::apply(const QList<cli::ContainerInfo> &boxes,
                               const QHash<QString, qint64> &used)
{
    m_inFlight = false;
    QSet<QString> seen;
    for (const cli::ContainerInfo &box : boxes) {
        const QString &id = box.instanceId;
        seen.insert(id);
        const qint64 limit = box.diskGib * kBytesPerGib;
        const qint64 bytes = used.value(box.containerId, -1);
        if (limit <= 0 || bytes < 0)
            continue;
        // docker's listing has no start time; its inspect has.
        const QString startedAt =
            box.startedAt.isEmpty() ? m_inspected.value(box.containerId).startedAt : box.startedAt;
        auto baseline = m_baselines.find(id);
        // A start after a stop for a full disk may keep what it held then; any other start may
        // hold its size.
        if (baseline == m_baselines.end() || baseline->startedAt != startedAt)
            baseline = m_baselines.insert(id, Baseline{startedAt, m_fullBytes.value(id, 0)});
        if (bytes > limit && bytes > baseline->bytes + (baseline->bytes > 0 ? kFullDiskSlack : 0)) {
            qCWarning(lcCli).noquote() << "instance" << id << "holds" << bytes
                                       << "bytes on its disk, over" << limit << ": stopped";
            m_fullBytes.insert(id, bytes);
            // Where the listing has no start time, the next start is learnt from inspect again.
            if (box.startedAt.isEmpty())
                m_inspected.remove(box.containerId);
            Q_EMIT diskFull(id, bytes, limit);
        }
    }
    for (auto it = m_baselines.begin(); it != m_baselines.end();)
        it = seen.contains(it.key()) ? std::next(it) : m_baselines.erase(it);
}

} // namespace cardhour::sim
