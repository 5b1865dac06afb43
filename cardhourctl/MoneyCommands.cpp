// bill, ledger, topup: the account's money, in integer micro-yuan until it is printed.
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "billing/Csv.h"
#include "billing/Money.h"
#include "session/ClientSession.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Bill
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Bill)
};

QString when(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s) : u"-"_s;
}

int bill(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Bill::tr("bill takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<BillingSummary> summary = ctx.await(ctx.client()->billingSummary());
    if (!summary.ok())
        return ctx.fail(summary.error);
    const BillingSummary &s = *summary.value;
    if (ctx.json) {
        Output::json(ModelJson::toJson(s));
        return Ok;
    }
    Output::raw(Output::table(
        {},
        {{Bill::tr("balance:"), Money::format(s.balanceMicros)},
         {Bill::tr("spending:"), Bill::tr("%1/h").arg(Money::format(s.spendRateMicrosPerHour))},
         {Bill::tr("runs out:"),
          s.runsOutAt.isValid() ? when(s.runsOutAt) : Bill::tr("never (nothing runs)")}}));
    if (s.instances.isEmpty())
        return Ok;
    Output::line({});
    QList<QStringList> rows;
    for (const BillingInstance &i : s.instances) {
        rows.append({i.name, instanceStateToString(i.state),
                     Bill::tr("%1/h").arg(Money::format(i.spendRateMicrosPerHour)),
                     Money::format(i.costMicros, 4)});
    }
    Output::raw(Output::table(
        {Bill::tr("HOST"), Bill::tr("STATE"), Bill::tr("SPENDING"), Bill::tr("COST")}, rows));
    return Ok;
}

int ledger(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Bill::tr("ledger takes no arguments."));
    if (ctx.json && ctx.isSet(u"csv"_s))
        return ctx.usage(Bill::tr("--json or --csv, not both."));
    // --since DATE (local midnight) or an ISO 8601 time: only the postings from then on.
    QDateTime since;
    if (ctx.isSet(u"since"_s)) {
        const QString text = ctx.value(u"since"_s).trimmed();
        const QDate day = QDate::fromString(text, Qt::ISODate);
        since = day.isValid() && text.size() == 10 ? day.startOfDay()
                                                   : QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!since.isValid())
            return ctx.usage(
                Bill::tr("--since wants a date (2026-12-01) or a time (2026-12-01T18:30), not "
                         "“%1”.")
                    .arg(text));
    }
    if (const int code = ctx.connect(); code != Ok)
        return code;
    QList<Posting> postings;
    qint64 before = 0;
    for (;;) {
        const Result<LedgerPage> page = ctx.await(ctx.client()->ledger(200, before));
        if (!page.ok())
            return ctx.fail(page.error);
        bool older = false; // newest first: the rest is older still
        for (const Posting &p : page.value->postings) {
            if (since.isValid() && p.createdAt < since)
                older = true;
            else
                postings.append(p);
        }
        if (older || !page.value->nextBefore)
            break;
        before = *page.value->nextBefore;
    }
    if (ctx.json) {
        Output::json(ModelJson::toJson(postings));
        return Ok;
    }
    const QHash<QString, QString> names = ctx.session()->instanceNames();
    if (ctx.isSet(u"csv"_s)) {
        Output::line(u"seq,created_at,kind,amount_micros,balance_after_micros,instance_id,"
                     "description"_s);
        for (const Posting &p : postings) {
            Output::line(QStringList{
                QString::number(p.seq), p.createdAt.toUTC().toString(Qt::ISODateWithMs), p.kind,
                QString::number(p.amountMicros), QString::number(p.balanceAfterMicros),
                p.instanceId, csvField(p.description)}
                             .join(u','));
        }
        return Ok;
    }
    QList<QStringList> rows;
    for (const Posting &p : postings) {
        rows.append({when(p.createdAt), p.kind, Money::format(p.amountMicros, 4),
                     Money::format(p.balanceAfterMicros, 4), p.description});
    }
    Output::raw(Output::table({Bill::tr("TIME"), Bill::tr("KIND"), Bill::tr("AMOUNT"),
                               Bill::tr("BALANCE"), Bill::tr("DESCRIPTION")},
                              rows));
    return Ok;
}

int topup(Context &ctx)
{
    QString text;
    int code = Ok;
    if (!ctx.oneArgument(Bill::tr("AMOUNT"), &text, &code))
        return code;
    const std::optional<qint64> micros = Money::parseYuan(text);
    if (!micros || *micros <= 0)
        return ctx.usage(Bill::tr("%1 is not an amount of yuan (e.g. 50 or 12.50).").arg(text));
    if ((code = ctx.connect()) != Ok)
        return code;
    const Result<TopupResult> result = ctx.await(ctx.client()->topUp(*micros));
    if (!result.ok())
        return ctx.fail(result.error);
    ctx.session()->applyTopUp(*result.value);
    if (ctx.json)
        Output::json(ModelJson::toJson(*result.value));
    else
        Output::line(Bill::tr("Added %1; the balance is %2.")
                         .arg(Money::format(result.value->posting.amountMicros),
                              Money::format(result.value->balanceMicros)));
    return Ok;
}

} // namespace

QList<Command> moneyCommands()
{
    return {
        {u"bill"_s,
         Bill::tr("The balance, what it is spent at, when it runs out, per host."),
         {},
         {},
         bill},
        {u"ledger"_s,
         Bill::tr("Every posting of the account, newest first."),
         {},
         {QCommandLineOption(u"csv"_s, Bill::tr("As CSV (amounts in micro-yuan).")),
          QCommandLineOption(u"since"_s,
                             Bill::tr("Only the postings from DATE (local midnight) or an ISO "
                                      "8601 time on."),
                             u"DATE"_s)},
         ledger},
        {u"topup"_s,
         Bill::tr("Add money (the sandbox's pretend payment)."),
         u"AMOUNT"_s,
         {},
         topup},
    };
}

} // namespace cardhour::ctl
