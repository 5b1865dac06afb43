#pragma once

#include <QCoreApplication>
#include <QString>
#include <QtGlobal>

namespace cardhour::core {
struct Retention;
enum class InstanceState;
} // namespace cardhour::core

namespace cardhour::ui {

// How the widgets write money, time and provider words. Money stays qint64 micro-yuan until
// this point: the text is cut from the integer, never rounded through a double.
class Format
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::Format)
public:
    // "¥1.90" with `decimals` (0-6) digits of the yuan, truncated towards zero.
    static QString money(qint64 micros, int decimals = 2);
    // Every digit the amount has, at least two decimals: "¥3009.60", "¥0.000528" (statements).
    static QString exactMoney(qint64 micros);
    // "¥1.90/h" (`decimals` as for money())
    static QString ratePerHour(qint64 microsPerHour, int decimals = 2);
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
