// TerminalScreen: the libvterm emulation as the widget and the SSH tab see it. Bytes go in,
// cells, cursor, scrollback and the answers to the remote come out.
#include "TerminalScreen.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::terminal::TerminalCell;
using cardhour::terminal::TerminalScreen;

namespace {

// The xterm 256-colour cube and grey ramp, computed here independently of libvterm.
QColor xterm256(int index)
{
    if (index >= 232) {
        const int level = 8 + 10 * (index - 232);
        return QColor(level, level, level);
    }
    const int cube = index - 16;
    const auto level = [](int step) { return step == 0 ? 0 : 55 + 40 * step; };
    return QColor(level(cube / 36), level(cube / 6 % 6), level(cube % 6));
}

} // namespace

class TestTerminalScreen : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cells_data();
    void cells();
    void utf8SplitAcrossFeeds_data();
    void utf8SplitAcrossFeeds();
    void cursor_data();
    void cursor();
    void alternateScreenRestoresPrimary();
    void scrollbackKeepsLinesAndColours();
    void scrollbackIsBounded();
    void resizeKeepsContent();
    void resizeBringsLinesBackFromScrollback();
    void answersGoToOutput_data();
    void answersGoToOutput();
    void keysAreEncodedForTheRemote_data();
    void keysAreEncodedForTheRemote();
    void pasteIsBracketedWhenAsked();
    void titleAndBell();
    void damageCoversOnlyWhatChanged();
    void textOfARange();
};

void TestTerminalScreen::cells_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<QColor>("foreground"); // invalid: the default
    QTest::addColumn<QColor>("background"); // invalid: the default
    QTest::addColumn<QString>("attributes"); // b bold, u underline, i italic, r reverse, s strike

    const QColor plain;
    QTest::newRow("plain text") << "hello"_ba << 0 << 1 << u"e"_s << 1 << plain << plain << u""_s;
    QTest::newRow("second line") << "one\r\ntwo"_ba << 1 << 2 << u"o"_s << 1 << plain << plain
                                 << u""_s;
    QTest::newRow("blank cell") << "a"_ba << 0 << 5 << QString() << 1 << plain << plain << u""_s;
    QTest::newRow("16 colours: red")
        << "\x1b[31mR"_ba << 0 << 0 << u"R"_s << 1 << QColor(0xcd, 0x31, 0x31) << plain << u""_s;
    QTest::newRow("16 colours: bright red")
        << "\x1b[91mR"_ba << 0 << 0 << u"R"_s << 1 << QColor(0xf1, 0x4c, 0x4c) << plain << u""_s;
    QTest::newRow("16 colours: blue background")
        << "\x1b[44mB"_ba << 0 << 0 << u"B"_s << 1 << plain << QColor(0x24, 0x72, 0xc8) << u""_s;
    QTest::newRow("256 colours: 196")
        << "\x1b[38;5;196mX"_ba << 0 << 0 << u"X"_s << 1 << xterm256(196) << plain << u""_s;
    QTest::newRow("256 colours: cube 67")
        << "\x1b[38;5;67mX"_ba << 0 << 0 << u"X"_s << 1 << QColor(95, 135, 175) << plain << u""_s;
    QTest::newRow("256 colours: grey background")
        << "\x1b[48;5;244mX"_ba << 0 << 0 << u"X"_s << 1 << plain << xterm256(244) << u""_s;
    QTest::newRow("256 colours: low index is the palette")
        << "\x1b[38;5;2mg"_ba << 0 << 0 << u"g"_s << 1 << QColor(0x0d, 0xbc, 0x79) << plain
        << u""_s;
    QTest::newRow("truecolor foreground") << "\x1b[38;2;255;100;0mT"_ba << 0 << 0 << u"T"_s << 1
                                          << QColor(255, 100, 0) << plain << u""_s;
    QTest::newRow("truecolor background") << "\x1b[48;2;10;20;30mT"_ba << 0 << 0 << u"T"_s << 1
                                          << plain << QColor(10, 20, 30) << u""_s;
    QTest::newRow("bold") << "\x1b[1mB"_ba << 0 << 0 << u"B"_s << 1 << plain << plain << u"b"_s;
    QTest::newRow("underline") << "\x1b[4mU"_ba << 0 << 0 << u"U"_s << 1 << plain << plain
                               << u"u"_s;
    QTest::newRow("italic") << "\x1b[3mI"_ba << 0 << 0 << u"I"_s << 1 << plain << plain << u"i"_s;
    QTest::newRow("reverse") << "\x1b[7mR"_ba << 0 << 0 << u"R"_s << 1 << plain << plain << u"r"_s;
    QTest::newRow("bold underline red") << "\x1b[1;4;31mx"_ba << 0 << 0 << u"x"_s << 1
                                        << QColor(0xf1, 0x4c, 0x4c) << plain << u"bu"_s;
    QTest::newRow("reset after colour")
        << "\x1b[31;1mA\x1b[0mB"_ba << 0 << 1 << u"B"_s << 1 << plain << plain << u""_s;
    QTest::newRow("CJK first") << "中文"_ba << 0 << 0 << u"中"_s << 2 << plain << plain << u""_s;
    QTest::newRow("CJK continuation")
        << "中文"_ba << 0 << 1 << QString() << 0 << plain << plain << u""_s;
    QTest::newRow("CJK second") << "中文"_ba << 0 << 2 << u"文"_s << 2 << plain << plain << u""_s;
    QTest::newRow("after CJK") << "中文!"_ba << 0 << 4 << u"!"_s << 1 << plain << plain << u""_s;
    QTest::newRow("combining accent")
        << "e\xcc\x81x"_ba << 0 << 0 << u"e\u0301"_s << 1 << plain << plain << u""_s;
}

