// End to end without SSH: real programs (sh, printf, stty, tput, less, vi) run under a local
// pseudo-terminal; what they write is fed to a TerminalWidget, what is typed into the widget goes
// to them, and the widget's sizeChanged() resizes the PTY as the SSH channel's would.
#include "TerminalWidget.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using cardhour::terminal::TerminalWidget;

namespace {

// A child process on the slave side of a new PTY. QProcess has no PTY, so forkpty() it is.
class LocalPty : public QObject
{
    Q_OBJECT
public:
    ~LocalPty() override
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_master >= 0)
            ::close(m_master);
    }

    bool start(const QStringList &arguments, int columns, int rows, const QString &home)
    {
        winsize size{};
        size.ws_col = ushort(columns);
        size.ws_row = ushort(rows);
        std::vector<QByteArray> storage;
        for (const QString &argument : arguments)
            storage.push_back(argument.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &argument : storage)
            argv.push_back(argument.data());
        argv.push_back(nullptr);
        const QByteArray homeBytes = home.toLocal8Bit();

        m_pid = ::forkpty(&m_master, nullptr, nullptr, &size);
        if (m_pid < 0)
            return false;
        if (m_pid == 0) {
            ::setenv("TERM", "xterm-256color", 1);
            ::setenv("LANG", "C.UTF-8", 1);
            ::setenv("HOME", homeBytes.constData(), 1);
            ::setenv("LESSHISTFILE", "-", 1);
            ::unsetenv("LESS");
            ::execvp(argv[0], argv.data());
            ::_exit(127);
        }
        ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
        m_notifier = new QSocketNotifier(m_master, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &LocalPty::readAvailable);
        return true;
    }

    void write(const QByteArray &bytes)
    {
        qsizetype done = 0;
        while (done < bytes.size()) {
            const ssize_t written =
                ::write(m_master, bytes.constData() + done, size_t(bytes.size() - done));
            if (written < 0 && errno == EINTR)
                continue;
            if (written <= 0)
                return;
            done += written;
        }
    }

    void resize(int columns, int rows)
    {
        winsize size{};
        size.ws_col = ushort(columns);
        size.ws_row = ushort(rows);
        ::ioctl(m_master, TIOCSWINSZ, &size); // the kernel sends the child SIGWINCH
    }

    bool finished() const { return m_closed; }
    int exitStatus() const { return m_exitStatus; }

Q_SIGNALS:
    void output(const QByteArray &bytes);

private:
    void readAvailable()
    {
        char buffer[16384];
        for (;;) {
            const ssize_t count = ::read(m_master, buffer, sizeof buffer);
            if (count > 0) {
                Q_EMIT output(QByteArray(buffer, count));
                continue;
            }
            if (count < 0 && errno == EINTR)
                continue;
            if (count < 0 && errno == EAGAIN)
                return;
            // EIO: the child and everything it started have closed the slave side.
            m_notifier->setEnabled(false);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
            m_pid = -1;
            m_exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            m_closed = true;
            return;
        }
    }

    pid_t m_pid = -1;
    int m_master = -1;
    QSocketNotifier *m_notifier = nullptr;
    bool m_closed = false;
    int m_exitStatus = -1;
};

// A widget wired to a PTY the way the SSH tab wires it to a channel.
struct Session
{
    TerminalWidget terminal;
    LocalPty pty;
    QTemporaryDir home;

    Session()
    {
        terminal.resize(terminal.sizeHint());
        terminal.show();
        QObject::connect(&pty, &LocalPty::output, &terminal, &TerminalWidget::feed);
        QObject::connect(&terminal, &TerminalWidget::inputTyped, &pty, &LocalPty::write);
        QObject::connect(&terminal, &TerminalWidget::sizeChanged, &pty, &LocalPty::resize);
    }

    bool start(const QStringList &arguments)
    {
        return pty.start(arguments, terminal.columns(), terminal.rows(), home.path());
    }

    QString row(int index) const { return terminal.screen()->lineText(index); }
};

} // namespace

class TestTerminalPty : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void colouredOutputAndSize();
    void resizeReachesTheProgram();
    void alternateScreenProgramRestoresScreen_data();
    void alternateScreenProgramRestoresScreen();
};

