#pragma once

// What the tests of PDF statements share: a PDF read back by poppler's pdftotext (the path
// comes from CMake as CARDHOUR_PDFTOTEXT) and amounts read back from its text.
#include "billing/Money.h"

#include <QProcess>
#include <QRegularExpression>
#include <QString>

#include <optional>

namespace cardhour::test {

using namespace Qt::StringLiterals;

// A PDF's text as poppler's pdftotext lays it out; empty when it could not be read.
inline QString pdfText(const QString &path)
{
    QProcess pdftotext;
    pdftotext.start(QStringLiteral(CARDHOUR_PDFTOTEXT), {u"-layout"_s, path, u"-"_s});
    if (!pdftotext.waitForFinished(30000) || pdftotext.exitStatus() != QProcess::NormalExit
        || pdftotext.exitCode() != 0)
        return {};
    return QString::fromUtf8(pdftotext.readAllStandardOutput());
}

// The amount written after `label` on a line of pdftotext's layout output, read back exactly
// (thousands separators dropped).
inline std::optional<qint64> amountAfter(const QString &text, const QString &label)
{
    const QRegularExpression line(u"^\\s*"_s + QRegularExpression::escape(label)
                                      + u"\\s+(−?)¥([0-9][0-9,]*(?:\\.[0-9]+)?)\\s*$"_s,
                                  QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const std::optional<qint64> micros = core::Money::parseYuan(m.captured(2).remove(u','), 6);
    if (!micros)
        return std::nullopt;
    return m.captured(1).isEmpty() ? *micros : -*micros;
}
} // namespace cardhour::test