void TestTerminalScreen::cells()
{
    QFETCH(QByteArray, input);
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(QColor, foreground);
    QFETCH(QColor, background);
    QFETCH(QString, attributes);

    TerminalScreen screen(24, 80);
    screen.feed(input);
    const TerminalCell cell = screen.cell(row, column);
    QCOMPARE(cell.text, text);
    QCOMPARE(cell.width, width);
    QCOMPARE(cell.foreground, foreground.isValid() ? foreground : screen.defaultForeground());
    QCOMPARE(cell.background, background.isValid() ? background : screen.defaultBackground());
    QCOMPARE(cell.defaultBackground, !background.isValid());
    QCOMPARE(cell.bold, attributes.contains(u'b'));
    QCOMPARE(cell.underline, attributes.contains(u'u'));
    QCOMPARE(cell.italic, attributes.contains(u'i'));
    QCOMPARE(cell.reverse, attributes.contains(u'r'));
}

void TestTerminalScreen::utf8SplitAcrossFeeds_data()
{
    QTest::addColumn<int>("split");
    const QByteArray text = "a中€😀b"_ba;
    for (int split = 1; split < text.size(); ++split)
        QTest::addRow("split at byte %d", split) << split;
}

void TestTerminalScreen::utf8SplitAcrossFeeds()
{
    QFETCH(int, split);
    const QByteArray text = "a中€😀b"_ba;
    TerminalScreen screen(24, 80);
    screen.feed(text.left(split));
    screen.feed(text.mid(split));
    QCOMPARE(screen.lineText(0), u"a中€😀b"_s);
    QCOMPARE(screen.cell(0, 1).text, u"中"_s);
    QCOMPARE(screen.cell(0, 1).width, 2);
    QCOMPARE(screen.cell(0, 3).text, u"€"_s);
    QCOMPARE(screen.cell(0, 4).text, u"😀"_s);
    QCOMPARE(screen.cell(0, 4).width, 2);
    QCOMPARE(screen.cursor(), QPoint(7, 0));
}

