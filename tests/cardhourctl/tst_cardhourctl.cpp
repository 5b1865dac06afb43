// cardhourctl as a script sees it: the real binary, run as a child process (stdin a pipe, so
// never a terminal), against a real cardhour-sim with the test clock, with a private keychain
// (run-with-keyring) and its key files in a scratch XDG_DATA_HOME. Every command's human and
// --json output and every exit status is checked here.
#include "CardHourVersion.h"
#include "CtlProcess.h"
#include "SimProcess.h"
#include "session/SecretStore.h"
#include "session/Session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::test::SimProcess;

namespace {

const QString kPassword = u"correct horse battery"_s;

using Run = cardhour::test::CtlRun;

// Display columns of a line up to `needle` (CJK characters count two).
int columnOf(const QString &line, const QString &needle)
{
    const qsizetype at = line.indexOf(needle);
    if (at < 0)
        return -1;
    int width = 0;
    for (char32_t c : QStringView(line).left(at).toUcs4())
        width += (c >= 0x2E80 && c <= 0x9FFF) ? 2 : 1;
    return width;
}

} // namespace

class TestCardhourctl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void versionAndHelp();
    void usageErrors_data();
    void usageErrors();
    void notLoggedIn();
    void login();
    void tokenInTheDesktopClientsEntry();
    void catalog();
    void keys();
    void hosts();
    void events();
    void waitTimesOut();
    void removeAsksFirst();
    void ssh();
    void models();
    void money();
    void refusedForMoney();
    void launchInstallsTheAccountsKeys();
    void migSlices();

private:
    Run ctl(const QStringList &arguments, const QByteArray &input = {},
            const QString &service = {});
    bool needKeychain();
    QString m_service;
    SimProcess m_sim;
    QTemporaryDir m_data;
    QString m_host; // the running host of hosts(), kept for ssh()
};

void TestCardhourctl::initTestCase()
{
    QVERIFY(m_data.isValid());
    QVERIFY2(m_sim.start({u"--test-clock"_s, u"--runtime"_s, u"inprocess"_s}),
             qPrintable(m_sim.lastError()));
    m_service = u"cardhourctl-test-%1"_s.arg(QCoreApplication::applicationPid());
    QVERIFY(!m_sim.signUp(u"ada@example.com"_s, kPassword).isEmpty());
}

bool TestCardhourctl::needKeychain()
{
    return qEnvironmentVariable("CARDHOUR_KEYRING") == u"ready"_s;
}

Run TestCardhourctl::ctl(const QStringList &arguments, const QByteArray &input,
                         const QString &service)
{
    return cardhour::test::runCtl(
        arguments,
        {{u"CARDHOUR_PROVIDER_URL"_s, m_sim.baseUrl().toString()},
         {u"CARDHOUR_KEYCHAIN_SERVICE"_s, service.isEmpty() ? m_service : service},
         {u"XDG_DATA_HOME"_s, m_data.path()}},
        input);
}

void TestCardhourctl::versionAndHelp()
{
    Run r = ctl({u"--version"_s});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), u"cardhourctl "_s + QStringLiteral(CARDHOUR_VERSION));

    r = ctl({u"--help"_s});
    QVERIFY2(r.code == 0, r.describe());
    for (const QString &word : {u"login"_s, u"launch"_s, u"ssh-config"_s, u"ledger"_s,
                                u"Exit status"_s, u"6  timed out"_s, u"5  refused for money"_s})
        QVERIFY2(r.out.contains(word), qPrintable(word));

    r = ctl({u"launch"_s, u"--help"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.startsWith(u"Usage: cardhourctl launch [options]"_s));
    QVERIFY(r.out.contains(u"--gpu TYPE"_s));
    QVERIFY(r.out.contains(u"3  not logged in"_s));
}

