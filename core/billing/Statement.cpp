#include "billing/Statement.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

bool postedBefore(const Posting &a, const Posting &b)
{
    // seq is the provider's own order; the time only breaks a tie the provider never makes.
    return a.seq != b.seq ? a.seq < b.seq : a.createdAt < b.createdAt;
}

} // namespace

StatementCategory Statement::categoryOf(const Posting &posting)
{
    if (posting.kind == u"compute"_s)
        return StatementCategory::Compute;
    if (posting.kind == u"storage"_s)
        return posting.snapshotId.isEmpty() ? StatementCategory::Storage
                                            : StatementCategory::Snapshots;
    if (posting.kind == u"topup"_s || posting.kind == u"trial_credit"_s)
        return StatementCategory::Credit;
    return StatementCategory::Other;
}

qint64 Statement::expectedClosingMicros() const
{
    return openingBalanceMicros + creditMicros - chargesMicros() + otherMicros;
}

Statement Statement::build(const QList<Posting> &all, int year, int month, const QTimeZone &zone)
{
    Statement s;
    s.year = year;
    s.month = month;
    s.zone = zone;
    const QDate first(year, month, 1);
    s.start = QDateTime(first, QTime(0, 0), zone).toUTC();
    s.end = QDateTime(first.addMonths(1), QTime(0, 0), zone).toUTC();

    QList<Posting> sorted = all;
    std::sort(sorted.begin(), sorted.end(), postedBefore);
    for (const Posting &p : std::as_const(sorted)) {
        if (p.createdAt < s.start) {
            s.openingBalanceMicros = p.balanceAfterMicros;
            continue;
        }
        if (p.createdAt >= s.end)
            break;
        s.postings.append(p);
        const StatementCategory category = categoryOf(p);
        const qint64 charge = -p.amountMicros;
        switch (category) {
        case StatementCategory::Compute:
            s.computeMicros += charge;
            break;
        case StatementCategory::Storage:
            s.storageMicros += charge;
            break;
        case StatementCategory::Snapshots:
            s.snapshotMicros += charge;
            break;
        case StatementCategory::Credit:
            s.creditMicros += p.amountMicros;
            break;
        case StatementCategory::Other:
            s.otherMicros += p.amountMicros;
            break;
        }
        if (category == StatementCategory::Snapshots) {
            auto snapshot = std::find_if(
                s.snapshots.begin(), s.snapshots.end(),
                [&p](const StatementSnapshot &k) { return k.snapshotId == p.snapshotId; });
            if (snapshot == s.snapshots.end()) {
                s.snapshots.append(StatementSnapshot{p.snapshotId, p.instanceId, 0, {}});
                snapshot = s.snapshots.end() - 1;
            }
            snapshot->micros += charge;
            if (snapshot->name.isEmpty()) // any of its postings that names it
                snapshot->name = p.snapshotName;
        }
        if (category == StatementCategory::Credit || category == StatementCategory::Other
            || p.instanceId.isEmpty())
            continue;
        auto host = std::find_if(s.hosts.begin(), s.hosts.end(), [&p](const StatementHost &h) {
            return h.instanceId == p.instanceId;
        });
        if (host == s.hosts.end()) {
            s.hosts.append(StatementHost{p.instanceId});
            host = s.hosts.end() - 1;
        }
        if (category == StatementCategory::Compute)
            host->computeMicros += charge;
        else if (category == StatementCategory::Storage)
            host->storageMicros += charge;
        else
            host->snapshotMicros += charge;
    }
    s.closingBalanceMicros =
        s.postings.isEmpty() ? s.openingBalanceMicros : s.postings.constLast().balanceAfterMicros;
    return s;
}

QList<int> Statement::monthsWithPostings(const QList<Posting> &all, const QTimeZone &zone)
{
    QList<int> months;
    for (const Posting &p : all) {
        const QDate day = p.createdAt.toTimeZone(zone).date();
        const int key = day.year() * 100 + day.month();
        if (!months.contains(key))
            months.append(key);
    }
    std::sort(months.begin(), months.end(), std::greater<int>());
    return months;
}

} // namespace cardhour::core
