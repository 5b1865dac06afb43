// TerminalWidget: keys, input method, paste, scrollback, zoom, selection and what it paints.
#include "TerminalWidget.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QImage>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QPaintEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using cardhour::terminal::TerminalWidget;

namespace {

// Everything the widget sent to the remote since the last take().
class SentBytes : public QObject
{
public:
    explicit SentBytes(TerminalWidget *terminal)
    {
        connect(terminal, &TerminalWidget::inputTyped, this,
                [this](const QByteArray &bytes) { m_bytes += bytes; });
    }
    QByteArray take() { return std::exchange(m_bytes, {}); }

private:
    QByteArray m_bytes;
};

// The paint events a widget gets, for checking that only damaged parts are painted.
class PaintRecorder : public QObject
{
public:
    QList<QRegion> regions;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            regions << static_cast<QPaintEvent *>(event)->region();
        return false;
    }
};

QPoint cellCentre(const TerminalWidget &terminal, int row, int column)
{
    const QSize cell = terminal.cellSize();
    return QPoint(column * cell.width() + cell.width() / 2,
                  row * cell.height() + cell.height() / 2);
}

QString screenshotPath(const QString &name)
{
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    return QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name;
}

} // namespace

class TestTerminalWidget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keysProduceBytes_data();
    void keysProduceBytes();
    void applicationCursorKeys();
    void tabStaysInTheTerminal();
    void inputMethodCommitIsUtf8();
    void pasteFromClipboard();
    void wheelScrollsIntoScrollback();
    void shiftPageUpScrollsAPage();
    void zoomChangesCellsAndReportsSize();
    void resizeReportsSize();
    void selectionAndCopy();
    void doubleClickSelectsAWord();
    void mouseGoesToTheRemoteWhenAsked();
    void wheelOnAlternateScreenSendsArrows();
    void largeFeedIsSlicedAndComplete();
    void paintsOnlyDamagedRows();
    void screenshotColoursAndCjk();
    void screenshotAlternateScreen();
};

