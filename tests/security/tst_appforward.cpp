// Issue 39 N1: another user of the same machine against an open one-click app. The app (a
// notebook server with a token, root in the box) is opened through the client's own path (a
// SshPortForward to the app's port and AppOpener handing the browser a page); a second local
// Unix user, made here with useradd, then
//  - reads every process's command line (ps, /proc/*/cmdline) while the "browser" runs: no
//    token, only the page's file name, and cannot read that page (0600 in a 0700 folder);
//  - connects to the forward's port: the connection is closed without one byte of the app's
//    answer, while the owner's own request on the same port is answered.
// Needs root (useradd, runuser) and podman with the jupyter image.
#include "CoreTestSupport.h"
#include "PodmanApiTest.h"
#include "SshTestSupport.h"
#include "api/ProviderClient.h"
#include "ssh/AppOpener.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshPortForward.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUrlQuery>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

class TestAppForward : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void otherUserGetsNeitherTokenNorApp();

private:
    // `script` run by `user` (sh -c), bounded.
    Cmd as(const QString &user, const QString &script)
    {
        return run(u"runuser"_s, {u"-u"_s, user, u"--"_s, u"sh"_s, u"-c"_s, script}, 30'000);
    }

    SimProcess *m_sim = nullptr;
    std::unique_ptr<ProviderClient> m_client;
    std::unique_ptr<SshKeyStore> m_keys;
    SshTarget m_target;
    InstanceApp m_app;
    QString m_otherUser;
};

void TestAppForward::initTestCase()
{
    if (getuid() != 0)
        QSKIP("needs root: it makes a second local user with useradd and runs as it (runuser)");
    for (const QString &tool : {u"useradd"_s, u"userdel"_s, u"runuser"_s, u"bash"_s}) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QSKIP(qPrintable(u"%1 is not installed"_s.arg(tool)));
    }
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    m_otherUser = u"chn1%1"_s.arg(QRandomGenerator::system()->bounded(100000, 999999));
    const Cmd added = run(u"useradd"_s, {u"-M"_s, u"-N"_s, u"-s"_s, u"/bin/sh"_s, m_otherUser});
    QVERIFY2(added.ok(), qPrintable(added.describe()));

    m_sim = startSim();
    QVERIFY(m_sim);
    m_client = std::make_unique<ProviderClient>();
    m_client->setBaseUrl(m_sim->baseUrl());
    const auto session =
        await(m_client->signUp(u"victim@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    m_client->setToken(session.value->token);
    m_keys = std::make_unique<SshKeyStore>(nullptr, m_dir->filePath(u"keys"_s));
    const KeyOutcome made = awaitKey(m_keys->generate(u"victim"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    const auto uploaded = await(SshKeyStore::upload(*m_client, made.key, u"victim"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    const QString id = create(*m_sim, session.value->token, {uploaded.value->id},
                              {{u"image"_s, u"jupyter"_s}, {u"gpu_count"_s, 1}});
    QVERIFY(!id.isEmpty());
    std::optional<Instance> ready;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto inst = await(m_client->instance(id));
            if (inst.ok && !inst.value->apps.isEmpty() && inst.value->apps.first().ready)
                ready = *inst.value;
            return ready.has_value();
        }(),
        240'000);
    m_app = ready->apps.first();
    QVERIFY2(QUrlQuery(QUrl(m_app.url)).hasQueryItem(u"token"_s), qPrintable(m_app.url));
    m_target = SshTarget::fromInstance(*ready, made.key);
    QVERIFY(m_target.isValid());
}

void TestAppForward::cleanupTestCase()
{
    cleanupPodmanTest();
    if (!m_otherUser.isEmpty())
        run(u"userdel"_s, {m_otherUser});
}

void TestAppForward::otherUserGetsNeitherTokenNorApp()
{
    SshPortForward forward(m_target, m_app.port);
    QSignalSpy listening(&forward, &SshPortForward::listening);
    QSignalSpy failed(&forward, &SshPortForward::failed);
    forward.start();
    QVERIFY2(listening.wait(30'000),
             failed.isEmpty() ? "no answer" : qPrintable(failed.constFirst().first().toString()));
    const QUrl url = SshPortForward::appUrl(m_app, forward.localPort());
    const QString token = QUrlQuery(url).queryItemValue(u"token"_s);
    QVERIFY(token.size() >= 16);

    // The browser, as a process that keeps its arguments (what xdg-open starts).
    QProcess browser;
    AppOpener opener(AppOpener::immediate([&browser](const QUrl &page) {
        browser.start(u"sh"_s, {u"-c"_s, u"sleep 60"_s, u"fake-browser"_s, page.toString()});
        return browser.waitForStarted(5000);
    }));
    AppOpener::Outcome opened;
    opener.open(url, [&opened](const AppOpener::Outcome &o) { opened = o; });
    QVERIFY2(opened.opened, qPrintable(opened.error));

    // Every command line on the machine, as the other user.
    const Cmd scan =
        as(m_otherUser,
           u"ps -ww -eo args; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '; true"_s);
    QVERIFY2(scan.ok(), qPrintable(scan.describe()));
    QVERIFY2(scan.out.contains("fake-browser"), "the scan does not see the browser's arguments");
    QVERIFY2(scan.out.contains(QFileInfo(opened.page).fileName().toUtf8()), scan.out.constData());
    QVERIFY2(!scan.out.contains(token.toUtf8()), "the token is on a command line");
    const Cmd page = as(m_otherUser, u"cat '%1'"_s.arg(opened.page));
    QVERIFY2(!page.ok() && !page.out.contains(token.toUtf8()), page.out.constData());

    // The forward's port: the owner's request is answered, the other user's gets no byte.
    const QString request = u"trap '' PIPE; exec 3<>/dev/tcp/127.0.0.1/%1 || exit 3; "
                            "printf 'GET /tree HTTP/1.0\\r\\n\\r\\n' >&3 2>/dev/null; "
                            "head -c 1000000 <&3 | wc -c"_s.arg(forward.localPort());
    const Cmd owner = run(u"bash"_s, {u"-c"_s, request}, 30'000);
    QVERIFY2(owner.ok() && owner.out.trimmed().toInt() > 0, qPrintable(owner.describe()));
    const Cmd other =
        run(u"runuser"_s, {u"-u"_s, m_otherUser, u"--"_s, u"bash"_s, u"-c"_s, request}, 30'000);
    QVERIFY2(other.ok(), qPrintable(other.describe()));
    QCOMPARE(other.out.trimmed(), "0"_ba);

    browser.kill();
    browser.waitForFinished(5000);
}

QTEST_GUILESS_MAIN(TestAppForward)
#include "tst_appforward.moc"