void TestTerminalPty::colouredOutputAndSize()
{
    Session session;
    QVERIFY(session.start(
        {u"sh"_s, u"-c"_s,
         u"printf '\\033[31mred\\033[0m \\033[38;2;255;100;0morange\\033[0m \\033[1;4mbold\\033[0m "
         "中文!\\n'; stty size; tput cols; tput colors"_s}));
    QTRY_VERIFY_WITH_TIMEOUT(session.pty.finished(), 20000);
    QCOMPARE(session.pty.exitStatus(), 0);

    const auto *screen = session.terminal.screen();
    QCOMPARE(session.row(0), u"red orange bold 中文!"_s);
    QCOMPARE(screen->cell(0, 0).foreground, QColor(0xcd, 0x31, 0x31));
    QCOMPARE(screen->cell(0, 3).foreground, screen->defaultForeground());
    QCOMPARE(screen->cell(0, 4).foreground, QColor(255, 100, 0));
    QVERIFY(screen->cell(0, 11).bold);
    QVERIFY(screen->cell(0, 11).underline);
    QCOMPARE(screen->cell(0, 16).text, u"中"_s);
    QCOMPARE(screen->cell(0, 16).width, 2);
    QCOMPARE(screen->cell(0, 18).text, u"文"_s);
    QCOMPARE(screen->cell(0, 20).text, u"!"_s);
    const int columns = session.terminal.columns();
    const int rows = session.terminal.rows();
    QCOMPARE(session.row(1), u"%1 %2"_s.arg(rows).arg(columns));
    QCOMPARE(session.row(2), QString::number(columns));
    QCOMPARE(session.row(3), u"256"_s);
}

void TestTerminalPty::resizeReachesTheProgram()
{
    Session session;
    QVERIFY(session.start({u"sh"_s, u"-c"_s, u"stty size; read line; stty size"_s}));
    const QString before = u"%1 %2"_s.arg(session.terminal.rows()).arg(session.terminal.columns());
    QTRY_COMPARE_WITH_TIMEOUT(session.row(0), before, 20000);

    QSignalSpy sizeSpy(&session.terminal, &TerminalWidget::sizeChanged);
    session.terminal.resize(session.terminal.width() + 20 * session.terminal.cellSize().width(),
                            session.terminal.height() + 5 * session.terminal.cellSize().height());
    QTRY_VERIFY(sizeSpy.count() >= 1);
    const QString after = u"%1 %2"_s.arg(session.terminal.rows()).arg(session.terminal.columns());
    QVERIFY(after != before);

    QTest::keyClicks(&session.terminal, u"go"_s);
    QTest::keyClick(&session.terminal, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(session.pty.finished(), 20000);
    QCOMPARE(session.row(1), u"go"_s); // the PTY echoed what was typed
    QCOMPARE(session.row(2), after);
}

void TestTerminalPty::alternateScreenProgramRestoresScreen_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("command"); // run after printing two lines; %1 is a text file
    QTest::addColumn<QString>("shown"); // text the program shows on the alternate screen
    QTest::addColumn<QByteArray>("quit"); // what makes it leave

    QTest::newRow("shell script") << u"sh"_s
                                  << u"printf '\\033[?1049h\\033[H\\033[2Jfull screen'; read x; "
                                     "printf '\\033[?1049l'"_s
                                  << u"full screen"_s << "\r"_ba;
    QTest::newRow("less") << u"less"_s << u"less %1"_s << u"first line of the file"_s << "q"_ba;
    QTest::newRow("vi") << u"vi"_s << u"vi -u NONE -i NONE -n %1"_s << u"first line of the file"_s
                        << ":q!\r"_ba;
}

void TestTerminalPty::alternateScreenProgramRestoresScreen()
{
    QFETCH(QString, program);
    QFETCH(QString, command);
    QFETCH(QString, shown);
    QFETCH(QByteArray, quit);
    if (QStandardPaths::findExecutable(program).isEmpty())
        QSKIP(qPrintable(u"%1 is not installed"_s.arg(program)));

    Session session;
    const QString file = session.home.filePath(u"notes.txt"_s);
    {
        QFile notes(file);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("first line of the file\nsecond line, 中文\n");
    }
    QVERIFY(session.start({u"sh"_s, u"-c"_s,
                           u"printf 'before one\\n\\033[33mbefore two\\033[0m\\n'; "_s
                               + QString(command).replace(u"%1"_s, file)}));
    QTRY_VERIFY_WITH_TIMEOUT(session.terminal.screen()->altScreenActive(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(session.terminal.screen()->screenText().contains(shown), 20000);
    QVERIFY(!session.terminal.screen()->screenText().contains(u"before"_s));
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    if (program != u"sh")
        QVERIFY(session.terminal.grab().save(QStringLiteral(CARDHOUR_SCREENSHOT_DIR)
                                             + u"/terminal-pty-"_s + program + u".png"_s));

    session.pty.write(quit);
    QTRY_VERIFY_WITH_TIMEOUT(session.pty.finished(), 20000);
    QVERIFY(!session.terminal.screen()->altScreenActive());
    QCOMPARE(session.row(0), u"before one"_s);
    QCOMPARE(session.row(1), u"before two"_s);
    QCOMPARE(session.terminal.screen()->cell(1, 0).foreground, QColor(0xe5, 0xe5, 0x10));
}

QTEST_MAIN(TestTerminalPty)
#include "tst_terminalpty.moc"