void TestTerminalWidget::keysProduceBytes_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("bytes");

    const int none = Qt::NoModifier;
    QTest::newRow("letter") << int(Qt::Key_A) << none << u"a"_s << "a"_ba;
    QTest::newRow("shifted letter") << int(Qt::Key_A) << int(Qt::ShiftModifier) << u"A"_s << "A"_ba;
    QTest::newRow("Enter") << int(Qt::Key_Return) << none << u"\r"_s << "\r"_ba;
    QTest::newRow("keypad Enter") << int(Qt::Key_Enter) << int(Qt::KeypadModifier) << u"\r"_s
                                  << "\r"_ba;
    QTest::newRow("Backspace") << int(Qt::Key_Backspace) << none << u"\b"_s << "\x7f"_ba;
    QTest::newRow("Tab") << int(Qt::Key_Tab) << none << u"\t"_s << "\t"_ba;
    QTest::newRow("Shift+Tab") << int(Qt::Key_Backtab) << int(Qt::ShiftModifier) << QString()
                               << "\x1b[Z"_ba;
    QTest::newRow("Escape") << int(Qt::Key_Escape) << none << u"\x1b"_s << "\x1b"_ba;
    QTest::newRow("Up") << int(Qt::Key_Up) << none << QString() << "\x1b[A"_ba;
    QTest::newRow("Down") << int(Qt::Key_Down) << none << QString() << "\x1b[B"_ba;
    QTest::newRow("Right") << int(Qt::Key_Right) << none << QString() << "\x1b[C"_ba;
    QTest::newRow("Left") << int(Qt::Key_Left) << none << QString() << "\x1b[D"_ba;
    QTest::newRow("Ctrl+Left") << int(Qt::Key_Left) << int(Qt::ControlModifier) << QString()
                               << "\x1b[1;5D"_ba;
    QTest::newRow("Home") << int(Qt::Key_Home) << none << QString() << "\x1b[H"_ba;
    QTest::newRow("End") << int(Qt::Key_End) << none << QString() << "\x1b[F"_ba;
    QTest::newRow("Delete") << int(Qt::Key_Delete) << none << QString() << "\x1b[3~"_ba;
    QTest::newRow("PageUp") << int(Qt::Key_PageUp) << none << QString() << "\x1b[5~"_ba;
    QTest::newRow("F1") << int(Qt::Key_F1) << none << QString() << "\x1bOP"_ba;
    QTest::newRow("F5") << int(Qt::Key_F5) << none << QString() << "\x1b[15~"_ba;
    QTest::newRow("F12") << int(Qt::Key_F12) << none << QString() << "\x1b[24~"_ba;
    QTest::newRow("Ctrl+C") << int(Qt::Key_C) << int(Qt::ControlModifier) << u"\x03"_s << "\x03"_ba;
    QTest::newRow("Ctrl+D") << int(Qt::Key_D) << int(Qt::ControlModifier) << u"\x04"_s << "\x04"_ba;
    QTest::newRow("Ctrl+Z") << int(Qt::Key_Z) << int(Qt::ControlModifier) << u"\x1a"_s << "\x1a"_ba;
    QTest::newRow("Ctrl+Space") << int(Qt::Key_Space) << int(Qt::ControlModifier) << u" "_s
                                << QByteArray(1, '\0');
    QTest::newRow("Ctrl+[") << int(Qt::Key_BracketLeft) << int(Qt::ControlModifier) << u"\x1b"_s
                            << "\x1b"_ba;
    QTest::newRow("Ctrl+\\") << int(Qt::Key_Backslash) << int(Qt::ControlModifier) << u"\x1c"_s
                             << "\x1c"_ba;
    QTest::newRow("Alt+x") << int(Qt::Key_X) << int(Qt::AltModifier) << u"x"_s << "\x1bx"_ba;
    QTest::newRow("Alt+.") << int(Qt::Key_Period) << int(Qt::AltModifier) << u"."_s << "\x1b."_ba;
    QTest::newRow("Ctrl+Alt+c") << int(Qt::Key_C) << int(Qt::ControlModifier | Qt::AltModifier)
                                << QString() << "\x1b\x03"_ba;
    QTest::newRow("non-ASCII character") << int(Qt::Key_unknown) << none << u"é"_s << "\xc3\xa9"_ba;
    QTest::newRow("lone Shift") << int(Qt::Key_Shift) << int(Qt::ShiftModifier) << QString()
                                << QByteArray();
}

void TestTerminalWidget::keysProduceBytes()
{
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QFETCH(QString, text);
    QFETCH(QByteArray, bytes);

    TerminalWidget terminal;
    terminal.show();
    terminal.setFocus();
    SentBytes sent(&terminal);
    QKeyEvent press(QEvent::KeyPress, key, Qt::KeyboardModifiers(modifiers), text);
    QApplication::sendEvent(&terminal, &press);
    QCOMPARE(sent.take(), bytes);
}

void TestTerminalWidget::applicationCursorKeys()
{
    TerminalWidget terminal;
    SentBytes sent(&terminal);
    terminal.feed("\x1b[?1h"_ba); // DECCKM, as vim and htop set it
    QTest::keyClick(&terminal, Qt::Key_Up);
    QCOMPARE(sent.take(), "\x1bOA"_ba);
}

void TestTerminalWidget::tabStaysInTheTerminal()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *before = new QLineEdit(&window);
    auto *terminal = new TerminalWidget(&window);
    auto *after = new QLineEdit(&window);
    layout->addWidget(before);
    layout->addWidget(terminal);
    layout->addWidget(after);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    terminal->setFocus();
    QTRY_VERIFY(terminal->hasFocus());
    SentBytes sent(terminal);

    QTest::keyClick(terminal, Qt::Key_Tab);
    QTest::keyClick(terminal, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(sent.take(), "\t\x1b[Z"_ba);
    QVERIFY(terminal->hasFocus());
}