void TestCardhourctl::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("nothing") << QStringList{} << u"Usage:"_s;
    QTest::newRow("unknown command") << QStringList{u"frobnicate"_s} << u"frobnicate"_s;
    QTest::newRow("unknown option") << QStringList{u"ls"_s, u"--bogus"_s} << u"bogus"_s;
    QTest::newRow("wait without state") << QStringList{u"wait"_s, u"x"_s} << u"--state"_s;
    QTest::newRow("wait bad state")
        << QStringList{u"wait"_s, u"x"_s, u"--state"_s, u"asleep"_s} << u"asleep"_s;
    QTest::newRow("show two") << QStringList{u"show"_s, u"a"_s, u"b"_s} << u"a b"_s;
    QTest::newRow("launch without gpu") << QStringList{u"launch"_s} << u"--gpu"_s;
    QTest::newRow("cards not a number")
        << QStringList{u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"many"_s} << u"many"_s;
    QTest::newRow("topup not money") << QStringList{u"topup"_s, u"lots"_s} << u"lots"_s;
    QTest::newRow("forward no port") << QStringList{u"forward"_s, u"x"_s} << u"REMOTE_PORT"_s;
    QTest::newRow("forward bad port")
        << QStringList{u"forward"_s, u"x"_s, u"99999"_s} << u"99999"_s;
    QTest::newRow("keys what") << QStringList{u"keys"_s, u"polish"_s} << u"polish"_s;
    QTest::newRow("both providers")
        << QStringList{u"ls"_s, u"--sandbox"_s, u"--provider"_s, u"http://x"_s} << u"--sandbox"_s;
    // A malformed address is refused before anything is asked, saying what a good one is.
    QTest::newRow("provider port not a number")
        << QStringList{u"ls"_s, u"--provider"_s, u"localhost:abc"_s} << u"http://127.0.0.1:8787"_s;
    QTest::newRow("provider scheme")
        << QStringList{u"ls"_s, u"--provider"_s, u"htp:/x"_s} << u"“htp:”"_s;
}

void TestCardhourctl::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run r = ctl(arguments);
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY2(r.err.contains(message), r.describe());
    QVERIFY(r.out.isEmpty());
}

void TestCardhourctl::notLoggedIn()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    const Run r = ctl({u"ls"_s}, {}, m_service + u"-nobody"_s);
    QVERIFY2(r.code == 3, r.describe());
    QVERIFY2(r.err.contains(u"cardhourctl login"_s), r.describe());
    QVERIFY(r.out.isEmpty());
}

void TestCardhourctl::login()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    // No terminal: the e-mail must come as an option.
    Run r = ctl({u"login"_s}, kPassword.toUtf8() + '\n');
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY(r.err.contains(u"--email"_s));

    r = ctl({u"login"_s, u"--email"_s, u"ada@example.com"_s}, "wrong password\n");
    QVERIFY2(r.code == 3, r.describe());

    r = ctl({u"login"_s, u"--email"_s, u"ada@example.com"_s, u"--json"_s},
            kPassword.toUtf8() + '\n');
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"user"_s][u"email"_s].toString(), u"ada@example.com"_s);
    QCOMPARE(r.json()[u"token_stored"_s].toBool(), true);

    r = ctl({u"whoami"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.out.section(u'\n', 0, 0), u"ada@example.com"_s);
    QVERIFY(r.out.contains(u"¥"_s));

    r = ctl({u"whoami"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"email"_s].toString(), u"ada@example.com"_s);
    QVERIFY(r.json()[u"balance_micros"_s].toInteger() > 0);
    QCOMPARE(r.json()[u"provider"_s].toString(), m_sim.baseUrl().toString());

    // Log out and in again: the provider revokes the token, the keychain forgets it.
    r = ctl({u"logout"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"whoami"_s});
    QVERIFY2(r.code == 3, r.describe());
    r = ctl({u"login"_s, u"--email"_s, u"ada@example.com"_s}, kPassword.toUtf8() + '\n');
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.err.contains(u"ada@example.com"_s));
}

void TestCardhourctl::tokenInTheDesktopClientsEntry()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    // The desktop client reads the token under Session::keyForUrl(url) in the same service.
    cardhour::core::SecretStore store(m_service);
    cardhour::core::SecretReply *read =
        store.readToken(cardhour::core::Session::keyForUrl(m_sim.baseUrl()));
    QSignalSpy done(read, &cardhour::core::SecretReply::finished);
    QVERIFY(done.wait(15000));
    QVERIFY(read->ok());
    const cardhour::test::Reply me = m_sim.authedGet(read->secret(), u"/v1/me"_s);
    QCOMPARE(me.status, 200);
    QCOMPARE(me.value(u"email"_s).toString(), u"ada@example.com"_s);
}

