#include "StatementCsv.h"

#include "LedgerModel.h"

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using ledger::csvField;
using ledger::plainYuan;

namespace {

QString line(const QStringList &fields)
{
    return fields.join(u',') + u"\r\n"_s;
}

QString category(core::StatementCategory c)
{
    switch (c) {
    case core::StatementCategory::Compute:
        return u"compute"_s;
    case core::StatementCategory::Storage:
        return u"storage"_s;
    case core::StatementCategory::Snapshots:
        return u"snapshots"_s;
    case core::StatementCategory::Credit:
        return u"credit"_s;
    case core::StatementCategory::Other:
        break;
    }
    return u"other"_s;
}

} // namespace

QString statementCsv(const core::Statement &s, const QHash<QString, QString> &names)
{
    const QString zone = QString::fromUtf8(s.zone.id());
    QString out;
    out += line({u"statement"_s, u"%1-%2"_s.arg(s.year).arg(s.month, 2, 10, QChar(u'0'))});
    out += line({u"time_zone"_s, csvField(zone)});
    out += line({u"period_start"_s, s.start.toTimeZone(s.zone).toString(Qt::ISODate)});
    out += line({u"period_end"_s, s.end.toTimeZone(s.zone).toString(Qt::ISODate)});
    out += line({u"opening_balance_yuan"_s, plainYuan(s.openingBalanceMicros)});
    out += line({u"credits_yuan"_s, plainYuan(s.creditMicros)});
    out += line({u"compute_yuan"_s, plainYuan(s.computeMicros)});
    out += line({u"storage_yuan"_s, plainYuan(s.storageMicros)});
    out += line({u"snapshots_yuan"_s, plainYuan(s.snapshotMicros)});
    out += line({u"charges_yuan"_s, plainYuan(s.chargesMicros())});
    if (s.otherMicros != 0)
        out += line({u"other_yuan"_s, plainYuan(s.otherMicros)});
    out += line({u"closing_balance_yuan"_s, plainYuan(s.closingBalanceMicros)});
    out += u"\r\n"_s;
    out += line({u"instance_id"_s, u"instance_name"_s, u"compute_yuan"_s, u"storage_yuan"_s,
                 u"snapshots_yuan"_s, u"total_yuan"_s});
    for (const core::StatementHost &h : s.hosts) {
        out += line({csvField(h.instanceId), csvField(names.value(h.instanceId, h.instanceId)),
                     plainYuan(h.computeMicros), plainYuan(h.storageMicros),
                     plainYuan(h.snapshotMicros), plainYuan(h.totalMicros())});
    }
    out += u"\r\n"_s;
    out += line({u"snapshot_id"_s, u"snapshot_name"_s, u"instance_id"_s, u"snapshots_yuan"_s});
    for (const core::StatementSnapshot &k : s.snapshots) {
        out += line({csvField(k.snapshotId), csvField(names.value(k.snapshotId, k.label())),
                     csvField(k.instanceId), plainYuan(k.micros)});
    }
    out += u"\r\n"_s;
    out +=
        line({u"seq"_s, u"time"_s, u"kind"_s, u"category"_s, u"instance_id"_s, u"instance_name"_s,
              u"snapshot_id"_s, u"description"_s, u"amount_yuan"_s, u"balance_after_yuan"_s});
    for (const core::Posting &p : s.postings) {
        out += line(
            {QString::number(p.seq), p.createdAt.toTimeZone(s.zone).toString(Qt::ISODate),
             csvField(p.kind), category(core::Statement::categoryOf(p)), csvField(p.instanceId),
             csvField(p.instanceId.isEmpty() ? QString() : names.value(p.instanceId, p.instanceId)),
             csvField(p.snapshotId), csvField(p.description), plainYuan(p.amountMicros),
             plainYuan(p.balanceAfterMicros)});
    }
    return out;
}

} // namespace cardhour::ui
