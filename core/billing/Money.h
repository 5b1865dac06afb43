#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace cardhour::core {

// Money as people read and type it. It stays qint64 micro-yuan until this point: the text is
// cut from the integer, never rounded through a double. The desktop client (ui::Format,
// TopUpDialog) and cardhourctl write and read amounts through these two functions.
class Money
{
public:
    // "¥1.90" with `decimals` (0-6) digits of the yuan, truncated towards zero.
    static QString format(qint64 micros, int decimals = 2);
    // "12.5" → 12 500 000; unset for anything but plain digits with an optional point and at
    // most `maxDecimals` decimals (a comma also counts as the point; a leading ¥ is allowed).
    static std::optional<qint64> parseYuan(const QString &text, int maxDecimals = 2);
};

} // namespace cardhour::core