void TestCardhourctl::catalog()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    Run r = ctl({u"gpus"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    bool found = false;
    for (const QJsonValue &gpu : r.json().array()) {
        if (gpu[u"id"_s] == u"rtx4090"_s) {
            found = true;
            QCOMPARE(gpu[u"price_per_hour_micros"_s].toInteger(), 1'900'000);
            QVERIFY(gpu[u"capacity"_s].toInt() > 0);
        }
    }
    QVERIFY(found);
    r = ctl({u"gpus"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.startsWith(u"ID"_s));
    QVERIFY(r.out.contains(QRegularExpression(u"\nrtx4090 +NVIDIA GeForce RTX 4090 +24 GiB +"
                                              "¥1.90/h"_s)));

    r = ctl({u"images"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QStringList ids;
    for (const QJsonValue &image : r.json().array())
        ids.append(image[u"id"_s].toString());
    QVERIFY(ids.contains(u"base"_s));
    r = ctl({u"images"_s});
    QVERIFY(r.out.contains(QRegularExpression(u"\nbase +"_s)));
}

void TestCardhourctl::keys()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    Run r = ctl({u"keys"_s, u"upload"_s, u"/nonexistent/id_ed25519.pub"_s});
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY2(r.err.contains(u"/nonexistent/id_ed25519.pub"_s), r.describe());

    const QString notAKey = m_data.filePath(u"notes.txt"_s);
    QFile file(notAKey);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("-----BEGIN OPENSSH PRIVATE KEY-----\nnot really\n");
    file.close();
    r = ctl({u"keys"_s, u"upload"_s, notAKey});
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY2(r.err.contains(notAKey) && r.err.contains(u"not a public key"_s), r.describe());

    r = ctl({u"keys"_s, u"generate"_s, u"laptop"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const QString fingerprint = r.json()[u"fingerprint_sha256"_s].toString();
    QVERIFY(fingerprint.startsWith(u"SHA256:"_s));
    QCOMPARE(r.json()[u"name"_s].toString(), u"laptop"_s);

    r = ctl({u"keys"_s, u"list"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"local"_s][0][u"fingerprint_sha256"_s].toString(), fingerprint);
    QVERIFY(r.json()[u"local"_s][0][u"private_path"_s].toString().startsWith(m_data.path()));
    QCOMPARE(r.json()[u"provider"_s][0][u"fingerprint_sha256"_s].toString(), fingerprint);
    r = ctl({u"keys"_s, u"list"_s});
    QVERIFY(r.out.contains(QRegularExpression(u"\nlaptop +SHA256:\\S+ +/\\S+ +laptop\n"_s)));

    // A public key file by path, under a name of its own; the same key again is refused.
    r = ctl({u"keys"_s, u"generate"_s, u"spare"_s, u"--no-upload"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const QString spare = r.json()[u"private_path"_s].toString() + u".pub"_s;
    QVERIFY(QFile::exists(spare));
    r = ctl({u"keys"_s, u"upload"_s, spare, u"--name"_s, u"again"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"name"_s].toString(), u"again"_s);
    r = ctl({u"keys"_s, u"upload"_s, u"spare"_s});
    QVERIFY2(r.code == 1 && r.err.contains(u"already"_s), r.describe());
    r = ctl({u"keys"_s, u"rm"_s, u"again"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"keys"_s, u"rm"_s, u"again"_s});
    QVERIFY2(r.code == 4, r.describe());
}

void TestCardhourctl::hosts()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    // Piped: --wait prints nothing extra, only the name.
    Run r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--name"_s, u"训练-1"_s, u"--wait"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.out, u"训练-1\n"_s);
    m_host = u"训练-1"_s;

    // A shared dataset, registered by the operator.
    QVERIFY(QDir(m_data.path()).mkpath(u"shared/demo"_s));
    QProcess add;
    add.start(SimProcess::binaryPath(),
              {u"datasets"_s, u"add"_s, u"demo"_s, m_data.filePath(u"shared/demo"_s), u"--data"_s,
               m_sim.dataDir()});
    QVERIFY(add.waitForFinished(30000));
    QCOMPARE(add.exitCode(), 0);
    r = ctl({u"datasets"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[0][u"name"_s].toString(), u"demo"_s);
    QCOMPARE(r.json()[0][u"available"_s].toBool(), true);
    r = ctl({u"datasets"_s});
    QVERIFY2(r.out.contains(QRegularExpression(u"\ndemo +/datasets/demo +"_s)), r.describe());

    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--dataset"_s, u"nosuchdata"_s});
    QVERIFY2(r.code == 1 && r.err.contains(u"nosuchdata"_s), r.describe());
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"2"_s, u"--name"_s, u"b"_s,
             u"--image"_s, u"base"_s, u"--dataset"_s, u"demo"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"datasets"_s].toArray(), QJsonArray({u"demo"_s}));
    QCOMPARE(r.json()[u"gpu_count"_s].toInt(), 2);
    QCOMPARE(r.json()[u"price_per_hour_micros"_s].toInteger(), 3'800'000);
    QCOMPARE(r.json()[u"ssh_key_ids"_s].toArray().size(), 1); // all the account's keys
    const QString id = r.json()[u"id"_s].toString();

    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--key"_s, u"nosuchkey"_s});
    QVERIFY2(r.code == 4, r.describe());
    r = ctl({u"launch"_s, u"--gpu"_s, u"nosuchgpu"_s});
    QVERIFY2(r.code == 1 || r.code == 4, r.describe());

    r = ctl({u"wait"_s, u"b"_s, u"--state"_s, u"running"_s, u"--timeout"_s, u"60"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.out, u"b  running\n"_s);

    // The table: columns line up in display width, the CJK name counting two per character.
    r = ctl({u"ls"_s});
    QVERIFY2(r.code == 0, r.describe());
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(u"NAME"_s));
    const int stateColumn = columnOf(lines[0], u"STATE"_s);
    for (const QString &line : lines.mid(1))
        QCOMPARE(columnOf(line, u"running"_s), stateColumn);
    QCOMPARE(columnOf(lines[1], u"1 × rtx4090"_s), columnOf(lines[0], u"GPUS"_s));

    r = ctl({u"ls"_s, u"--json"_s});
    QCOMPARE(r.json().array().size(), 2);
    r = ctl({u"show"_s, u"训练-1"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"state"_s].toString(), u"running"_s);
    QCOMPARE(r.json()[u"gpu_type"_s].toString(), u"rtx4090"_s);
    QCOMPARE(r.json()[u"retention"_s][u"stop_releases"_s].toArray(), QJsonArray({u"gpu_cards"_s}));
    r = ctl({u"show"_s, id});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.contains(QRegularExpression(u"state: +running"_s)));
    // What the box got, checked before billing began.
    QVERIFY2(
        r.out.contains(QRegularExpression(
            u"hardware check: +passed: the box has what was ordered \\(2 × NVIDIA GeForce RTX 4090\\)"_s)),
        qPrintable(r.out));
    QCOMPARE(ctl({u"show"_s, id, u"--json"_s}).json()[u"hardware_check"_s][u"status"_s].toString(),
             u"passed"_s);
    r = ctl({u"show"_s, u"nobody"_s});
    QVERIFY2(r.code == 4, r.describe());
    QVERIFY(r.err.contains(u"nobody"_s));

    r = ctl({u"stop"_s, u"b"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(QStringList({u"stopping"_s, u"stopped"_s}).contains(r.json()[u"state"_s].toString()));
    r = ctl({u"wait"_s, u"b"_s, u"--state"_s, u"stopped"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"state"_s].toString(), u"stopped"_s);
    r = ctl({u"start"_s, u"b"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"wait"_s, u"b"_s, u"--state"_s, u"running"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"rm"_s, u"b"_s, u"--yes"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"wait"_s, id, u"--state"_s, u"terminated"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"ls"_s, u"--json"_s});
    QCOMPARE(r.json().array().size(), 1);
    r = ctl({u"ls"_s, u"--all"_s, u"--json"_s});
    QCOMPARE(r.json().array().size(), 2);
}

void TestCardhourctl::events()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    QProcess watch;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CARDHOUR_PROVIDER_URL"_s, m_sim.baseUrl().toString());
    env.insert(u"CARDHOUR_KEYCHAIN_SERVICE"_s, m_service);
    env.insert(u"XDG_DATA_HOME"_s, m_data.path());
    watch.setProcessEnvironment(env);
    watch.start(QStringLiteral(CARDHOUR_CTL_BIN),
                {u"events"_s, u"--type"_s, u"hello"_s, u"--type"_s, u"instance"_s, u"--count"_s,
                 u"3"_s, u"--timeout"_s, u"60"_s});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += watch.readAllStandardOutput()).contains('\n'), 20000);
    Run r = ctl({u"launch"_s, u"--gpu"_s, u"rtx3090"_s, u"--name"_s, u"watched"_s, u"--wait"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(watch.waitForFinished(30000));
    QCOMPARE(watch.exitCode(), 0);
    out += watch.readAllStandardOutput();
    const QList<QByteArray> lines = out.trimmed().split('\n');
    QVERIFY2(lines.size() == 3, out.constData());
    QCOMPARE(QJsonDocument::fromJson(lines[0])[u"type"_s].toString(), u"hello"_s);
    for (const QByteArray &line : lines.mid(1)) {
        const QJsonDocument event = QJsonDocument::fromJson(line);
        QCOMPARE(event[u"type"_s].toString(), u"instance"_s);
        QVERIFY(!event[u"id"_s].toString().isEmpty());
        QCOMPARE(event[u"data"_s][u"name"_s].toString(), u"watched"_s);
    }
    r = ctl({u"rm"_s, u"watched"_s, u"--yes"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"wait"_s, u"watched"_s, u"--state"_s, u"terminated"_s});
    QVERIFY2(r.code == 0, r.describe());

    // Fewer events than --count within --timeout: timed out.
    r = ctl(
        {u"events"_s, u"--type"_s, u"snapshot"_s, u"--count"_s, u"1"_s, u"--timeout"_s, u"0.5"_s});
    QVERIFY2(r.code == 6 && r.out.isEmpty(), r.describe());
}

void TestCardhourctl::waitTimesOut()
{
    if (!needKeychain() || m_host.isEmpty())
        QSKIP("needs the host of hosts()");
    const Run r = ctl({u"wait"_s, m_host, u"--state"_s, u"stopped"_s, u"--timeout"_s, u"0.5"_s});
    QVERIFY2(r.code == 6, r.describe());
    QVERIFY2(r.err.contains(u"running"_s), r.describe());
}

void TestCardhourctl::removeAsksFirst()
{
    if (!needKeychain() || m_host.isEmpty())
        QSKIP("needs the host of hosts()");
    // stdin is no terminal: no prompt, usage error, and it says what would be deleted.
    const Run r = ctl({u"rm"_s, m_host}, "y\n");
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY2(r.err.contains(u"--yes"_s) && r.err.contains(m_host), r.describe());
    // The in-process runtime keeps no files: the provider's retention says nothing is deleted.
    QVERIFY2(r.err.contains(u"keeps no files"_s), r.describe());
    QCOMPARE(ctl({u"show"_s, m_host, u"--json"_s}).json()[u"state"_s].toString(), u"running"_s);
}

void TestCardhourctl::ssh()
{
    if (!needKeychain() || m_host.isEmpty())
        QSKIP("needs the host of hosts()");
    // The in-process runtime has no sshd: no address, so nothing to pin and nothing to run
    // (tst_cardhourctl_podman connects for real).
    Run r = ctl({u"ssh-config"_s, m_host});
    QVERIFY2(r.code == 1 && r.err.contains(u"SSH"_s), r.describe());
    QVERIFY(r.out.isEmpty());
    r = ctl({u"ssh"_s, m_host, u"--"_s, u"true"_s});
    QVERIFY2(r.code == 1 && r.err.contains(u"SSH"_s), r.describe());
    QVERIFY(!QFile::exists(m_data.filePath(u"CardHour/ssh/known_hosts"_s)));
    r = ctl({u"ssh"_s, u"nobody"_s});
    QVERIFY2(r.code == 4, r.describe());
    r = ctl({u"ssh"_s});
    QVERIFY2(r.code == 2, r.describe());
}

void TestCardhourctl::money()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    Run r = ctl({u"topup"_s, u"12.50"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"posting"_s][u"amount_micros"_s].toInteger(), 12'500'000);
    QCOMPARE(r.json()[u"posting"_s][u"kind"_s].toString(), u"topup"_s);
    const qint64 balance = r.json()[u"balance_micros"_s].toInteger();
    r = ctl({u"topup"_s, u"1"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.startsWith(u"Added ¥1.00; the balance is ¥"_s));

    r = ctl({u"bill"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.json()[u"balance_micros"_s].toInteger() <= balance + 1'000'000);
    QVERIFY(r.json()[u"balance_micros"_s].toInteger() > balance);
    QVERIFY2(r.json()[u"spend_rate_micros_per_hour"_s].toInteger() == 1'900'000, r.describe());
    // Per host: the running one at its rate (the terminated one keeps its cost, at no rate).
    bool running = false;
    for (const QJsonValue &host : r.json()[u"instances"_s].toArray()) {
        if (host[u"name"_s] == m_host) {
            running = host[u"state"_s] == u"running"_s
                && host[u"spend_rate_micros_per_hour"_s].toInteger() == 1'900'000;
        } else {
            QCOMPARE(host[u"spend_rate_micros_per_hour"_s].toInteger(), 0);
        }
    }
    QVERIFY2(running, r.describe());
    QVERIFY(!r.json()[u"runs_out_at"_s].isNull());
    r = ctl({u"bill"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.contains(QRegularExpression(u"spending: +¥1.90/h"_s)));
    QVERIFY(r.out.contains(QRegularExpression(u"\n训练-1 +running +¥1.90/h"_s)));

    r = ctl({u"ledger"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const QJsonArray postings = r.json().array();
    QVERIFY(postings.size() >= 3); // trial credit, two top-ups
    QCOMPARE(postings[0][u"amount_micros"_s].toInteger(), 1'000'000); // newest first
    r = ctl({u"ledger"_s, u"--csv"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.startsWith(u"seq,created_at,kind,amount_micros,"_s));
    QVERIFY(r.out.contains(QRegularExpression(u"\n\\d+,[^,]+,topup,12500000,"_s)));
    r = ctl({u"ledger"_s});
    QVERIFY(r.out.contains(QRegularExpression(u"topup +¥12.5000"_s)));
}

void TestCardhourctl::refusedForMoney()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    // Another account (its own keychain service) runs out of money on the test clock.
    const QString service = m_service + u"-broke"_s;
    QVERIFY(!m_sim.signUp(u"bob@example.com"_s, kPassword).isEmpty());
    Run r =
        ctl({u"login"_s, u"--email"_s, u"bob@example.com"_s}, kPassword.toUtf8() + '\n', service);
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"4"_s, u"--wait"_s}, {},
            service);
    QVERIFY2(r.code == 0, r.describe());
    // A day drains the trial credit many times over, well inside the token's lifetime.
    QVERIFY(m_sim.advance(24 * 3600.0));
    QTRY_VERIFY_WITH_TIMEOUT(
        ctl({u"bill"_s, u"--json"_s}, {}, service).json()[u"balance_micros"_s].toInteger() <= 0,
        20000);
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s}, {}, service);
    QVERIFY2(r.code == 5, r.describe());
}

// A script's first host can be logged in to: launch without --key installs every key of the
// account and names them; an account with none gets one made and uploaded, and is told so.
void TestCardhourctl::launchInstallsTheAccountsKeys()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    const QString service = m_service + u"-keys"_s;
    QVERIFY(!m_sim.signUp(u"kim@example.com"_s, kPassword).isEmpty());
    Run r =
        ctl({u"login"_s, u"--email"_s, u"kim@example.com"_s}, kPassword.toUtf8() + '\n', service);
    QVERIFY2(r.code == 0, r.describe());

    // No key in the account: one is made here, uploaded, said, and installed.
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--name"_s, u"k1"_s, u"--wait"_s, u"--json"_s},
            {}, service);
    QVERIFY2(r.code == 0, r.describe());
    const QJsonArray made = r.json()[u"ssh_key_ids"_s].toArray();
    QVERIFY2(made.size() == 1, r.describe());
    QVERIFY2(r.err.contains(u"had no SSH key"_s), r.describe());
    Run keys = ctl({u"keys"_s, u"list"_s, u"--json"_s}, {}, service);
    QVERIFY2(keys.code == 0, keys.describe());
    const QJsonArray onProvider = keys.json()[u"provider"_s].toArray();
    QCOMPARE(onProvider.size(), 1);
    QCOMPARE(onProvider[0][u"id"_s], made[0]);
    const QString madeName = onProvider[0][u"name"_s].toString();
    const QString madeFingerprint = onProvider[0][u"fingerprint_sha256"_s].toString();
    QVERIFY2(r.err.contains(u"Installing SSH keys: %1 (%2)"_s.arg(madeName, madeFingerprint)),
             r.describe());

    // A public key file uploaded by hand: installed by default with the other, both named.
    r = ctl({u"keys"_s, u"generate"_s, u"kim-laptop"_s, u"--no-upload"_s, u"--json"_s}, {},
            service);
    QVERIFY2(r.code == 0, r.describe());
    const QString pub = r.json()[u"private_path"_s].toString() + u".pub"_s;
    r = ctl({u"keys"_s, u"upload"_s, pub, u"--name"_s, u"laptop"_s, u"--json"_s}, {}, service);
    QVERIFY2(r.code == 0, r.describe());
    const QString laptopId = r.json()[u"id"_s].toString();
    const QString laptopFingerprint = r.json()[u"fingerprint_sha256"_s].toString();
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--name"_s, u"k2"_s, u"--wait"_s, u"--json"_s},
            {}, service);
    QVERIFY2(r.code == 0, r.describe());
    const QJsonArray both = r.json()[u"ssh_key_ids"_s].toArray();
    QVERIFY2(both.size() == 2 && both.contains(laptopId) && both.contains(made[0]), r.describe());
    QVERIFY2(r.err.contains(u"laptop (%1)"_s.arg(laptopFingerprint)), r.describe());
    QVERIFY2(!r.err.contains(u"had no SSH key"_s), r.describe());

    // --key names one: only that one, said as well.
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--name"_s, u"k3"_s, u"--key"_s, u"laptop"_s,
             u"--json"_s},
            {}, service);
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"ssh_key_ids"_s].toArray(), QJsonArray({laptopId}));
    QVERIFY2(r.err.contains(u"Installing SSH keys: laptop (%1)"_s.arg(laptopFingerprint)),
             r.describe());
    for (const QString &host : {u"k1"_s, u"k2"_s, u"k3"_s})
        QCOMPARE(ctl({u"rm"_s, host, u"--yes"_s}, {}, service).code, 0);
}