void TestTerminalScreen::cursor_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QPoint>("position"); // x = column, y = row
    QTest::addColumn<bool>("visible");

    QTest::newRow("after text") << "abc"_ba << QPoint(3, 0) << true;
    QTest::newRow("CUP 5;10") << "\x1b[5;10H"_ba << QPoint(9, 4) << true;
    QTest::newRow("back two") << "abcdef\x1b[2D"_ba << QPoint(4, 0) << true;
    QTest::newRow("up one") << "\x1b[3;3H\x1b[A"_ba << QPoint(2, 1) << true;
    QTest::newRow("CR LF LF") << "xyz\r\n\n"_ba << QPoint(0, 2) << true;
    QTest::newRow("clamped at the edge") << "\x1b[99;999H"_ba << QPoint(79, 23) << true;
    QTest::newRow("hidden") << "\x1b[?25l"_ba << QPoint(0, 0) << false;
    QTest::newRow("hidden then shown") << "\x1b[?25l\x1b[?25hab"_ba << QPoint(2, 0) << true;
    QTest::newRow("save and restore") << "\x1b[4;4H\x1b"
                                         "7\x1b[10;10H\x1b"
                                         "8"_ba
                                      << QPoint(3, 3) << true;
}

void TestTerminalScreen::cursor()
{
    QFETCH(QByteArray, input);
    QFETCH(QPoint, position);
    QFETCH(bool, visible);
    TerminalScreen screen(24, 80);
    screen.feed(input);
    QCOMPARE(screen.cursor(), position);
    QCOMPARE(screen.cursorVisible(), visible);
}

void TestTerminalScreen::alternateScreenRestoresPrimary()
{
    TerminalScreen screen(10, 40);
    QSignalSpy altSpy(&screen, &TerminalScreen::altScreenChanged);
    screen.feed("\x1b[32mprimary\x1b[0m text\r\nsecond line"_ba);
    const QPoint cursorBefore = screen.cursor();

    screen.feed("\x1b[?1049h\x1b[H\x1b[2Jfull screen app"_ba);
    QVERIFY(screen.altScreenActive());
    QCOMPARE(altSpy.count(), 1);
    QCOMPARE(screen.lineText(0), u"full screen app"_s);
    QCOMPARE(screen.lineText(1), QString());

    screen.feed("\x1b[?1049l"_ba);
    QVERIFY(!screen.altScreenActive());
    QCOMPARE(altSpy.count(), 2);
    QCOMPARE(screen.lineText(0), u"primary text"_s);
    QCOMPARE(screen.lineText(1), u"second line"_s);
    QCOMPARE(screen.cell(0, 0).foreground, QColor(0x0d, 0xbc, 0x79));
    QCOMPARE(screen.cursor(), cursorBefore);
    QCOMPARE(screen.scrollbackCount(), 0); // the full-screen app left nothing in the history
}

void TestTerminalScreen::scrollbackKeepsLinesAndColours()
{
    TerminalScreen screen(5, 20);
    QSignalSpy scrollSpy(&screen, &TerminalScreen::scrollbackChanged);
    QByteArray input;
    for (int line = 1; line <= 12; ++line)
        input += (line == 2 ? "\x1b[33mline "_ba : "line "_ba) + QByteArray::number(line)
            + "\x1b[0m\r\n"_ba;
    screen.feed(input);

    // 12 lines and the empty one under the cursor: 13 rows, 5 on the screen.
    QCOMPARE(screen.scrollbackCount(), 8);
    QCOMPARE(screen.lineText(-8), u"line 1"_s);
    QCOMPARE(screen.lineText(-1), u"line 8"_s);
    QCOMPARE(screen.lineText(0), u"line 9"_s);
    QCOMPARE(screen.lineText(3), u"line 12"_s);
    QCOMPARE(screen.cell(-7, 0).foreground, QColor(0xe5, 0xe5, 0x10));
    QCOMPARE(screen.cell(-7, 10).text, QString()); // beyond the kept cells: blank
    int pushed = 0;
    for (const QList<QVariant> &arguments : std::as_const(scrollSpy))
        pushed += arguments.at(0).toInt();
    QCOMPARE(pushed, 8);
}

