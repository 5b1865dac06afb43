#pragma once

#include "billing/Statement.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

namespace cardhour::ui {

// The statement as a PDF (Qt's own QPdfWriter, A4): the month and its time zone, the balances
// and totals by kind, the totals by host, and every posting with its description, in the
// user's language. Amounts are the ledger's integers written out in full (Format::exactMoney).
class StatementPdf
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::StatementPdf)
public:
    // Writes the whole file or nothing; false with `error` in words.
    static bool write(const core::Statement &statement, const QHash<QString, QString> &names,
                      bool zoneFromProvider, const QString &path, QString *error);

    // "December 2026" in the user's language.
    static QString monthTitle(int year, int month);
    // "Time zone: Asia/Shanghai (the provider's)" or "... UTC (the provider states none)".
    static QString zoneText(const QTimeZone &zone, bool fromProvider);
    static QString categoryText(core::StatementCategory category);
    // The lines of the summary, label and amount, in the order the screen and the PDF show them.
    static QList<std::pair<QString, qint64>> summary(const core::Statement &statement);
};

} // namespace cardhour::ui