void TestCardhourctl::models()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    // Logged in as ada by login(); the same account through the API beside it.
    const QString token =
        m_sim
            .post(u"/v1/auth/login"_s,
                  {{u"email"_s, u"ada@example.com"_s}, {u"password"_s, kPassword}})
            .value(u"token"_s)
            .toString();
    QVERIFY(!token.isEmpty());
    constexpr qint64 kMiB = 1024 * 1024;
    QByteArray bytes(2 * kMiB + 10, Qt::Uninitialized);
    for (qsizetype i = 0; i < bytes.size(); ++i)
        bytes[i] = char((i * 7919) % 251);
    const QByteArray sha = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
    QTemporaryDir dir;
    QFile file(dir.filePath(u"resumed.bin"_s));
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
    file.close();

    // An upload cut off after its first chunk (as a closed window or a killed command leaves it).
    const QString uploadId = m_sim
                                 .authedPost(token, u"/v1/model-uploads"_s,
                                             {{u"name"_s, u"resumed"_s},
                                              {u"size_bytes"_s, bytes.size()},
                                              {u"sha256"_s, QString::fromLatin1(sha)}})
                                 .value(u"id"_s)
                                 .toString();
    QVERIFY(!uploadId.isEmpty());
    const QByteArray first = bytes.first(kMiB);
    cardhour::test::Headers headers = SimProcess::bearer(token);
    headers.append(qMakePair("Content-Type"_ba, "application/octet-stream"_ba));
    headers.append(qMakePair("Upload-Offset"_ba, "0"_ba));
    headers.append(qMakePair("Upload-Chunk-SHA256"_ba,
                             QCryptographicHash::hash(first, QCryptographicHash::Sha256).toHex()));
    QCOMPARE(m_sim.request("PUT", u"/v1/model-uploads/"_s + uploadId, first, headers).status, 200);

    // The same file again: carried on from the provider's offset, checked, listed.
    Run r = ctl({u"models"_s, u"upload"_s, file.fileName(), u"--name"_s, u"resumed"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.out.trimmed(), u"resumed"_s);
    QVERIFY2(r.err.contains(u"Carrying on from 1.0 MiB of 2.0 MiB"_s), r.describe());
    r = ctl({u"models"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QString modelSha;
    for (const QJsonValue &m : r.json().array()) {
        if (m[u"name"_s] == u"resumed"_s)
            modelSha = m[u"sha256"_s].toString();
    }
    QCOMPARE(modelSha, QString::fromLatin1(sha));
    r = ctl({u"models"_s});
    QVERIFY2(r.out.contains(QRegularExpression(u"\nresumed +private +custom +2.0 MiB +"_s)),
             r.describe());
    QVERIFY(r.out.contains(QRegularExpression(u"\ntesseract-eng +public +ocr +"_s)));

    // Mounted by a host (launch --model): kept, naming the host; removed once it is terminated.
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--model"_s, u"resumed"_s, u"--name"_s,
             u"model-reader"_s, u"--wait"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"models"_s].toArray(), QJsonArray{u"resumed"_s});
    QCOMPARE(ctl({u"launch"_s, u"--snapshot"_s, u"x"_s, u"--model"_s, u"resumed"_s}).code, 2);
    r = ctl({u"models"_s, u"rm"_s, u"resumed"_s});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(u"model-reader"_s) && r.err.contains(u"Terminate"_s), r.describe());
    r = ctl({u"rm"_s, u"model-reader"_s, u"--yes"_s});
    QVERIFY2(r.code == 0, r.describe());
    // Terminating lets go of its mounts (the provider may take a moment to finish it).
    QVERIFY(QTest::qWaitFor(
        [&] {
            return ctl({u"models"_s, u"rm"_s, u"resumed"_s}).code == 0;
        },
        20000));
    QCOMPARE(ctl({u"models"_s, u"rm"_s, u"resumed"_s}).code, 4); // gone
    QCOMPARE(ctl({u"models"_s, u"rm"_s, u"tesseract-eng"_s}).code, 4); // the provider's
}

