#include "TerminateReconciler.h"

#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QDebug>
#include <QSqlQuery>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

TerminateReconciler::TerminateReconciler(Database &db, Bookkeeper &books, Meter &meter,
                                         ContainerRuntime &runtime, const Clock &clock,
                                         QObject *parent)
    : QObject(parent), m_db(db), m_books(books), m_meter(meter), m_runtime(runtime), m_clock(clock)
{
    connect(&m_runtime, &ContainerRuntime::leftoversFound, this, &TerminateReconciler::onLeftovers);
    connect(&m_timer, &QTimer::timeout, this, [this] { runNow(m_periodicGraceMs); });
}

void TerminateReconciler::start(int intervalMs, qint64 graceMs)
{
    if (intervalMs <= 0)
        return;
    m_periodicGraceMs = graceMs;
    m_timer.setInterval(intervalMs);
    m_timer.start();
}

int TerminateReconciler::runNow(qint64 graceMs)
{
    if (m_listing) {
        // The pass under way goes on; one more follows it, with the smallest grace asked for.
        m_queuedGraceMs = std::min(m_queuedGraceMs.value_or(graceMs), graceMs);
        return m_pass + 2;
    }
    m_graceMs = graceMs;
    m_passStartedMs = m_clock.nowMs();
    m_findings.clear();
    refundLateCharges(m_passStartedMs);
    m_listing = true;
    m_runtime.findLeftovers();
    return m_pass + 1;
}

TerminateReconciler::Finding &TerminateReconciler::findingFor(const QString &instanceId,
                                                              const QString &userId)
{
    for (Finding &finding : m_findings)
        if (finding.instanceId == instanceId)
            return finding;
    m_findings.append(Finding{instanceId, userId, {}, 0, 0, 0});
    return m_findings.last();
}

void TerminateReconciler::refundLateCharges(qint64 nowMs)
{
    Transaction tx(m_db);
    // A segment still open after `terminated` is closed at the termination (what it charged
    // past it is refunded below).
    QSqlQuery open = m_db.exec(
        u"SELECT DISTINCT g.instance_id, g.kind, i.terminated_at, i.user_id FROM segments g"
        " JOIN instances i ON i.id = g.instance_id WHERE g.ended_at IS NULL"
        " AND g.snapshot_id IS NULL AND i.state = 'terminated' AND i.terminated_at IS NOT NULL"_s);
    struct Open
    {
        QString id, userId;
        Meter::Kind kind;
        qint64 terminatedAt;
    };
    QList<Open> stillOpen;
    while (open.next())
        stillOpen.append(
            {open.value(0).toString(), open.value(3).toString(),
             open.value(1).toString() == u"storage"_s ? Meter::Kind::Storage : Meter::Kind::Compute,
             open.value(2).toLongLong()});
    for (const Open &segment : std::as_const(stillOpen)) {
        m_meter.closeSegment(segment.id, segment.terminatedAt, segment.kind,
                             u"terminated_earlier"_s);
        findingFor(segment.id, segment.userId).terminatedAtMs = segment.terminatedAt;
    }
    for (const Ledger::BilledAfterTermination &late : m_books.ledger().billedAfterTermination()) {
        const QString name =
            m_db.scalar(u"SELECT name FROM instances WHERE id = ?"_s, {late.instanceId}).toString();
        const qint64 seconds = (late.billedUntilMs - late.terminatedAtMs + 999) / 1000;
        Ledger::Posting refund;
        refund.kind = late.kind;
        refund.userId = late.userId;
        refund.amountMicros = late.unrefundedMicros;
        refund.instanceId = late.instanceId;
        refund.periodStartMs = late.terminatedAtMs;
        refund.periodEndMs = late.billedUntilMs;
        refund.description =
            u"Refund: %1 s of %2 billed after \"%3\" was terminated at %4"_s.arg(seconds).arg(
                Ledger::kindName(late.kind), name, json::isoTime(late.terminatedAtMs));
        m_books.post(refund, nowMs);
        Finding &finding = findingFor(late.instanceId, late.userId);
        finding.refundedMicros += late.unrefundedMicros;
        finding.billedUntilMs = std::max(finding.billedUntilMs, late.billedUntilMs);
        finding.terminatedAtMs = late.terminatedAtMs;
        qWarning().noquote() << "cardhour-sim: instance" << late.instanceId << "was billed"
                             << late.unrefundedMicros
                             << "micro-yuan for time after its termination: refunded";
    }
    tx.commit();
}

void TerminateReconciler::onLeftovers(const QHash<QString, QStringList> &byInstance, bool ok)
{
    if (!m_listing)
        return;
    m_listing = false;
    QStringList toRemove;
    for (auto it = byInstance.cbegin(); it != byInstance.cend(); ++it) {
        QSqlQuery q = m_db.exec(u"SELECT user_id, terminated_at FROM instances"
                                " WHERE id = ? AND state = 'terminated'"_s,
                                {it.key()});
        // Only what belongs to a terminated row: a box without a row is quarantined elsewhere.
        if (!q.next() || q.value(1).toLongLong() > m_passStartedMs - m_graceMs)
            continue;
        Finding &finding = findingFor(it.key(), q.value(0).toString());
        finding.leftovers = it.value();
        finding.terminatedAtMs = q.value(1).toLongLong();
        toRemove.append(it.key());
    }
    for (const QString &id : std::as_const(toRemove)) {
        qWarning().noquote() << "cardhour-sim: instance" << id << "is terminated yet holds"
                             << byInstance.value(id).join(u", "_s) << "- destroying them";
        m_runtime.remove(id);
    }
    QJsonArray findings;
    m_ownerOfFinding.clear();
    for (const Finding &f : std::as_const(m_findings)) {
        m_ownerOfFinding.insert(f.instanceId, f.userId);
        findings.append(QJsonObject{
            {u"instance_id"_s, f.instanceId},
            {u"terminated_at"_s,
             f.terminatedAtMs > 0 ? QJsonValue(json::isoTime(f.terminatedAtMs)) : QJsonValue()},
            {u"leftovers"_s, QJsonArray::fromStringList(f.leftovers)},
            {u"refunded_micros"_s, f.refundedMicros},
            {u"billed_until"_s,
             f.billedUntilMs > 0 ? QJsonValue(json::isoTime(f.billedUntilMs)) : QJsonValue()}});
    }
    m_last = {{u"pass"_s, ++m_pass},
              {u"at"_s, json::isoTime(m_passStartedMs)},
              {u"listed"_s, ok},
              {u"findings"_s, findings}};
    Q_EMIT passFinished();
    if (const std::optional<qint64> queued = std::exchange(m_queuedGraceMs, std::nullopt))
        runNow(*queued);
}

QJsonObject TerminateReconciler::lastReport(const QString &userId) const
{
    if (m_last.isEmpty() || userId.isEmpty())
        return m_last;
    QJsonObject mine = m_last;
    QJsonArray findings;
    for (const QJsonValue &f : m_last.value(u"findings"_s).toArray())
        if (m_ownerOfFinding.value(f[u"instance_id"_s].toString()) == userId)
            findings.append(f);
    mine.insert(u"findings"_s, findings);
    return mine;
}

} // namespace cardhour::sim