void TestTerminalScreen::scrollbackIsBounded()
{
    TerminalScreen screen(4, 20);
    screen.setScrollbackLimit(100);
    QByteArray input;
    for (int line = 0; line < 1000; ++line)
        input += "row " + QByteArray::number(line) + "\r\n";
    screen.feed(input);
    QCOMPARE(screen.scrollbackCount(), 100);
    QCOMPARE(screen.droppedLines(), 1000 + 1 - 4 - 100);
    QCOMPARE(screen.lineText(-1), u"row 996"_s);
    QCOMPARE(screen.lineText(-100), u"row 897"_s);
    // History positions stay on their text while lines are dropped.
    const qint64 line = screen.historyLine(-1);
    screen.feed("more\r\n"_ba);
    QCOMPARE(screen.lineText(screen.rowOfHistoryLine(line)), u"row 996"_s);
}

void TestTerminalScreen::resizeKeepsContent()
{
    TerminalScreen screen(10, 20);
    QSignalSpy resizedSpy(&screen, &TerminalScreen::resized);
    screen.feed("hello\r\n\x1b[35mworld\x1b[0m"_ba);
    screen.resize(30, 100);
    QCOMPARE(screen.rows(), 30);
    QCOMPARE(screen.columns(), 100);
    QCOMPARE(resizedSpy.count(), 1);
    QCOMPARE(screen.lineText(0), u"hello"_s);
    QCOMPARE(screen.lineText(1), u"world"_s);
    QCOMPARE(screen.cell(1, 0).foreground, QColor(0xbc, 0x3f, 0xbc));
    screen.feed("\x1b[1;90Hfar"_ba);
    QCOMPARE(screen.cell(0, 89).text, u"f"_s);

    screen.resize(30, 3);
    QCOMPARE(screen.lineText(0), u"hel"_s);
    QCOMPARE(screen.lineText(1), u"wor"_s);
}

void TestTerminalScreen::resizeBringsLinesBackFromScrollback()
{
    TerminalScreen screen(3, 20);
    screen.feed("a\r\nb\r\nc\r\nd\r\ne"_ba);
    QCOMPARE(screen.scrollbackCount(), 2);
    QCOMPARE(screen.lineText(0), u"c"_s);
    screen.resize(5, 20);
    QCOMPARE(screen.scrollbackCount(), 0);
    QCOMPARE(screen.screenText(), u"a\nb\nc\nd\ne"_s);
    screen.resize(2, 20);
    QCOMPARE(screen.lineText(1), u"e"_s); // the cursor's line stays in view
    QCOMPARE(screen.lineText(-1), u"c"_s);
}

void TestTerminalScreen::answersGoToOutput_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<QByteArray>("answerStart");
    QTest::newRow("DSR cursor position") << "\x1b[3;5H\x1b[6n"_ba
                                         << "\x1b[3;5R"_ba;
    QTest::newRow("DSR status") << "\x1b[5n"_ba
                                << "\x1b[0n"_ba;
    QTest::newRow("primary DA") << "\x1b[c"_ba
                                << "\x1b[?1;2c"_ba;
}

void TestTerminalScreen::answersGoToOutput()
{
    QFETCH(QByteArray, query);
    QFETCH(QByteArray, answerStart);
    TerminalScreen screen(24, 80);
    QByteArray answers;
    connect(&screen, &TerminalScreen::output, this,
            [&answers](const QByteArray &bytes) { answers += bytes; });
    screen.feed(query);
    QVERIFY2(answers.startsWith(answerStart), answers.toPercentEncoding().constData());
}

void TestTerminalScreen::keysAreEncodedForTheRemote_data()
{
    QTest::addColumn<QByteArray>("setup");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("up") << QByteArray() << int(VTERM_KEY_UP) << 0 << "\x1b[A"_ba;
    QTest::newRow("up, application cursor keys")
        << "\x1b[?1h"_ba << int(VTERM_KEY_UP) << 0 << "\x1bOA"_ba;
    QTest::newRow("ctrl+left") << QByteArray() << int(VTERM_KEY_LEFT) << int(VTERM_MOD_CTRL)
                               << "\x1b[1;5D"_ba;
    QTest::newRow("enter") << QByteArray() << int(VTERM_KEY_ENTER) << 0 << "\r"_ba;
    QTest::newRow("F1") << QByteArray() << int(VTERM_KEY_FUNCTION(1)) << 0 << "\x1bOP"_ba;
}

