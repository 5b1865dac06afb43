#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QString>
#include <QTimeZone>
#include <QtGlobal>

namespace cardhour::core {
struct Retention;
enum class InstanceState;
} // namespace cardhour::core

namespace cardhour::ui {

// How the widgets write money, time and provider words: the one place that does. Money stays
// qint64 micro-yuan until this point: the text is cut from the integer, never rounded through a
// double. Rules (tests/ui/tst_format.cpp):
//  - an amount has 2 decimals, truncated towards zero (what the ledger holds is never shown
//    larger than it is); a nonzero amount that truncates to nothing reads "< ¥0.01" (a charge:
//    "> −¥0.01"), never a misleading ¥0.00;
//  - a rate (a price per hour, per GiB-hour) has every digit it has, 2 to 6 decimals: a storage
//    price of ¥0.0002 per GiB-hour is a price, not a rounding error;
//  - statements keep every digit too (exactMoney) so their lines add up to their totals;
//  - digits are grouped and pointed as the UI language's QLocale does ("¥12,345.60");
//  - times are shown in one zone, the provider's (ClientSession::timeZone()), given by the caller.
class Format
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::Format)
public:
    // "¥1,234.90" with `decimals` (0-6) digits of the yuan, truncated towards zero; "< ¥0.01"
    // for a nonzero amount that would read as zero.
    static QString money(qint64 micros, int decimals = 2);
    // Every digit the amount has, at least two decimals: "¥3,009.60", "¥0.000528" (statements,
    // and the price part of a rate).
    static QString exactMoney(qint64 micros);
    // "1234.5": every digit, no symbol, no grouping: what a money field shows for editing and
    // core::Money::parseYuan reads back.
    static QString moneyInput(qint64 micros);
    // "¥1.90/h", "¥0.0002/h": a price per hour with every digit it has (at least `minDecimals`).
    static QString ratePerHour(qint64 microsPerHour, int minDecimals = 2);
    // "¥0.0002/GiB-h": a storage price.
    static QString ratePerGibHour(qint64 microsPerGibHour);

    // "2026-12-06 13:54" in `zone`; with seconds: "2026-12-06 13:54:14".
    static QString dateTime(const QDateTime &at, const QTimeZone &zone, bool seconds = false);
    // "13:54:14" in `zone`.
    static QString time(const QDateTime &at, const QTimeZone &zone);
    // "just now", "3 min ago", "5 h ago", "2 d ago"; "in 4 min" for a time still to come.
    static QString relative(const QDateTime &at, const QDateTime &now);
    // "Times in Asia/Shanghai (the provider's zone)"; "Times in UTC (the provider states no zone)".
    static QString zoneNote(const QTimeZone &zone, bool stated);

    // "45 s", "12 min", "3 h 05 min", "2 d 4 h"
    static QString duration(qint64 ms);
    // "3.2 s" for a launch's time to ready
    static QString seconds(qint64 ms);
    // The instance state in the user's language.
    static QString state(core::InstanceState state, const QString &providerWord);
    // A launch stage name (image, container, sshd, ready, app:NAME) in the user's language.
    static QString stage(const QString &stage);
    // A retention item (workspace_volume, container_disk, host_key, ssh_port, gpu_cards, compute,
    // storage) in the user's language.
    static QString retentionItem(const QString &item);
};

} // namespace cardhour::ui