void TestTerminalWidget::inputMethodCommitIsUtf8()
{
    TerminalWidget terminal;
    SentBytes sent(&terminal);
    QVERIFY(terminal.testAttribute(Qt::WA_InputMethodEnabled));
    QVERIFY(terminal.inputMethodQuery(Qt::ImEnabled).toBool());

    QInputMethodEvent preedit(u"zhongwen"_s, {});
    QApplication::sendEvent(&terminal, &preedit);
    QCOMPARE(sent.take(), QByteArray()); // composing sends nothing yet

    QInputMethodEvent commit;
    commit.setCommitString(u"中文"_s);
    QApplication::sendEvent(&terminal, &commit);
    QCOMPARE(sent.take(), "中文"_ba);
}

void TestTerminalWidget::pasteFromClipboard()
{
    TerminalWidget terminal;
    SentBytes sent(&terminal);
    QGuiApplication::clipboard()->setText(u"ls -l\nwhoami"_s);

    QTest::keyClick(&terminal, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(sent.take(), "ls -l\rwhoami"_ba);

    terminal.feed("\x1b[?2004h"_ba); // the remote's shell asks for bracketed paste
    QTest::keyClick(&terminal, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(sent.take(), "\x1b[200~ls -l\rwhoami\x1b[201~"_ba);

    QTest::keyClick(&terminal, Qt::Key_Insert, Qt::ShiftModifier);
    QCOMPARE(sent.take(), "\x1b[200~ls -l\rwhoami\x1b[201~"_ba);

    terminal.feed("\x1b[?2004l"_ba);
    terminal.paste();
    QCOMPARE(sent.take(), "ls -l\rwhoami"_ba);
}

void TestTerminalWidget::wheelScrollsIntoScrollback()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    QByteArray lines;
    for (int line = 1; line <= 100; ++line)
        lines += "line " + QByteArray::number(line) + "\r\n";
    terminal.feed(lines);
    const int rows = terminal.rows();
    QCOMPARE(terminal.screen()->scrollbackCount(), 101 - rows);
    QCOMPARE(terminal.scrollOffset(), 0);

    const QPoint middle = terminal.viewport()->rect().center();
    QWheelEvent up(middle, terminal.viewport()->mapToGlobal(middle), QPoint(), QPoint(0, 240),
                   Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(terminal.viewport(), &up);
    QCOMPARE(terminal.scrollOffset(), 6);
    const QScrollBar *bar = terminal.verticalScrollBar();
    QCOMPARE(bar->maximum(), terminal.screen()->scrollbackCount());
    QCOMPARE(bar->value(), bar->maximum() - 6);

    // New output keeps the scrolled view on the same lines.
    terminal.feed("line 101\r\n"_ba);
    QCOMPARE(terminal.scrollOffset(), 7);

    // Typing goes back to the live screen.
    QTest::keyClick(&terminal, Qt::Key_A);
    QCOMPARE(terminal.scrollOffset(), 0);

    // The scroll bar moves the view too.
    terminal.verticalScrollBar()->setValue(0);
    QCOMPARE(terminal.scrollOffset(), terminal.screen()->scrollbackCount());
}

void TestTerminalWidget::shiftPageUpScrollsAPage()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    QByteArray lines;
    for (int line = 0; line < 200; ++line)
        lines += QByteArray::number(line) + "\r\n";
    terminal.feed(lines);
    SentBytes sent(&terminal);
    QTest::keyClick(&terminal, Qt::Key_PageUp, Qt::ShiftModifier);
    QCOMPARE(terminal.scrollOffset(), terminal.rows() - 1);
    QTest::keyClick(&terminal, Qt::Key_PageUp, Qt::ShiftModifier);
    QCOMPARE(terminal.scrollOffset(), 2 * (terminal.rows() - 1));
    QTest::keyClick(&terminal, Qt::Key_PageDown, Qt::ShiftModifier);
    QCOMPARE(terminal.scrollOffset(), terminal.rows() - 1);
    QCOMPARE(sent.take(), QByteArray()); // scrolling is local, nothing goes to the remote
}

void TestTerminalWidget::zoomChangesCellsAndReportsSize()
{
    TerminalWidget terminal;
    terminal.resize(800, 480);
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    const int columns = terminal.columns();
    const int rows = terminal.rows();
    const QSize cell = terminal.cellSize();
    QSignalSpy sizeSpy(&terminal, &TerminalWidget::sizeChanged);

    QTest::keyClick(&terminal, Qt::Key_Equal, Qt::ControlModifier);
    QTest::keyClick(&terminal, Qt::Key_Equal, Qt::ControlModifier);
    QVERIFY(terminal.cellSize().height() > cell.height());
    QVERIFY(terminal.columns() < columns);
    QVERIFY(terminal.rows() < rows);
    QVERIFY(sizeSpy.count() >= 1);
    QCOMPARE(sizeSpy.last().at(0).toInt(), terminal.columns());
    QCOMPARE(sizeSpy.last().at(1).toInt(), terminal.rows());
    QCOMPARE(terminal.screen()->columns(), terminal.columns());

    QTest::keyClick(&terminal, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(terminal.cellSize(), cell);
    QCOMPARE(terminal.columns(), columns);
    QCOMPARE(sizeSpy.last().at(0).toInt(), columns);
    QCOMPARE(sizeSpy.last().at(1).toInt(), rows);

    sizeSpy.clear();
    QTest::keyClick(&terminal, Qt::Key_Minus, Qt::ControlModifier);
    QVERIFY(terminal.columns() > columns);
    QCOMPARE(sizeSpy.count(), 1);
}

void TestTerminalWidget::resizeReportsSize()
{
    TerminalWidget terminal;
    QSignalSpy sizeSpy(&terminal, &TerminalWidget::sizeChanged);
    terminal.resize(600, 300);
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    QTRY_VERIFY(sizeSpy.count() >= 1);
    const QSize cell = terminal.cellSize();
    const QSize area = terminal.viewport()->size();
    QCOMPARE(terminal.columns(), area.width() / cell.width());
    QCOMPARE(terminal.rows(), area.height() / cell.height());
    QCOMPARE(sizeSpy.last().at(0).toInt(), terminal.columns());

    sizeSpy.clear();
    terminal.resize(900, 500);
    QTRY_COMPARE(sizeSpy.count(), 1);
    QVERIFY(terminal.columns() > area.width() / cell.width());
    QCOMPARE(sizeSpy.last().at(0).toInt(), terminal.columns());
    QCOMPARE(sizeSpy.last().at(1).toInt(), terminal.rows());

    sizeSpy.clear();
    terminal.resize(901, 500); // less than a cell more: the same grid, nothing to report
    QTest::qWait(0);
    QCOMPARE(sizeSpy.count(), 0);
}

void TestTerminalWidget::selectionAndCopy()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    terminal.feed("hello world\r\nsecond 中文 line\r\nthird"_ba);
    QGuiApplication::clipboard()->clear();

    QWidget *view = terminal.viewport();
    // From the left half of 'w' (row 0, column 6) to the right half of '文' (row 1, columns 9-10).
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier,
                      cellCentre(terminal, 0, 6) - QPoint(2, 0));
    QTest::mouseMove(view, cellCentre(terminal, 1, 10) + QPoint(2, 0));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier,
                        cellCentre(terminal, 1, 10) + QPoint(2, 0));
    QVERIFY(terminal.hasSelection());
    QCOMPARE(terminal.selectedText(), u"world\nsecond 中文"_s);

    QTest::keyClick(&terminal, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(QGuiApplication::clipboard()->text(), u"world\nsecond 中文"_s);

    terminal.selectAll();
    terminal.copy();
    QCOMPARE(QGuiApplication::clipboard()->text(), u"hello world\nsecond 中文 line\nthird"_s);
}

