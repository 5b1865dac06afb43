// SecretStore against the real Secret Service: ctest runs this through run-with-keyring,
// which starts a private D-Bus session with an unlocked gnome-keyring. Without one the
// keychain tests skip with the reason; they never pass without a keychain.
//
// The "no keychain" case runs this same program again as a child with `--probe`, pointed at a
// D-Bus address where nothing listens, and reads what SecretStore reported.
#include "session/SecretStore.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QTextStream>

#include <cstring>

using namespace Qt::StringLiterals;
using cardhour::core::SecretReply;
using cardhour::core::SecretStore;

namespace {

struct Result
{
    SecretReply::Status status = SecretReply::Status::Pending;
    QString secret;
    QString reason;
};

Result run(SecretReply *reply)
{
    auto result = std::make_shared<Result>();
    QObject::connect(reply, &SecretReply::finished, reply, [reply, result] {
        *result = {reply->status(), reply->secret(), reply->reason()};
    });
    (void)QTest::qWaitFor([&result] { return result->status != SecretReply::Status::Pending; },
                          60000);
    return *result;
}

QString statusName(SecretReply::Status status)
{
    return QString::fromLatin1(QMetaEnum::fromType<SecretReply::Status>().valueToKey(int(status)));
}

// The child's whole job: one read against whatever keychain its environment offers.
int probe()
{
    SecretStore store(u"CardHour-test"_s);
    store.setTimeoutMs(20000);
    const Result result = run(store.readToken(u"http://127.0.0.1:1"_s));
    QTextStream(stdout) << statusName(result.status) << '\n' << result.reason << '\n';
    return 0;
}

} // namespace

class TestSecretStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void roundTrip();
    void keysAreSeparate_data();
    void keysAreSeparate();
    void deleteMissing();
    void unavailableWithoutKeychain();

private:
    SecretStore m_store{u"CardHour-test-%1"_s.arg(QCoreApplication::applicationPid())};
};

void TestSecretStore::init()
{
    if (QLatin1StringView(QTest::currentTestFunction()) == "unavailableWithoutKeychain"_L1)
        return; // needs no keychain, only the program itself
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s) {
        const QString reason = qEnvironmentVariable(
            "CARDHOUR_KEYRING_REASON", u"not run through tests/core/run-with-keyring"_s);
        QSKIP(qPrintable(u"no keychain to test against: "_s + reason));
    }
}

void TestSecretStore::roundTrip()
{
    const QString key = u"http://127.0.0.1:8787"_s;
    const Result written = run(m_store.writeToken(key, u"token-1"_s));
    QVERIFY2(written.status == SecretReply::Status::Ok,
             qPrintable(statusName(written.status) + u": "_s + written.reason));

    const Result read = run(m_store.readToken(key));
    QCOMPARE(read.status, SecretReply::Status::Ok);
    QCOMPARE(read.secret, u"token-1"_s);

    QCOMPARE(run(m_store.writeToken(key, u"token-2"_s)).status, SecretReply::Status::Ok);
    QCOMPARE(run(m_store.readToken(key)).secret, u"token-2"_s);

    QCOMPARE(run(m_store.deleteToken(key)).status, SecretReply::Status::Ok);
    const Result gone = run(m_store.readToken(key));
    QCOMPARE(gone.status, SecretReply::Status::NotFound);
    QVERIFY(gone.secret.isEmpty());
}

void TestSecretStore::keysAreSeparate_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::newRow("ports") << u"http://127.0.0.1:8787"_s << u"http://127.0.0.1:8788"_s;
    QTest::newRow("sandbox and URL") << u"cardhour-sandbox:/home/u/.local/share/CardHour/sandbox"_s
                                     << u"http://127.0.0.1:8787"_s;
    QTest::newRow("unicode") << u"https://云.example/路径"_s << u"https://云.example"_s;
}

void TestSecretStore::keysAreSeparate()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    QCOMPARE(run(m_store.writeToken(first, u"A"_s)).status, SecretReply::Status::Ok);
    QCOMPARE(run(m_store.writeToken(second, u"B"_s)).status, SecretReply::Status::Ok);
    QCOMPARE(run(m_store.readToken(first)).secret, u"A"_s);
    QCOMPARE(run(m_store.readToken(second)).secret, u"B"_s);
    QCOMPARE(run(m_store.deleteToken(first)).status, SecretReply::Status::Ok);
    QCOMPARE(run(m_store.readToken(first)).status, SecretReply::Status::NotFound);
    QCOMPARE(run(m_store.readToken(second)).secret, u"B"_s);
    QCOMPARE(run(m_store.deleteToken(second)).status, SecretReply::Status::Ok);

    // Another service name is another namespace.
    SecretStore other(m_store.service() + u"-other"_s);
    QCOMPARE(run(m_store.writeToken(first, u"mine"_s)).status, SecretReply::Status::Ok);
    QCOMPARE(run(other.readToken(first)).status, SecretReply::Status::NotFound);
    QCOMPARE(run(m_store.deleteToken(first)).status, SecretReply::Status::Ok);
}

void TestSecretStore::deleteMissing()
{
    const Result result = run(m_store.deleteToken(u"http://never-stored.example"_s));
    // Deleting what is not there is not a keychain failure.
    QVERIFY2(result.status == SecretReply::Status::Ok
                 || result.status == SecretReply::Status::NotFound,
             qPrintable(statusName(result.status) + u": "_s + result.reason));
}

void TestSecretStore::unavailableWithoutKeychain()
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // A session bus address where nothing listens, and nothing to start one with.
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path=/nonexistent/cardhour-test-bus"_s);
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {u"--probe"_s});
    QVERIFY(child.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 60000);
    QCOMPARE(child.exitCode(), 0);
    const QStringList lines = QString::fromUtf8(child.readAllStandardOutput()).split(u'\n');
    QCOMPARE(lines.value(0), u"Unavailable"_s);
    QVERIFY2(!lines.value(1).trimmed().isEmpty(), "an unavailable keychain must say why");
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "--probe") == 0)
        return probe();
    TestSecretStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secretstore.moc"