// A MIG slice is listed with its share of its card, launched by its id like any type, and the
// card's whole-card row counts the card it is cut from as taken.
void TestCardhourctl::migSlices()
{
    if (!needKeychain())
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    const QString service = m_service + u"-mig"_s;
    QVERIFY(!m_sim.signUp(u"mia@example.com"_s, kPassword).isEmpty());
    Run r =
        ctl({u"login"_s, u"--email"_s, u"mia@example.com"_s}, kPassword.toUtf8() + '\n', service);
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"gpus"_s, u"--json"_s}, {}, service);
    QVERIFY2(r.code == 0, r.describe());
    QJsonObject card, slice;
    for (const QJsonValue &gpu : r.json().array()) {
        if (gpu[u"id"_s] == u"h100-80g"_s)
            card = gpu.toObject();
        if (gpu[u"id"_s] == u"h100-80g-1g-10gb"_s)
            slice = gpu.toObject();
    }
    QVERIFY2(!slice.isEmpty(), r.describe());
    QCOMPARE(slice[u"slice"_s][u"profile"_s].toString(), u"1g.10gb"_s);
    QCOMPARE(slice[u"slice"_s][u"of"_s].toString(), u"h100-80g"_s);
    QVERIFY(card[u"slice"_s].isNull());
    const int wholeFree = card[u"available"_s].toInt();
    r = ctl({u"gpus"_s}, {}, service);
    QVERIFY2(
        r.out.contains(QRegularExpression(u"\nh100-80g-1g-10gb +NVIDIA H100 80GB HBM3 MIG "
                                          "1g.10gb +10 GiB +¥2.14/h +¥0.85/h +56 of 56 +1/7 SMs, "
                                          "1/8 VRAM of h100-80g\n"_s)),
        r.describe());

    r = ctl({u"launch"_s, u"--gpu"_s, u"h100-80g-1g-10gb"_s, u"--name"_s, u"m1"_s, u"--wait"_s,
             u"--json"_s},
            {}, service);
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(r.json()[u"gpu_type"_s].toString(), u"h100-80g-1g-10gb"_s);
    QCOMPARE(r.json()[u"state"_s].toString(), u"running"_s);
    r = ctl({u"gpus"_s, u"--json"_s}, {}, service);
    for (const QJsonValue &gpu : r.json().array()) {
        if (gpu[u"id"_s] == u"h100-80g"_s) // the card the slice is cut from is not free whole
            QCOMPARE(gpu[u"available"_s].toInt(), wholeFree - 1);
        if (gpu[u"id"_s] == u"h100-80g-1g-10gb"_s)
            QCOMPARE(gpu[u"available"_s].toInt(), 55);
    }
    r = ctl({u"launch"_s, u"--gpu"_s, u"h100-80g-1g-10gb"_s, u"--cards"_s, u"2"_s}, {}, service);
    QVERIFY2(r.code != 0 && r.err.contains(u"gpu_count must be 1"_s), r.describe());
    QCOMPARE(ctl({u"rm"_s, u"m1"_s, u"--yes"_s}, {}, service).code, 0);
}

QTEST_GUILESS_MAIN(TestCardhourctl)
#include "tst_cardhourctl.moc"
