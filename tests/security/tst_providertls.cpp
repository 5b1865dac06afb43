// The attack of issue 13 item 11, with TLS: a provider beyond loopback serves HTTPS with its
// operator's certificate (cardhour-sim --tls-cert --tls-key), and the client talks to it only
// when the certificate verifies, against the system's authorities or a CA file the user gives.
// Someone who answers with a certificate the client cannot verify (a self-signed impostor, a
// certificate for another name) gets neither the password nor the token: the handshake ends
// before any request is sent, and the client says why. A provider asked to listen beyond
// loopback without TLS refuses to start.
//
// The certificates are made here with `openssl`: a CA, a server certificate it signs for
// 127.0.0.1 and localhost, one it signs for another name, and an unrelated key.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "api/TlsTrust.h"
#include "session/ClientSession.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>
#include <utility>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::SimProcess;

namespace {

constexpr auto kPassword = "correct horse battery"_L1;

struct Finished
{
    bool finished = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs cardhour-sim to its end (for the options it must refuse).
Finished runSim(const QStringList &args)
{
    QProcess process;
    process.start(SimProcess::binaryPath(), args);
    Finished result;
    if (!process.waitForStarted(30000))
        return result;
    result.finished = process.waitForFinished(30000);
    if (!result.finished) {
        process.kill();
        process.waitForFinished();
    }
    result.exitCode = process.exitCode();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestProviderTls : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void servesHttpsToAClientWithTheCa();
    void refusedWithoutTheCa();
    void refusedForAnotherName();
    void startRefusals_data();
    void startRefusals();
    void remoteListeningWithTls();
    void commandLineClientCaOption();

private:
    bool openssl(const QStringList &args);
    QString file(const QString &name) const { return m_dir.filePath(name); }
    QStringList tlsArgs(const QString &cert = u"server.pem"_s,
                        const QString &key = u"server.key"_s) const
    {
        return {u"--tls-cert"_s, file(cert), u"--tls-key"_s, file(key)};
    }
    QUrl httpsUrl(const SimProcess &sim, const QString &host = u"127.0.0.1"_s) const
    {
        return QUrl(u"https://%1:%2"_s.arg(host).arg(sim.port()));
    }

    QTemporaryDir m_dir;
    QString m_openssl;
    QList<QSslCertificate> m_ca;
};

bool TestProviderTls::openssl(const QStringList &args)
{
    QProcess process;
    process.setWorkingDirectory(m_dir.path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(m_openssl, args);
    if (!process.waitForFinished(60000) || process.exitCode() != 0) {
        qWarning().noquote() << "openssl" << args.join(u' ')
                             << "failed:" << QString::fromLocal8Bit(process.readAll());
        return false;
    }
    return true;
}

void TestProviderTls::initTestCase()
{
    QVERIFY2(!SimProcess::binaryPath().isEmpty(), "CARDHOUR_SIM_BIN is not set");
    if (!QSslSocket::supportsSsl())
        QSKIP("this Qt has no TLS backend");
    m_openssl = QStandardPaths::findExecutable(u"openssl"_s);
    if (m_openssl.isEmpty())
        QSKIP("openssl is not installed: it makes this test's certificates");
    QVERIFY(m_dir.isValid());
    const QStringList ecKey{u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:prime256v1"_s,
                            u"-nodes"_s};
    QVERIFY(openssl(QStringList{u"req"_s, u"-x509"_s} + ecKey
                    + QStringList{u"-keyout"_s, u"ca.key"_s, u"-out"_s, u"ca.pem"_s, u"-days"_s,
                                  u"2"_s, u"-subj"_s, u"/CN=CardHour Test CA"_s, u"-addext"_s,
                                  u"basicConstraints=critical,CA:TRUE"_s, u"-addext"_s,
                                  u"keyUsage=critical,keyCertSign,cRLSign"_s}));
    const auto serverCert = [&](const QString &name, const QString &altNames) {
        QFile ext(file(name + u".ext"_s));
        if (!ext.open(QIODevice::WriteOnly))
            return false;
        ext.write("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
                  "extendedKeyUsage=serverAuth\nsubjectAltName="
                  + altNames.toLatin1() + '\n');
        ext.close();
        return openssl(QStringList{u"req"_s} + ecKey
                       + QStringList{u"-keyout"_s, name + u".key"_s, u"-out"_s, name + u".csr"_s,
                                     u"-subj"_s, u"/CN=cardhour-sim"_s})
            && openssl({u"x509"_s, u"-req"_s, u"-in"_s, name + u".csr"_s, u"-CA"_s, u"ca.pem"_s,
                        u"-CAkey"_s, u"ca.key"_s, u"-CAcreateserial"_s, u"-out"_s, name + u".pem"_s,
                        u"-days"_s, u"2"_s, u"-extfile"_s, name + u".ext"_s});
    };
    QVERIFY(serverCert(u"server"_s, u"IP:127.0.0.1,DNS:localhost"_s));
    QVERIFY(serverCert(u"elsewhere"_s, u"DNS:gpu.example.com"_s));
    QVERIFY(openssl(QStringList{u"req"_s, u"-x509"_s} + ecKey
                    + QStringList{u"-keyout"_s, u"unrelated.key"_s, u"-out"_s, u"unrelated.pem"_s,
                                  u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=unrelated"_s}));
    QFile garbage(file(u"garbage.pem"_s));
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write("not a certificate\n");
    garbage.close();
    // Keys are private files; a copy of the server's key that every user may read is refused.
    constexpr QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner;
    for (const QString &name :
         {u"ca.key"_s, u"server.key"_s, u"elsewhere.key"_s, u"unrelated.key"_s, u"garbage.pem"_s})
        QVERIFY(QFile::setPermissions(file(name), kPrivate));
    QVERIFY(QFile::copy(file(u"server.key"_s), file(u"readable.key"_s)));
    QVERIFY(QFile::setPermissions(file(u"readable.key"_s),
                                  kPrivate | QFile::ReadGroup | QFile::ReadOther));

    QString error;
    const auto ca = TlsTrust::loadCaFile(file(u"ca.pem"_s), &error);
    QVERIFY2(ca, qPrintable(error));
    m_ca = *ca;
    QVERIFY(!TlsTrust::loadCaFile(file(u"garbage.pem"_s), &error));
    QVERIFY2(error.contains(u"garbage.pem"_s), qPrintable(error));
}

void TestProviderTls::servesHttpsToAClientWithTheCa()
{
    SimProcess sim;
    QVERIFY2(sim.start(tlsArgs()), qPrintable(sim.lastError()));
    QCOMPARE(sim.firstLine(), u"listening https://127.0.0.1:%1"_s.arg(sim.port()));

    ProviderClient client;
    client.setCaCertificates(m_ca);
    client.setBaseUrl(httpsUrl(sim));
    const auto session = await(client.signUp(u"tls@example.com"_s, kPassword));
    QVERIFY2(session.ok, session.why());
    client.setToken(session.value->token);
    const auto me = await(client.me());
    QVERIFY2(me.ok, me.why());
    QCOMPARE(me.value->email, u"tls@example.com"_s);

    // The same name through localhost (the certificate names both).
    ProviderClient byName;
    byName.setCaCertificates(m_ca);
    byName.setBaseUrl(httpsUrl(sim, u"localhost"_s));
    byName.setToken(session.value->token);
    const auto again = await(byName.me());
    QVERIFY2(again.ok, again.why());

    EventStream stream;
    stream.setCaCertificates(m_ca);
    stream.setBaseUrl(httpsUrl(sim));
    stream.setToken(session.value->token);
    QSignalSpy hello(&stream, &EventStream::hello);
    stream.start();
    QTRY_COMPARE_WITH_TIMEOUT(hello.count(), 1, 15000);
    QCOMPARE(hello.first().first().toString(), me.value->id);
    QVERIFY(stream.isConnected());
    stream.stop();

    // The option the desktop and command-line clients set (--ca FILE) reaches the probe.
    ClientSession::Options options;
    options.keychainService = u"CardHour-providertls-test"_s;
    options.keychainTimeoutMs = 2000;
    options.caCertificates = m_ca;
    ClientSession clientSession(options);
    QSignalSpy ready(&clientSession, &ClientSession::providerReady);
    QSignalSpy failed(&clientSession, &ClientSession::connectFailed);
    clientSession.connectToUrl(httpsUrl(sim));
    QTRY_COMPARE_WITH_TIMEOUT(ready.count() + failed.count(), 1, 15000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
}

void TestProviderTls::refusedWithoutTheCa()
{
    SimProcess sim;
    QVERIFY2(sim.start(tlsArgs()), qPrintable(sim.lastError()));
    const QUrl url = httpsUrl(sim);
    ProviderClient trusting;
    trusting.setCaCertificates(m_ca);
    trusting.setBaseUrl(url);
    const auto owner = await(trusting.signUp(u"owner@example.com"_s, kPassword));
    QVERIFY2(owner.ok, owner.why());
    const QString token = owner.value->token;

    // A client that does not know the CA: the provider looks like any impostor to it.
    ProviderClient stranger;
    stranger.setBaseUrl(url);
    const auto signUp = await(stranger.signUp(u"victim@example.com"_s, kPassword));
    QVERIFY(!signUp.ok);
    QVERIFY2(signUp.error.isCertificateRefused(), signUp.why());
    const QString message = signUp.error.userMessage();
    QVERIFY2(message.contains(u"127.0.0.1"_s), qPrintable(message));
    QVERIFY2(message.contains(u"--ca"_s), qPrintable(message));
    // Why: the issuer is unknown (Qt's wording of the OpenSSL error).
    QVERIFY2(message.contains(u"issuer"_s, Qt::CaseInsensitive)
                 || message.contains(u"self signed"_s, Qt::CaseInsensitive)
                 || message.contains(u"self-signed"_s, Qt::CaseInsensitive),
             qPrintable(message));
    // The password never arrived: there is no such account.
    const auto login = await(trusting.logIn(u"victim@example.com"_s, kPassword));
    QVERIFY(!login.ok);
    QCOMPARE(login.error.code, u"invalid_credentials"_s);

    // The token never arrived either: a log-out sent with it did not revoke it.
    stranger.setToken(token);
    QSignalSpy expired(&stranger, &ProviderClient::sessionExpired);
    const auto logOut = await(stranger.logOut());
    QVERIFY2(logOut.error.isCertificateRefused(), logOut.why());
    QCOMPARE(expired.count(), 0);
    trusting.setToken(token);
    const auto stillIn = await(trusting.me());
    QVERIFY2(stillIn.ok, stillIn.why());

    // Nor through the event stream: refused, with the same reason, and never connected.
    EventStream stream;
    stream.setBaseUrl(url);
    stream.setToken(token);
    QSignalSpy down(&stream, &EventStream::disconnected);
    QSignalSpy connected(&stream, &EventStream::connected);
    stream.start();
    QTRY_VERIFY_WITH_TIMEOUT(!down.isEmpty(), 15000);
    QVERIFY2(down.first().first().toString().contains(u"certificate"_s),
             qPrintable(down.first().first().toString()));
    QCOMPARE(connected.count(), 0);
    stream.stop();

    // The client session's probe says the same before using the provider.
    ClientSession::Options options;
    options.keychainService = u"CardHour-providertls-test"_s;
    options.keychainTimeoutMs = 2000;
    ClientSession session(options);
    QSignalSpy failed(&session, &ClientSession::connectFailed);
    QSignalSpy ready(&session, &ClientSession::providerReady);
    session.connectToUrl(url);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 15000);
    QVERIFY2(failed.first().first().toString().contains(u"certificate"_s),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(ready.count(), 0);
}

void TestProviderTls::refusedForAnotherName()
{
    // A certificate from the trusted CA, but for another host: still refused, and said so.
    SimProcess sim;
    QVERIFY2(sim.start(tlsArgs(u"elsewhere.pem"_s, u"elsewhere.key"_s)),
             qPrintable(sim.lastError()));
    ProviderClient client;
    client.setCaCertificates(m_ca);
    client.setBaseUrl(httpsUrl(sim));
    const auto signUp = await(client.signUp(u"victim@example.com"_s, kPassword));
    QVERIFY(!signUp.ok);
    QVERIFY2(signUp.error.isCertificateRefused(), signUp.why());
    const QString message = signUp.error.userMessage();
    QVERIFY2(message.contains(u"host name"_s, Qt::CaseInsensitive), qPrintable(message));
    QVERIFY2(!message.contains(u"--ca"_s), qPrintable(message)); // a CA was given: not the fix
}

void TestProviderTls::startRefusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("remote without TLS")
        << QStringList{u"--listen"_s, u"0.0.0.0:0"_s, u"--allow-remote"_s} << u"without TLS"_s;
    QTest::newRow("certificate without key")
        << QStringList{u"--tls-cert"_s, file(u"server.pem"_s)} << u"both --tls-cert"_s;
    QTest::newRow("key without certificate")
        << QStringList{u"--tls-key"_s, file(u"server.key"_s)} << u"both --tls-cert"_s;
    QTest::newRow("missing certificate")
        << tlsArgs(u"missing.pem"_s, u"server.key"_s) << u"cannot read the TLS certificate"_s;
    QTest::newRow("not a certificate")
        << tlsArgs(u"garbage.pem"_s, u"server.key"_s) << u"holds no PEM certificate"_s;
    QTest::newRow("not a key") << tlsArgs(u"server.pem"_s, u"garbage.pem"_s)
                               << u"holds no usable private key"_s;
    QTest::newRow("another certificate's key")
        << tlsArgs(u"server.pem"_s, u"unrelated.key"_s) << u"does not belong to"_s;
    QTest::newRow("key every user can read")
        << tlsArgs(u"server.pem"_s, u"readable.key"_s) << u"can be read or written by every user"_s;
}

void TestProviderTls::startRefusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir data;
    QVERIFY(data.isValid());
    if (!args.contains(u"--listen"_s))
        args << u"--listen"_s << u"127.0.0.1:0"_s;
    const Finished run = runSim(args
                                + QStringList{u"--data"_s, data.path(), u"--runtime"_s,
                                              u"inprocess"_s, u"--gpus"_s, u"simulated"_s});
    QVERIFY2(run.finished, "the provider kept running instead of refusing");
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY2(!run.out.contains("listening"), run.out.constData());
}

void TestProviderTls::remoteListeningWithTls()
{
    // With a certificate, --allow-remote may listen on every address: HTTPS only.
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QProcess process;
    process.start(SimProcess::binaryPath(),
                  QStringList{u"--listen"_s, u"0.0.0.0:0"_s, u"--allow-remote"_s, u"--data"_s,
                              data.path(), u"--runtime"_s, u"inprocess"_s, u"--gpus"_s,
                              u"simulated"_s}
                      + tlsArgs());
    QVERIFY(process.waitForStarted(30000));
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine() || process.state() != QProcess::Running, 30000);
    const QString line = QString::fromUtf8(process.readLine()).trimmed();
    static const QRegularExpression listening(u"^listening https://0\\.0\\.0\\.0:(\\d+)$"_s);
    const QRegularExpressionMatch match = listening.match(line);
    QVERIFY2(match.hasMatch(),
             qPrintable(line + QString::fromUtf8(process.readAllStandardError())));
    ProviderClient client;
    client.setCaCertificates(m_ca);
    client.setBaseUrl(QUrl(u"https://127.0.0.1:%1"_s.arg(match.captured(1))));
    const auto health = await(client.health());
    QVERIFY2(health.ok, health.why());
    process.terminate();
    QVERIFY(process.waitForFinished(15000));
}

void TestProviderTls::commandLineClientCaOption()
{
    SimProcess sim;
    QVERIFY2(sim.start(tlsArgs()), qPrintable(sim.lastError()));
    const auto ctl = [&](const QStringList &args) {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"CARDHOUR_KEYCHAIN_SERVICE"_s, u"CardHour-providertls-test"_s);
        env.remove(u"CARDHOUR_PROVIDER_URL"_s);
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(CARDHOURCTL_PATH),
                      QStringList{u"--provider"_s, httpsUrl(sim).toString()} + args);
        process.waitForFinished(60000);
        return std::pair{process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
    };
    // Without the CA: refused, saying why, before any log-in.
    auto [code, err] = ctl({u"gpus"_s});
    QCOMPARE(code, 1);
    QVERIFY2(err.contains(u"refused the certificate"_s), qPrintable(err));
    // With it (before or after the command): the provider is reached; only a log-in is missing.
    for (const QStringList &args : {QStringList{u"--ca"_s, file(u"ca.pem"_s), u"gpus"_s},
                                    QStringList{u"gpus"_s, u"--ca"_s, file(u"ca.pem"_s)}}) {
        std::tie(code, err) = ctl(args);
        QVERIFY2(code == 3, qPrintable(u"exit %1: %2"_s.arg(code).arg(err)));
        QVERIFY2(!err.contains(u"certificate"_s), qPrintable(err));
    }
    // A CA file that is not one: a usage error naming the file.
    std::tie(code, err) = ctl({u"--ca"_s, file(u"garbage.pem"_s), u"gpus"_s});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(u"garbage.pem"_s), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestProviderTls)
#include "tst_providertls.moc"
