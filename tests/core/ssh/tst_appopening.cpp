// The two local guards of a one-click app: the forward's peer check (LoopbackPeer: who owns
// the other end of a loopback connection, from the kernel's socket tables) and AppOpener (the
// app's address reaches the browser through a 0600 page, never through a command line).
#include "ssh/AppOpener.h"
#include "ssh/LoopbackPeer.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace {

// The outcome of one open() whose launcher answers at once.
AppOpener::Outcome openedBy(AppOpener &opener, const QUrl &app)
{
    std::optional<AppOpener::Outcome> outcome;
    opener.open(app, [&outcome](const AppOpener::Outcome &o) { outcome = o; });
    return outcome.value_or(AppOpener::Outcome{false, u"no answer"_s, {}});
}

} // namespace

class TestAppOpening : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void peerUidOfLoopbackConnection_data();
    void peerUidOfLoopbackConnection();
    void unknownPeerHasNoUid();
    void pageIsOwnerOnlyAndRedirects();
    void failedLauncherIsReportedAndLeavesNoPage();
    void pagesGoAfterTheirLifetime();
    void systemLauncherKeepsTheCallerLive();
};

void TestAppOpening::peerUidOfLoopbackConnection_data()
{
    QTest::addColumn<QHostAddress>("address");
    QTest::newRow("ipv4") << QHostAddress(QHostAddress::LocalHost);
    QTest::newRow("ipv6") << QHostAddress(QHostAddress::LocalHostIPv6);
}

void TestAppOpening::peerUidOfLoopbackConnection()
{
#ifndef Q_OS_LINUX
    QSKIP("The socket tables (/proc/net/tcp) are Linux's; elsewhere every peer is accepted.");
#else
    QFETCH(QHostAddress, address);
    QTcpServer server;
    if (!server.listen(address, 0))
        QSKIP(
            qPrintable(u"cannot listen on %1: %2"_s.arg(address.toString(), server.errorString())));
    QTcpSocket client;
    client.connectToHost(address, server.serverPort());
    QVERIFY(client.waitForConnected(5000));
    QVERIFY(server.waitForNewConnection(5000));
    std::unique_ptr<QTcpSocket> accepted(server.nextPendingConnection());
    QVERIFY(accepted);
    const std::optional<uint> uid = loopbackPeerUid(*accepted);
    QVERIFY2(uid.has_value(), "the connecting socket's row was not found");
    QCOMPARE(*uid, uint(getuid()));
    QVERIFY(peerIsThisUser(*accepted));
    // The client's own view (its peer is the listening side) names the same user.
    QCOMPARE(loopbackPeerUid(client), std::optional<uint>(uint(getuid())));
#endif
}

void TestAppOpening::unknownPeerHasNoUid()
{
    // No socket has these ends: no uid, and so (on Linux) not this user.
    const QHostAddress loopback(QHostAddress::LocalHost);
    QCOMPARE(loopbackPeerUid(loopback, 1, loopback, 2), std::nullopt);
}

void TestAppOpening::pageIsOwnerOnlyAndRedirects()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QList<QUrl> launched;
    const QString folder = dir.filePath(u"apps"_s);
    AppOpener opener(AppOpener::immediate([&launched](const QUrl &page) {
                         launched << page;
                         return true;
                     }),
                     folder);
    const QUrl app(u"http://127.0.0.1:40123/?token=0123abcd"_s);
    const AppOpener::Outcome outcome = openedBy(opener, app);
    QVERIFY2(outcome.opened, qPrintable(outcome.error));
    QCOMPARE(launched.size(), 1);
    // The launcher (the browser's command line) gets a file, never the token.
    QVERIFY(launched.constFirst().isLocalFile());
    QVERIFY(!launched.constFirst().toString().contains(u"0123abcd"_s));
    QCOMPARE(launched.constFirst().toLocalFile(), outcome.page);
    // 0600 in a 0700 folder (owner bits 0xF000, group and others 0x00FF).
    QCOMPARE(int(QFile::permissions(outcome.page) & 0xF0FF),
             int(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QCOMPARE(int(QFile::permissions(folder) & 0xF0FF),
             int(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    QFile file(outcome.page);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("location.replace(\"http://127.0.0.1:40123/?token=0123abcd\")"));
    QVERIFY(text.contains("url=http://127.0.0.1:40123/?token=0123abcd\""));
    // Gone with the opener.
    file.close();
    {
        AppOpener second(AppOpener::immediate([](const QUrl &) { return true; }), folder);
        const AppOpener::Outcome other = openedBy(second, app);
        QVERIFY(other.opened);
        QVERIFY(QFile::exists(other.page));
        QVERIFY(other.page != outcome.page);
        QVERIFY(QFile::exists(outcome.page)); // another opener's page, still young
    }
    QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 1);
}

void TestAppOpening::failedLauncherIsReportedAndLeavesNoPage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppOpener opener(AppOpener::immediate([](const QUrl &) { return false; }),
                     dir.filePath(u"apps"_s));
    const AppOpener::Outcome outcome = openedBy(opener, QUrl(u"http://127.0.0.1:1/?token=ab"_s));
    QVERIFY(!outcome.opened);
    QVERIFY(!outcome.error.isEmpty());
    QVERIFY(!QFile::exists(outcome.page));
}

void TestAppOpening::pagesGoAfterTheirLifetime()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppOpener opener(AppOpener::immediate([](const QUrl &) { return true; }),
                     dir.filePath(u"apps"_s));
    opener.setPageLifetimeMs(200);
    const AppOpener::Outcome outcome = openedBy(opener, QUrl(u"http://127.0.0.1:1/?token=ab"_s));
    QVERIFY(outcome.opened);
    QVERIFY(QFile::exists(outcome.page));
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(outcome.page), 5000);
}

// xdg-open looking for a browser (here: until the test lets it go) must not hold the caller's
// thread: the desktop client's window would freeze, and what it then said would be a guess.
void TestAppOpening::systemLauncherKeepsTheCallerLive()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString release = dir.filePath(u"release"_s);
    QFile xdgOpen(dir.filePath(u"xdg-open"_s));
    QVERIFY(xdgOpen.open(QIODevice::WriteOnly));
    xdgOpen.write("#!/bin/sh\nwhile [ ! -e '" + release.toUtf8()
                  + "' ]; do sleep 0.05; done\necho 'no method available' >&2\nexit 3\n");
    xdgOpen.close();
    QVERIFY(xdgOpen.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", dir.path().toLocal8Bit() + ':' + path);
    const auto restore = qScopeGuard([path] { qputenv("PATH", path); });

    AppOpener opener(AppOpener::systemLauncher(), dir.filePath(u"apps"_s));
    std::optional<AppOpener::Outcome> outcome;
    opener.open(QUrl(u"http://127.0.0.1:1/?token=ab"_s),
                [&outcome](const AppOpener::Outcome &o) { outcome = o; });
    // Back at once, with no answer yet: xdg-open is still looking.
    QVERIFY(!outcome);
    QTest::qWait(100);
    QVERIFY(!outcome);
    QFile(release).open(QIODevice::WriteOnly);
    QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 10'000);
    QVERIFY(!outcome->opened); // it found no browser: not "opened"
    QVERIFY(!outcome->error.isEmpty());
    QVERIFY(!QFile::exists(outcome->page));
#else
    QSKIP("the platform's opener is not xdg-open here");
#endif
}

QTEST_GUILESS_MAIN(TestAppOpening)
#include "tst_appopening.moc"