void TestTerminalScreen::keysAreEncodedForTheRemote()
{
    QFETCH(QByteArray, setup);
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QFETCH(QByteArray, bytes);
    TerminalScreen screen(24, 80);
    screen.feed(setup);
    QSignalSpy outputSpy(&screen, &TerminalScreen::output);
    screen.sendKey(VTermKey(key), VTermModifier(modifiers));
    QByteArray sent;
    for (const QList<QVariant> &arguments : std::as_const(outputSpy))
        sent += arguments.at(0).toByteArray();
    QCOMPARE(sent, bytes);
}

void TestTerminalScreen::pasteIsBracketedWhenAsked()
{
    TerminalScreen screen(24, 80);
    QByteArray sent;
    connect(&screen, &TerminalScreen::output, this,
            [&sent](const QByteArray &bytes) { sent += bytes; });
    screen.paste(u"echo 中\nls\r\n"_s);
    QCOMPARE(sent, "echo 中\rls\r"_ba);

    sent.clear();
    screen.feed("\x1b[?2004h"_ba);
    screen.paste(u"rm -rf /tmp/x\x1b[201~\n"_s);
    QCOMPARE(sent, "\x1b[200~rm -rf /tmp/x[201~\r\x1b[201~"_ba);
}

void TestTerminalScreen::titleAndBell()
{
    TerminalScreen screen(24, 80);
    QSignalSpy titleSpy(&screen, &TerminalScreen::titleChanged);
    QSignalSpy bellSpy(&screen, &TerminalScreen::bell);
    screen.feed("\x1b]0;root@gpu-01: ~\x07"_ba);
    QCOMPARE(screen.title(), u"root@gpu-01: ~"_s);
    QCOMPARE(titleSpy.count(), 1);
    screen.feed("\x1b]2;训练 中\x1b\\"_ba);
    QCOMPARE(screen.title(), u"训练 中"_s);
    QCOMPARE(bellSpy.count(), 0);
    screen.feed("\x07"_ba);
    QCOMPARE(bellSpy.count(), 1);
}

void TestTerminalScreen::damageCoversOnlyWhatChanged()
{
    TerminalScreen screen(24, 80);
    screen.feed("\x1b[10;1H"_ba);
    QSignalSpy damageSpy(&screen, &TerminalScreen::damaged);
    screen.feed("x"_ba);
    QCOMPARE(damageSpy.count(), 1);
    const QRect changed = damageSpy.at(0).at(0).value<QRegion>().boundingRect();
    QCOMPARE(changed.top(), 9);
    QCOMPARE(changed.bottom(), 9);
    QVERIFY(changed.contains(0, 9));
    QVERIFY(changed.right() < 10);

    // A screenful of output is one signal, not one per line.
    damageSpy.clear();
    QByteArray lines;
    for (int line = 0; line < 200; ++line)
        lines += "line\r\n";
    screen.feed(lines);
    QCOMPARE(damageSpy.count(), 1);
}

void TestTerminalScreen::textOfARange()
{
    TerminalScreen screen(5, 20);
    screen.feed("first   line  \r\n中文 and more\r\nthird"_ba);
    using cardhour::terminal::TerminalPosition;
    const qint64 top = screen.historyLine(0);
    QCOMPARE(screen.text(TerminalPosition{top, 8}, TerminalPosition{top + 1, 5}), u"line\n中文 "_s);
    QCOMPARE(screen.text(TerminalPosition{top + 2, 5}, TerminalPosition{top, 0}),
             u"first   line\n中文 and more\nthird"_s);
    QCOMPARE(screen.lineText(1), u"中文 and more"_s);
}

QTEST_GUILESS_MAIN(TestTerminalScreen)
#include "tst_terminalscreen.moc"
