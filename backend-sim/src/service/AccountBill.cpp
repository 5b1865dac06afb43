#include "AccountBill.h"

#include "Catalog.h"
#include "EventBus.h"
#include "Limits.h"
#include "PrivateModels.h"
#include "StorageFees.h"
#include "billing/Bookkeeper.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QJsonArray>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// No account may hold more than a million yuan: far above any real use, far below overflow.
constexpr qint64 kMaxBalanceMicros = 1'000'000LL * 1'000'000;
} // namespace

AccountBill::AccountBill(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                         StorageFees &storage, EventBus &events, const Clock &clock,
                         QObject *parent)
    : QObject(parent), m_db(db), m_books(books), m_meter(meter), m_catalog(catalog),
      m_storage(storage), m_events(events), m_clock(clock)
{
    connect(&m_books, &Bookkeeper::billMoved, this, &AccountBill::publish);
}

QJsonObject AccountBill::topUp(const QString &userId, qint64 amountMicros)
{
    Transaction tx(m_db);
    Limits(m_db, m_catalog.userLimits()).requireTopupRoom(userId, amountMicros);
    if (m_books.balance(userId) + amountMicros > kMaxBalanceMicros)
        throw ApiError(400, ErrorCode::BalanceLimit,
                       u"A sandbox balance is limited to 1 000 000 yuan."_s);
    Ledger::Posting posting;
    posting.kind = Ledger::Kind::Topup;
    posting.userId = userId;
    posting.amountMicros = amountMicros;
    posting.description = u"Sandbox top-up (simulated payment)"_s;
    m_books.post(posting, m_clock.nowMs());
    // A stopped instance whose storage fee the empty balance paused is billed again from now.
    m_storage.resume(userId);
    const QJsonObject newest = m_books.ledger().page(userId, 0, 1).at(0).toObject();
    tx.commit();
    return newest;
}

QList<Meter::OpenSegment> AccountBill::modelFeesOf(const QString &userId)
{
    return m_models ? m_models->openFeesOf(userId) : QList<Meter::OpenSegment>();
}

qint64 AccountBill::liveBalance(const QString &userId)
{
    return liveAccount(userId, m_books.balance(userId)).balanceMicros;
}

AccountBill::LiveAccount AccountBill::liveAccount(const QString &userId, qint64 postedBalanceMicros)
{
    const qint64 now = m_clock.nowMs();
    const Meter::OpenTotals open = m_meter.openTotalsOf(userId, now);
    qint64 owed = open.unpostedMicros;
    qint64 rate = open.ratePerHourMicros;
    for (const Meter::OpenSegment &fee : modelFeesOf(userId)) {
        owed += Meter::unposted(fee, now);
        rate += fee.ratePerHourMicros;
    }
    return {std::max<qint64>(0, postedBalanceMicros - owed), rate};
}

qint64 AccountBill::spendRate(const QString &userId)
{
    qint64 rate = m_meter.openTotalsOf(userId, m_clock.nowMs()).ratePerHourMicros;
    for (const Meter::OpenSegment &fee : modelFeesOf(userId))
        rate += fee.ratePerHourMicros;
    return rate;
}

struct AccountBill::InstanceCosts
{
    QJsonArray perInstance;
    qint64 computeTotal = 0;
    qint64 storageTotal = 0; // kept snapshots' included
    qint64 snapshotTotal = 0;
};

