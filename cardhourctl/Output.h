#pragma once

#include <QCoreApplication>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace cardhour::ctl {

// What cardhourctl writes: data on stdout (aligned tables for people, JSON for scripts),
// messages on stderr. Nothing here talks to the provider.
class Output
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Output)
public:
    // Terminal columns `text` takes: East Asian wide and full-width characters (CJK, Hangul,
    // kana, full-width forms, wide emoji) count two, combining marks and format characters none.
    static int displayWidth(QStringView text);
    // `text` followed by spaces up to `width` columns.
    static QString padded(const QString &text, int width);
    // Columns separated by two spaces, each as wide as its widest cell; the last one unpadded.
    // Without headers only the rows.
    static QString table(const QStringList &headers, const QList<QStringList> &rows);

    static bool stdoutIsTerminal();
    static bool stderrIsTerminal();
    static bool stdinIsTerminal();

    // One line (a newline is added) on stdout / stderr, UTF-8, flushed.
    static void line(const QString &text);
    static void error(const QString &text);
    // Text as it is (no newline added) on stdout.
    static void raw(const QString &text);
    // One JSON document on stdout: indented, keys as the provider spells them.
    static void json(const QJsonValue &value);

    // A line from stdin without its newline; nullopt-like empty + `*eof` at the end of input.
    // With `echo` false and stdin a terminal, what is typed is not shown.
    static QString readLine(bool echo, bool *eof = nullptr);
    // Asks on stderr and reads one line from the terminal.
    static QString prompt(const QString &question, bool echo = true);
};

} // namespace cardhour::ctl
