#pragma once

#include <QString>

namespace cardhour::core {

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; quotes doubled. Text
// a spreadsheet would run as a formula (=, +, -, @, or a TAB or CR first) is prefixed with an
// apostrophe. The one CSV writer of the client and cardhourctl.
QString csvField(const QString &text, bool isText = true);

} // namespace cardhour::core