void TestTerminalWidget::doubleClickSelectsAWord()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    terminal.feed("cat /workspace/train.py | less"_ba);
    QTest::mouseDClick(terminal.viewport(), Qt::LeftButton, Qt::NoModifier,
                       cellCentre(terminal, 0, 8));
    QCOMPARE(terminal.selectedText(), u"/workspace/train.py"_s);
}

void TestTerminalWidget::mouseGoesToTheRemoteWhenAsked()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    terminal.feed("some text\r\n\x1b[?1000h"_ba); // vim's `set mouse=a`, htop
    SentBytes sent(&terminal);
    QWidget *view = terminal.viewport();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, cellCentre(terminal, 2, 5));
    // X10 encoding: button, column + 1, row + 1, each plus 32; then the release (button 3).
    QCOMPARE(sent.take(), "\x1b[M\x20\x26\x23\x1b[M\x23\x26\x23"_ba);
    QVERIFY(!terminal.hasSelection());

    // With Shift the mouse selects as always.
    QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier,
                      cellCentre(terminal, 0, 0) - QPoint(2, 0));
    QTest::mouseMove(view, cellCentre(terminal, 0, 3) + QPoint(2, 0));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier,
                        cellCentre(terminal, 0, 3) + QPoint(2, 0));
    QCOMPARE(terminal.selectedText(), u"some"_s);
    QCOMPARE(sent.take(), QByteArray());
}

