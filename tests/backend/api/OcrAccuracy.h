#pragma once

// How well the OCR app read a sample: its character error rate against the ground truth. Shared
// by the API test (tst_api_apps) and the GUI test (tst_appspanel).
#include <QList>
#include <QString>

#include <algorithm>
#include <vector>

namespace cardhour::test {

// Levenshtein distance over code points, divided by the reference's length.
inline double characterErrorRate(const QString &reference, const QString &hypothesis)
{
    const QList<uint> ref = reference.toUcs4();
    const QList<uint> hyp = hypothesis.toUcs4();
    std::vector<qsizetype> row(size_t(hyp.size()) + 1);
    for (qsizetype j = 0; j <= hyp.size(); ++j)
        row[size_t(j)] = j;
    for (qsizetype i = 1; i <= ref.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= hyp.size(); ++j) {
            const qsizetype above = row[size_t(j)];
            row[size_t(j)] = std::min(
                {above + 1, row[size_t(j - 1)] + 1, diagonal + (ref[i - 1] == hyp[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return ref.isEmpty() ? 1.0 : double(row[size_t(hyp.size())]) / double(ref.size());
}

// English: words separated by single spaces; Chinese: no spaces at all (Tesseract puts them
// between characters).
inline QString normalisedOcrText(const QString &text, bool chinese)
{
    QString t = text.simplified();
    if (chinese)
        t.remove(u' ');
    return t;
}

} // namespace cardhour::test
