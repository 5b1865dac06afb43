#include "InstanceTableModel.h"

#include "Format.h"
#include "StateStyle.h"
#include "StopText.h"
#include "api/ProviderCodes.h"
#include "billing/BillTicker.h"

#include <QGuiApplication>
#include <QPalette>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceState;

InstanceTableModel::InstanceTableModel(const core::Clock *clock, QObject *parent)
    : QAbstractTableModel(parent), m_clock(clock ? clock : core::SystemClock::instance()),
      m_timer(new QTimer(this)), m_activityFlush(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &InstanceTableModel::tick);
    m_activityFlush->setSingleShot(true);
    m_activityFlush->setInterval(kFrameMs);
    connect(m_activityFlush, &QTimer::timeout, this, &InstanceTableModel::flushActivity);
}

int InstanceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int InstanceTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InstanceTableModel::stateText(const Instance &instance)
{
    const QString state = Format::state(instance.state, instance.stateText);
    const bool launching =
        instance.state == InstanceState::Creating || instance.state == InstanceState::Starting;
    if (launching) {
        QStringList stages;
        for (const core::LaunchStage &stage : instance.launch.stages)
            stages << Format::stage(stage.name) + u" ✓"_s;
        stages << u"…"_s;
        return tr("%1 · %2").arg(state, stages.join(u' '));
    }
    if (instance.state == InstanceState::Running && instance.launch.readyMs)
        return tr("%1 · SSH ready in %2").arg(state, Format::seconds(*instance.launch.readyMs));
    if (instance.state == InstanceState::Failed && !instance.stateReason.isEmpty())
        return tr("%1 · %2").arg(state, StopText::reasonOrAsSaid(instance.stateReason));
    if (instance.state == InstanceState::Stopped
        && instance.stateReason == core::StateReason::BalanceExhausted)
        return tr("%1 · balance ran out").arg(state);
    if (instance.state == InstanceState::Stopped
        && !StopText::reason(instance.stateReason).isEmpty())
        return tr("%1 · %2").arg(state, StopText::reason(instance.stateReason));
    return state;
}

QIcon InstanceTableModel::stateIcon(InstanceState state, const QPalette &palette) const
{
    // Drawn once per state and theme, not on every repaint of the table.
    const bool dark = StateStyle::isDark(palette);
    if (dark != m_iconsDark) {
        m_stateIcons.clear();
        m_iconsDark = dark;
    }
    auto it = m_stateIcons.find(int(state));
    if (it == m_stateIcons.end())
        it = m_stateIcons.insert(int(state), StateStyle::icon(state, palette));
    return it.value();
}

qint64 InstanceTableModel::costNowMicros(int row) const
{
    const Row &r = m_rows.at(row);
    qint64 cost = r.instance.costMicros;
    if (r.instance.isBilled())
        cost += core::BillTicker::costOf(qMax<qint64>(0, m_clock->nowMs() - r.receivedMs),
                                         r.instance.pricePerHourMicros);
    return cost;
}

QVariant InstanceTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Instance &instance = m_rows.at(index.row()).instance;
    if (role == IdRole)
        return instance.id;
    if (role == StateRole)
        return instanceStateToString(instance.state);
    if (role == SparklineRole)
        return QVariant::fromValue(m_activity.value(instance.id));
    if (role == Qt::ToolTipRole && index.column() == ActivityColumn) {
        const QList<double> values = m_activity.value(instance.id);
        return values.isEmpty() ? QString()
                                : tr("GPU utilisation now: %1%").arg(qRound(values.last()));
    }
    if (role == Qt::TextAlignmentRole
        && (index.column() == PriceColumn || index.column() == CostColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (index.column() == StateColumn) {
        // Colour and shape from StateStyle, for the palette in use now (light or dark).
        const QPalette palette = QGuiApplication::palette();
        if (role == Qt::DecorationRole)
            return stateIcon(instance.state, palette);
        if (role == Qt::ForegroundRole)
            return StateStyle::colour(instance.state, palette);
        if (role == Qt::AccessibleTextRole)
            return StateStyle::accessibleText(instance.state, instance.stateText);
    }
    // The columns that give way to a narrow table (elided) say their whole text here; the name
    // also when the host was launched.
    if (role == Qt::ToolTipRole && index.column() == GpuColumn)
        return data(index, Qt::DisplayRole);
    if (role == Qt::ToolTipRole && index.column() == NameColumn) {
        QString tip = data(index, Qt::DisplayRole).toString();
        if (instance.createdAt.isValid()) {
            const QDateTime now = (m_providerNow ? m_providerNow : m_clock)->now();
            //: when a host was launched: "3 min ago (2026-12-06 13:54:14)"
            tip += u'\n'
                + tr("Launched %1 (%2)")
                      .arg(Format::relative(instance.createdAt, now),
                           Format::dateTime(instance.createdAt, m_zone, true));
        }
        return tip;
    }
    if (role == Qt::ToolTipRole && index.column() == StateColumn) {
        QStringList lines{stateText(instance)};
        for (const core::LaunchStage &stage : instance.launch.stages)
            lines << u"%1  %2"_s.arg(Format::stage(stage.name), Format::time(stage.at, m_zone));
        return lines.join(u'\n');
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return instance.name;
    case StateColumn:
        return stateText(instance);
    case GpuColumn:
        return tr("%1 × %2")
            .arg(instance.gpuName.isEmpty() ? instance.gpuType : instance.gpuName)
            .arg(instance.gpuCount);
    case PriceColumn:
        return Format::ratePerHour(instance.pricePerHourMicros);
    case CostColumn:
        return Format::money(costNowMicros(index.row()));
    default:
        return {};
    }
}

QVariant InstanceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case StateColumn:
        return tr("State");
    case GpuColumn:
        return tr("GPU");
    case PriceColumn:
        return tr("Price");
    case CostColumn:
        return tr("Cost so far");
    case ActivityColumn:
        return tr("GPU use (1 min)");
    default:
        return {};
    }
}