void TestTerminalWidget::wheelOnAlternateScreenSendsArrows()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    terminal.feed("\x1b[?1049h"_ba); // less, man: no mouse reports, but the wheel should scroll
    SentBytes sent(&terminal);
    const QPoint middle = terminal.viewport()->rect().center();
    QWheelEvent down(middle, terminal.viewport()->mapToGlobal(middle), QPoint(), QPoint(0, -120),
                     Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(terminal.viewport(), &down);
    QCOMPARE(sent.take(), "\x1b[B\x1b[B\x1b[B"_ba);
    QCOMPARE(terminal.scrollOffset(), 0);
}

void TestTerminalWidget::largeFeedIsSlicedAndComplete()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    QByteArray big;
    for (int line = 0; line < 200000; ++line)
        big += "\x1b[3" + QByteArray::number(line % 8) + "mline " + QByteArray::number(line)
            + " of a big cat, 中文 too\x1b[0m\r\n";
    terminal.feed(big); // several MB: not all at once, the event loop gets turns
    QVERIFY(terminal.pendingBytes() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(terminal.pendingBytes(), 0, 60000);
    QCOMPARE(terminal.screen()->lineText(terminal.rows() - 2),
             u"line 199999 of a big cat, 中文 too"_s);
    QCOMPARE(terminal.screen()->scrollbackCount(), 10000);
}

void TestTerminalWidget::paintsOnlyDamagedRows()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    terminal.feed("prompt$ "_ba);
    PaintRecorder recorder;
    terminal.viewport()->installEventFilter(&recorder);
    QTest::qWait(50);
    recorder.regions.clear();

    terminal.feed("x"_ba);
    QTRY_VERIFY(!recorder.regions.isEmpty());
    QRegion painted;
    for (const QRegion &region : std::as_const(recorder.regions))
        painted += region;
    const QRect bounds = painted.boundingRect();
    QCOMPARE(bounds.top(), 0);
    QCOMPARE(bounds.height(), terminal.cellSize().height());
    QVERIFY(bounds.width() <= 4 * terminal.cellSize().width());
}

void TestTerminalWidget::screenshotColoursAndCjk()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    QByteArray screen =
        "\x1b]0;gpu-01\x07"
        "root@gpu-01:/workspace# ls --color\r\n"
        "\x1b[1;34mdata\x1b[0m  \x1b[1;32mtrain.py\x1b[0m  \x1b[31mcore.dump\x1b[0m  "
        "\x1b[4mREADME.md\x1b[0m  \x1b[3mitalic\x1b[0m  \x1b[7mreverse\x1b[0m\r\n"
        "中文输出：训练完成，损失 0.0421 ✓\r\n\r\n"_ba;
    for (int index = 0; index < 16; ++index)
        screen += "\x1b[48;5;" + QByteArray::number(index) + "m  ";
    screen += "\x1b[0m\r\n";
    for (int index = 16; index < 232; index += 3)
        screen += "\x1b[48;5;" + QByteArray::number(index) + "m ";
    screen += "\x1b[0m\r\n";
    for (int step = 0; step < 72; ++step)
        screen += "\x1b[48;2;" + QByteArray::number(step * 255 / 71) + ";"
            + QByteArray::number(255 - step * 255 / 71) + ";128m ";
    screen += "\x1b[0m\r\n\x1b[38;2;255;100;0mtruecolor orange\x1b[0m \x1b[1mbold\x1b[0m "
              "\x1b[9mstrike\x1b[0m\r\nroot@gpu-01:/workspace# ";
    terminal.feed(screen);
    terminal.setFocus();
    QTRY_VERIFY(terminal.hasFocus());
    QCOMPARE(terminal.screen()->cell(2, 0).width, 2);

    const QImage image = terminal.grab().toImage();
    QVERIFY(image.save(screenshotPath(u"terminal-colours.png"_s)));
    // The orange truecolor text and a cell of the 16-colour row are painted in their colours.
    const QSize cell = terminal.cellSize();
    const QColor blueCell = image.pixelColor(4 * cell.width() * 2 + 2, 4 * cell.height() + 2);
    QCOMPARE(blueCell, QColor(0x2472c8));
}

