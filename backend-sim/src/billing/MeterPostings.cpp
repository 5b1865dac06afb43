// The checkpoint pass's side of Meter: what each posting says (the owner's name, the period
// billed to the millisecond, the rate) and the pass's writes at its end.
#include "Bookkeeper.h"
#include "Ledger.h"
#include "Meter.h"
#include "Pricing.h"
#include "store/Database.h"
#include "store/RawStatement.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// Milliseconds as seconds with as many of three decimals as it takes: 5.999, 6.5, 60.
QString secondsText(qint64 ms)
{
    if (ms < 0)
        return u"-"_s + secondsText(-ms);
    QString text = QString::number(ms / 1000);
    if (qint64 rest = ms % 1000; rest != 0) {
        int digits = 3;
        while (rest % 10 == 0) {
            rest /= 10;
            --digits;
        }
        text += u'.' + u"%1"_s.arg(rest, digits, 10, QLatin1Char('0'));
    }
    return text;
}

QString formatYuan(qint64 micros)
{
    return u"%1.%2"_s.arg(micros / pricing::kMicrosPerYuan)
        .arg(micros % pricing::kMicrosPerYuan, 6, 10, QLatin1Char('0'));
}
} // namespace

Ledger::Posting Meter::describePosting(const OpenSegment &segment, qint64 untilMs, qint64 charge,
                                       qint64 owed, bool limited, const QString &why,
                                       const QHash<QString, QString> *names)
{
    const bool snapshot = !segment.snapshotId.isEmpty();
    const auto knownName =
        names ? names->constFind(ownerKey(segment)) : QHash<QString, QString>::const_iterator();
    QString name;
    if (names && knownName != names->cend())
        name = *knownName;
    else if (snapshot)
        name = m_db.scalar(u"SELECT name FROM snapshots WHERE id = ?"_s, {segment.snapshotId})
                   .toString();
    else
        name = m_db.scalar(u"SELECT name FROM instances WHERE id = ?"_s, {segment.instanceId})
                   .toString();
    // The period billed, to the millisecond it is billed by (5.999 s, not a floored "5 s").
    const QString seconds = secondsText(untilMs - segment.chargedUntilMs);
    const bool storage = segment.kind == Kind::Storage;
    const QString what = snapshot ? u"Snapshot storage"_s
        : storage                 ? u"Storage while stopped"_s
                                  : u"Compute"_s;
    // One pass over the pattern: a name holding "%3" stays as it is.
    QString description = u"%1: %2, %3 s at %4 yuan/h"_s.arg(what, name, seconds,
                                                             formatYuan(segment.ratePerHourMicros));
    if (charge < owed)
        description += limited ? u" (capped at the spending limit)"_s
                               : u" (capped at the remaining balance)"_s;
    if (!why.isEmpty())
        description += u"; stopped: "_s + why;
    Ledger::Posting posting;
    posting.kind = storage ? Ledger::Kind::Storage : Ledger::Kind::Compute;
    posting.userId = segment.userId;
    posting.amountMicros = -charge;
    posting.description = description;
    posting.instanceId = segment.instanceId;
    posting.snapshotId = segment.snapshotId;
    posting.segmentId = segment.id;
    posting.periodStartMs = segment.chargedUntilMs;
    posting.periodEndMs = untilMs;
    return posting;
}

void Meter::writePass(const PassState &pass, qint64 nowMs)
{
    QHash<QString, qint64> balances = pass.startBalances;
    m_books.postAll(pass.postings, nowMs, balances);
    // Record the full amount owed as charged even when capped: the remainder is written off,
    // never carried as debt, and the next checkpoint must not ask for it again.
    if (!m_chargeSegments)
        m_chargeSegments = std::make_unique<RawChunkedStatement>(m_db, [](int rows) {
            // CAST: PostgreSQL takes the placeholders of a bare VALUES list for text.
            return u"UPDATE segments SET charged_micros = charged_micros"
                   " + CAST(v.column2 AS BIGINT),"
                   " written_off_micros = written_off_micros + CAST(v.column3 AS BIGINT),"
                   " charged_until = CAST(v.column4 AS BIGINT),"
                   " last_seen_at = MAX(last_seen_at, CAST(v.column4 AS BIGINT))"
                   " FROM (VALUES "_s
                + Database::placeholderRows(rows, 4)
                + u") AS v WHERE segments.id = CAST(v.column1 AS BIGINT)"_s;
        });
    const QList<PassState::SegmentCharge> &charges = pass.segmentCharges;
    Database::inChunks(charges.size(), [&](qsizetype first, int rows) {
        RawStatement &update = m_chargeSegments->forRows(rows);
        for (int row = 0; row < rows; ++row) {
            const PassState::SegmentCharge &charged = charges.at(first + row);
            update.bind(row * 4 + 1, charged.id);
            update.bind(row * 4 + 2, charged.owedMicros);
            update.bind(row * 4 + 3, charged.writtenOffMicros);
            update.bind(row * 4 + 4, charged.chargedUntilMs);
        }
        update.run();
    });
}

// Every open segment's owner's name, in one statement for instances and one for snapshots
// rather than one per posting.
QHash<QString, QString> Meter::namesOf(const QList<OpenSegment> &segments)
{
    // Names never change once written: kept with the open segments (read with them, or when
    // one opens), read here only for an owner that has none yet.
    bool anyInstance = false;
    bool anySnapshot = false;
    bool anyNew = false;
    for (const OpenSegment &s : segments) {
        (s.snapshotId.isEmpty() ? anyInstance : anySnapshot) = true;
        anyNew = anyNew || !m_names.contains(ownerKey(s));
    }
    if (!anyNew)
        return m_names;
    QHash<QString, QString> &names = m_names;
    if (anyInstance) {
        RawStatement read(m_db,
                          u"SELECT i.id, i.name FROM instances i WHERE i.id IN (SELECT"
                          " instance_id FROM segments WHERE ended_at IS NULL AND"
                          " snapshot_id IS NULL)"_s);
        read.forEachRow(
            [&names](const RawStatement &row) { names.insert(row.text(0), row.text(1)); });
    }
    if (anySnapshot) {
        RawStatement read(m_db,
                          u"SELECT p.id, p.name FROM snapshots p WHERE p.id IN (SELECT"
                          " snapshot_id FROM segments WHERE ended_at IS NULL AND"
                          " snapshot_id IS NOT NULL)"_s);
        read.forEachRow([&names](const RawStatement &row) {
            names.insert(u"snapshot:"_s + row.text(0), row.text(1));
        });
    }
    return names;
}

} // namespace cardhour::sim