namespace {

// Whether `incoming` is an older view than `shown` of the same instance (both say when).
bool isOlder(const Instance &incoming, const Instance &shown)
{
    return incoming.updatedAt.isValid() && shown.updatedAt.isValid()
        && incoming.updatedAt < shown.updatedAt;
}

} // namespace

void InstanceTableModel::setInstances(const QList<Instance> &instances)
{
    // A list asked for before an event that is already shown (a launch made elsewhere turned
    // running while the list was on its way) must not put the older view back.
    QHash<QString, Row> shown;
    for (const Row &row : std::as_const(m_rows))
        shown.insert(row.instance.id, row);
    beginResetModel();
    m_rows.clear();
    const qint64 now = m_clock->nowMs();
    for (const Instance &instance : instances) {
        const auto known = shown.constFind(instance.id);
        if (known != shown.cend() && isOlder(instance, known->instance)) {
            m_rows.append(*known);
            continue;
        }
        if (instance.state != InstanceState::Terminated)
            m_rows.append({instance, now});
    }
    reindex();
    for (auto it = m_activity.begin(); it != m_activity.end();) {
        it = rowOf(it.key()) < 0 ? m_activity.erase(it) : std::next(it);
    }
    endResetModel();
    updateTimer();
}

void InstanceTableModel::upsert(const Instance &instance)
{
    const int row = rowOf(instance.id);
    // An action's answer can arrive after the event of a later change (start answers
    // "starting" after "running" was pushed): the older view must not win.
    if (row >= 0 && isOlder(instance, m_rows.at(row).instance))
        return;
    if (instance.state == InstanceState::Terminated) {
        if (row >= 0) {
            beginRemoveRows({}, row, row);
            m_activity.remove(instance.id);
            m_rows.removeAt(row);
            reindex();
            endRemoveRows();
        }
    } else if (row >= 0) {
        m_rows[row] = {instance, m_clock->nowMs()};
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    } else {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.append({instance, m_clock->nowMs()});
        m_rowOf.insert(instance.id, int(m_rows.size()) - 1);
        endInsertRows();
    }
    updateTimer();
}

void InstanceTableModel::clear()
{
    setInstances({});
}

int InstanceTableModel::rowOf(const QString &id) const
{
    return m_rowOf.value(id, -1);
}

void InstanceTableModel::reindex()
{
    m_rowOf.clear();
    for (int row = 0; row < m_rows.size(); ++row)
        m_rowOf.insert(m_rows.at(row).instance.id, row);
    m_dirtyFirst = m_dirtyLast = -1; // rows moved: a pending flush would name the wrong ones
}

const Instance *InstanceTableModel::instanceAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).instance : nullptr;
}

const Instance *InstanceTableModel::instance(const QString &id) const
{
    return instanceAt(rowOf(id));
}

void InstanceTableModel::setTimeZone(const QTimeZone &zone, const core::Clock *providerNow)
{
    m_zone = zone;
    m_providerNow = providerNow;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void InstanceTableModel::tick()
{
    // One change covering every billed row: a view repaints the column once.
    int first = -1;
    int last = -1;
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).instance.isBilled()) {
            first = first < 0 ? row : first;
            last = row;
        }
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(first, CostColumn), index(last, CostColumn), {Qt::DisplayRole});
}

void InstanceTableModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void InstanceTableModel::updateTimer()
{
    // The timer runs only while something is billed: an idle table costs nothing.
    const bool anyBilled = std::any_of(m_rows.cbegin(), m_rows.cend(),
                                       [](const Row &r) { return r.instance.isBilled(); });
    if (anyBilled && !m_timer->isActive())
        m_timer->start();
    else if (!anyBilled)
        m_timer->stop();
}

void InstanceTableModel::addSample(const core::MetricsSample &sample)
{
    const int row = rowOf(sample.instanceId);
    if (row < 0 || sample.gpus.isEmpty())
        return;
    double sum = 0;
    for (const core::GpuSample &gpu : sample.gpus)
        sum += gpu.utilizationPct;
    QList<double> &values = m_activity[sample.instanceId];
    values.append(qBound(0.0, sum / double(sample.gpus.size()), 100.0));
    if (values.size() > kSparklinePoints)
        values.remove(0, values.size() - kSparklinePoints);
    m_dirtyFirst = m_dirtyFirst < 0 ? row : qMin(m_dirtyFirst, row);
    m_dirtyLast = qMax(m_dirtyLast, row);
    if (!m_activityFlush->isActive())
        m_activityFlush->start();
}

void InstanceTableModel::flushActivity()
{
    if (m_dirtyFirst < 0 || m_dirtyLast >= m_rows.size())
        return;
    const QModelIndex from = index(m_dirtyFirst, ActivityColumn);
    const QModelIndex to = index(m_dirtyLast, ActivityColumn);
    m_dirtyFirst = m_dirtyLast = -1;
    Q_EMIT dataChanged(from, to, {SparklineRole});
}

} // namespace cardhour::ui
