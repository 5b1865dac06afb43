#include "Output.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <string>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::ctl {

namespace {

// Unicode's East Asian Width "W" and "F" ranges (UAX #11), the ones a terminal draws two
// columns wide. Qt has no accessor for the property, so the table is here.
struct Range
{
    char32_t first;
    char32_t last;
};
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1AFF0, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F},
    {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

bool isWide(char32_t c)
{
    for (const Range &range : kWide) {
        if (c < range.first)
            return false;
        if (c <= range.last)
            return true;
    }
    return false;
}

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

} // namespace

int Output::displayWidth(QStringView text)
{
    int width = 0;
    for (char32_t c : text.toUcs4()) {
        switch (QChar::category(c)) {
        case QChar::Mark_NonSpacing:
        case QChar::Mark_Enclosing:
        case QChar::Other_Format:
        case QChar::Other_Control:
            continue;
        default:
            width += isWide(c) ? 2 : 1;
        }
    }
    return width;
}

QString Output::padded(const QString &text, int width)
{
    const int missing = width - displayWidth(text);
    return missing > 0 ? text + QString(missing, u' ') : text;
}

QString Output::table(const QStringList &headers, const QList<QStringList> &rows)
{
    qsizetype columns = headers.size();
    for (const QStringList &row : rows)
        columns = qMax(columns, row.size());
    QList<int> widths(columns, 0);
    for (qsizetype i = 0; i < headers.size(); ++i)
        widths[i] = displayWidth(headers[i]);
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = qMax(widths[i], displayWidth(row[i]));
    }
    QString text;
    const auto addRow = [&](const QStringList &cells) {
        QString line;
        for (qsizetype i = 0; i < widths.size(); ++i) {
            const QString cell = i < cells.size() ? cells[i] : QString();
            line += i + 1 < widths.size() ? padded(cell, widths[i]) + u"  "_s : cell;
        }
        while (line.endsWith(u' '))
            line.chop(1);
        text += line + u'\n';
    };
    if (!headers.isEmpty())
        addRow(headers);
    for (const QStringList &row : rows)
        addRow(row);
    return text;
}

bool Output::stdoutIsTerminal()
{
#ifdef Q_OS_UNIX
    return isatty(STDOUT_FILENO) == 1;
#else
    return false;
#endif
}

bool Output::stderrIsTerminal()
{
#ifdef Q_OS_UNIX
    return isatty(STDERR_FILENO) == 1;
#else
    return false;
#endif
}

bool Output::stdinIsTerminal()
{
#ifdef Q_OS_UNIX
    return isatty(STDIN_FILENO) == 1;
#else
    return false;
#endif
}

void Output::line(const QString &text)
{
    write(stdout, text + u'\n');
}

void Output::error(const QString &text)
{
    write(stderr, text + u'\n');
}

void Output::raw(const QString &text)
{
    write(stdout, text);
}

void Output::json(const QJsonValue &value)
{
    QJsonDocument document;
    if (value.isArray())
        document.setArray(value.toArray());
    else
        document.setObject(value.toObject());
    write(stdout, QString::fromUtf8(document.toJson(QJsonDocument::Indented)));
}

QString Output::readLine(bool echo, bool *eof)
{
#ifdef Q_OS_UNIX
    termios saved{};
    const bool hide = !echo && stdinIsTerminal() && tcgetattr(STDIN_FILENO, &saved) == 0;
    if (hide) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
#endif
    std::string bytes;
    bool ended = true;
    for (int c = std::fgetc(stdin); c != EOF; c = std::fgetc(stdin)) {
        ended = false;
        if (c == '\n')
            break;
        bytes.push_back(char(c));
    }
#ifdef Q_OS_UNIX
    if (hide) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        write(stderr, u"\n"_s);
    }
#endif
    if (!bytes.empty() && bytes.back() == '\r')
        bytes.pop_back();
    if (eof)
        *eof = ended;
    return QString::fromStdString(bytes);
}

QString Output::prompt(const QString &question, bool echo)
{
    write(stderr, question);
    return readLine(echo);
}

} // namespace cardhour::ctl
