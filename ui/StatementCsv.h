#pragma once

#include "billing/Statement.h"

#include <QHash>
#include <QString>

namespace cardhour::ui {

// A statement as CSV for spreadsheets and accounting programs: one header block (month, time
// zone, balances, totals), the totals by host, then every posting; amounts in exact yuan (six
// decimals, no symbol), times in the statement's zone with its offset; CRLF line ends.
QString statementCsv(const core::Statement &statement, const QHash<QString, QString> &names);

} // namespace cardhour::ui
