#include "ContainerDiskWatch.h"

#include "BoxNames.h"
#include "LayerSize.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTimer>

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

QStringList ContainerDiskWatch::runningArgs() const
{
    return QStringList{u"ps"_s} + m_engine.labelFilter({})
        + QStringList{u"--filter"_s, u"status=running"_s, u"--format"_s, u"json"_s};
}

void ContainerDiskWatch::check()
{
    if (m_inFlight || m_engine.isShuttingDown() || !m_cache.anyRunning())
        return;
    m_inFlight = true;
    // One `ps` (on the engine's API where there is one), an `inspect` of the containers not seen
    // before for the folders of their writable layers (what `--size` counts as rwSize, byte for
    // byte), measured off the event loop.
    m_engine.run(runningArgs(), [this](const ProcessResult &r) { listed(r); });
}

void ContainerDiskWatch::listed(const ProcessResult &r)
{
    if (!r.ok()) {
        m_inFlight = false;
        qCDebug(lcCli).noquote() << EngineCommands::describe(r, m_engine.what(u"ps"_s));
        return;
    }
    const QJsonArray boxes = QJsonDocument::fromJson(r.out).array();
    // A container's writable layer stays where it is for the container's life: only the
    // containers not seen before are inspected.
    QHash<QString, QStringList> known;
    QStringList unknown;
    for (const QJsonValue &value : boxes) {
        const QString id = value.toObject().value(u"Id"_s).toString();
        const auto it = m_folders.constFind(id);
        if (it != m_folders.cend())
            known.insert(id, *it);
        else
            unknown << id;
    }
    m_folders = known; // the ones gone are forgotten
    if (boxes.isEmpty())
        return apply(boxes, {});
    if (unknown.isEmpty())
        return measure(boxes);
    const QStringList inspect{u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                              u"{{.Id}}\t{{.GraphDriver.Data.UpperDir}}\t{{range .Mounts}}"
                              "{{if eq .Destination \"/workspace\"}}{{.Source}}{{end}}{{end}}"_s};
    // A box gone meanwhile fails the call but not the lines of the others.
    m_engine.run(inspect + unknown, [this, boxes](const ProcessResult &found) {
        if (m_engine.isShuttingDown())
            return;
        for (const QByteArray &line : found.out.split('\n')) {
            const QList<QByteArray> f = line.trimmed().split('\t');
            if (f.size() < 2 || f.at(1).isEmpty())
                continue;
            QStringList folders{QString::fromUtf8(f.at(1))};
            if (m_withWorkspace && f.size() > 2 && !f.at(2).isEmpty())
                folders << QString::fromUtf8(f.at(2));
            m_folders.insert(QString::fromUtf8(f.at(0)), folders);
        }
        measure(boxes);
    });
}

void ContainerDiskWatch::measure(const QJsonArray &boxes)
{
    if (m_folders.isEmpty())
        return measureByEngine();
    LayerSize::measure(this, m_folders, [this, boxes](const QHash<QString, qint64> &used) {
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
    const QStringList running = runningArgs();
    m_engine.run(
        QStringList{running.first(), u"--size"_s} + running.mid(1),
        [this](const ProcessResult &r) {
            if (!r.ok()) {
                m_inFlight = false;
                qCDebug(lcCli).noquote()
                    << EngineCommands::describe(r, m_engine.what(u"ps --size"_s));
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
}

void ContainerDiskWatch::apply(const QJsonArray &boxes, const QHash<QString, qint64> &used)
{
    m_inFlight = false;
    QSet<QString> seen;
    for (const QJsonValue &value : boxes) {
        const QJsonObject o = value.toObject();
        const QJsonObject labels = o.value(u"Labels"_s).toObject();
        const QString id = labels.value(box::kInstance).toString();
        if (id.isEmpty() || labels.value(box::kProvider).toString() != m_engine.providerId())
            continue;
        seen.insert(id);
        const qint64 limit =
            labels.value(box::kDiskGibLabel).toString().toLongLong() * kBytesPerGib;
        const qint64 bytes = used.value(o.value(u"Id"_s).toString(), -1);
        if (limit <= 0 || bytes < 0)
            continue;
        const qint64 startedAt = o.value(u"StartedAt"_s).toInteger();
        auto baseline = m_baselines.find(id);
        // A start after a stop for a full disk may keep what it held then; any other start may
        // hold its size.
        if (baseline == m_baselines.end() || baseline->startedAt != startedAt)
            baseline = m_baselines.insert(id, Baseline{startedAt, m_fullBytes.value(id, 0)});
        if (bytes > limit && bytes > baseline->bytes + (baseline->bytes > 0 ? kFullDiskSlack : 0)) {
            qCWarning(lcCli).noquote() << "instance" << id << "holds" << bytes
                                       << "bytes on its disk, over" << limit << ": stopped";
            m_fullBytes.insert(id, bytes);
            Q_EMIT diskFull(id, bytes, limit);
        }
    }
    for (auto it = m_baselines.begin(); it != m_baselines.end();)
        it = seen.contains(it.key()) ? std::next(it) : m_baselines.erase(it);
}

} // namespace cardhour::sim