AccountBill::InstanceCosts AccountBill::instanceCosts(const QString &userId,
                                                      const QList<Meter::OpenSegment> &open,
                                                      const QHash<QString, qint64> &storageRates,
                                                      qint64 nowMs)
{
    InstanceCosts out;
    QHash<QString, Meter::Costs> costs = m_meter.postedByInstance(userId);
    Meter::addUnposted(costs, open, nowMs);
    for (const Meter::Costs &c : std::as_const(costs)) {
        out.computeTotal += c.computeMicros;
        out.storageTotal += c.storageMicros;
    }
    // Kept snapshots are storage too: in the totals, and shown apart.
    for (const qint64 cost : m_meter.snapshotCosts(userId, nowMs))
        out.snapshotTotal += cost;
    out.storageTotal += out.snapshotTotal;
    QSqlQuery q =
        m_db.exec(u"SELECT id, name, state, price_per_hour_micros FROM instances WHERE user_id = ?"
                  " ORDER BY created_at, rowid"_s,
                  {userId});
    while (q.next()) {
        const QString id = q.value(0).toString();
        const bool running = q.value(2).toString() == u"running"_s;
        if (!costs.contains(id) && !running)
            continue;
        const qint64 computeNow = running ? q.value(3).toLongLong() : 0;
        out.perInstance.append(
            QJsonObject{{u"instance_id"_s, id},
                        {u"name"_s, q.value(1).toString()},
                        {u"state"_s, q.value(2).toString()},
                        {u"price_per_hour_micros"_s, q.value(3).toLongLong()},
                        {u"spend_rate_micros_per_hour"_s, computeNow + storageRates.value(id)},
                        {u"storage_rate_micros_per_hour"_s, storageRates.value(id)},
                        {u"cost_micros"_s, costs.value(id).computeMicros},
                        {u"storage_cost_micros"_s, costs.value(id).storageMicros}});
    }
    return out;
}

QJsonObject AccountBill::billingSummary(const QString &userId)
{
    const qint64 now = m_clock.nowMs();
    const QList<Meter::OpenSegment> open = m_meter.openSegmentsOf(userId);
    const qint64 posted = m_books.balance(userId);
    qint64 owed = 0;
    qint64 computeRate = 0;
    qint64 storageRate = 0;
    qint64 snapshotRate = 0;
    QHash<QString, qint64> storageRates;
    for (const Meter::OpenSegment &s : open) {
        owed += Meter::unposted(s, now);
        if (!s.snapshotId.isEmpty()) {
            snapshotRate += s.ratePerHourMicros;
        } else if (s.kind == Meter::Kind::Storage) {
            storageRate += s.ratePerHourMicros;
            storageRates.insert(s.instanceId, s.ratePerHourMicros);
        } else {
            computeRate += s.ratePerHourMicros;
        }
    }
    // Private models' storage fees are billed apart from the meter, but spend the same balance.
    const QList<Meter::OpenSegment> modelFees = modelFeesOf(userId);
    qint64 modelRate = 0;
    for (const Meter::OpenSegment &fee : modelFees) {
        owed += Meter::unposted(fee, now);
        modelRate += fee.ratePerHourMicros;
    }
    // Storage segments and model fees count like runs: the balance runs out at their rate too.
    const std::optional<qint64> runsOut = Meter::runsOutAt(open + modelFees, posted, now);
    const InstanceCosts costs = instanceCosts(userId, open, storageRates, now);
    return {{u"balance_micros"_s, std::max<qint64>(0, posted - owed)},
            {u"ledger_balance_micros"_s, posted},
            {u"accrued_micros"_s, std::min(owed, posted)},
            {u"spend_rate_micros_per_hour"_s, computeRate + storageRate + snapshotRate + modelRate},
            {u"compute_spend_rate_micros_per_hour"_s, computeRate},
            {u"storage_spend_rate_micros_per_hour"_s, storageRate + snapshotRate + modelRate},
            {u"snapshot_storage_spend_rate_micros_per_hour"_s, snapshotRate},
            {u"model_storage_spend_rate_micros_per_hour"_s, modelRate},
            {u"compute_cost_micros"_s, costs.computeTotal},
            {u"storage_cost_micros"_s, costs.storageTotal},
            {u"snapshot_storage_cost_micros"_s, costs.snapshotTotal},
            {u"runs_out_at"_s, json::isoTimeOrNull(runsOut)},
            {u"as_of"_s, json::isoTime(now)},
            {u"instances"_s, costs.perInstance}};
}

void AccountBill::publish(const QString &userId)
{
    if (!m_events.hasSubscribers(userId))
        return;
    QJsonObject summary = billingSummary(userId);
    summary.remove(u"instances"_s);
    m_events.publish(userId, u"billing"_s, summary);
}

} // namespace cardhour::sim