void TestTerminalWidget::screenshotAlternateScreen()
{
    TerminalWidget terminal;
    terminal.resize(terminal.sizeHint());
    terminal.show();
    QVERIFY(QTest::qWaitForWindowExposed(&terminal));
    terminal.feed("$ htop\r\n"_ba);
    // What htop draws, in short: the alternate screen, meters, a header bar, coloured rows.
    QByteArray htop = "\x1b[?1049h\x1b[?1h\x1b[?25l\x1b[H\x1b[2J"_ba;
    const char *meters[] = {"0", "1", "2", "3"};
    for (int cpu = 0; cpu < 4; ++cpu) {
        const int used = 10 + cpu * 9;
        htop += "\x1b[" + QByteArray::number(cpu + 1) + ";3H\x1b[36m" + meters[cpu]
            + "\x1b[1;37m[\x1b[0;32m" + QByteArray(used, '|') + "\x1b[31m" + QByteArray(4, '|')
            + QByteArray(30 - used, ' ') + "\x1b[1;37m" + QByteArray::number(used + 4)
            + ".0%]\x1b[0m";
    }
    htop += "\x1b[5;3H\x1b[36mMem\x1b[1;37m[\x1b[0;32m|||||||||||\x1b[34m||||\x1b[33m||||||"
            "             \x1b[1;37m5.21G/15.6G]\x1b[0m";
    htop += "\x1b[7;1H\x1b[30;42m  PID USER      PRI  NI  VIRT   RES   SHR S CPU% MEM%   TIME+  "
            "Command          \x1b[0m";
    htop += "\x1b[8;1H\x1b[30;46m 4242 root       20   0 31.2G 8123M  204M R 99.3 52.1  3:14.15 "
            "python train.py \x1b[0m";
    htop += "\x1b[9;1H    1 root       20   0  4372  3200  2900 S  0.0  0.0  0:00.02 "
            "\x1b[32m/bin/sh\x1b[0m";
    htop += "\x1b[10;1H   77 root       20   0 15420  9012  7800 S  0.0  0.1  0:00.11 "
            "\x1b[32msshd: root@pts/0\x1b[0m";
    htop += "\x1b[24;1H\x1b[30;46mF1\x1b[0mHelp  \x1b[30;46mF2\x1b[0mSetup \x1b[30;46mF3\x1b[0m"
            "Search\x1b[30;46mF10\x1b[0mQuit"_ba;
    terminal.feed(htop);
    QVERIFY(terminal.screen()->altScreenActive());
    QVERIFY(!terminal.screen()->cursorVisible());
    QCOMPARE(terminal.screen()->cell(7, 1).background, QColor(0x11a8cd));
    QVERIFY(terminal.grab().save(screenshotPath(u"terminal-htop.png"_s)));

    terminal.feed("\x1b[?1049l\x1b[?25h"_ba);
    QVERIFY(!terminal.screen()->altScreenActive());
    QCOMPARE(terminal.screen()->lineText(0), u"$ htop"_s);
}

QTEST_MAIN(TestTerminalWidget)
#include "tst_terminalwidget.moc"
