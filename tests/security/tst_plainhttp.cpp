// The attack of issue 13 item 11, client side: a provider address http://<another machine>
// would carry the password and the token in clear. The client refuses it, says why, and sends
// nothing: a listener on a non-loopback address of this machine (what an eavesdropper on the
// path would see) gets no connection at all.
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"

#include <QNetworkInterface>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

class TestPlainHttp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void check_data();
    void check();
    void remotePlainHttpSendsNothing();
};

void TestPlainHttp::check_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("sandbox") << u"http://127.0.0.1:8787"_s << true;
    QTest::newRow("loopback range") << u"http://127.3.2.1:8787"_s << true;
    QTest::newRow("localhost") << u"http://localhost:8787"_s << true;
    QTest::newRow("IPv6 loopback") << u"http://[::1]:8787"_s << true;
    QTest::newRow("https remote") << u"https://gpu.example.com"_s << true;
    QTest::newRow("http remote name") << u"http://gpu.example.com"_s << false;
    QTest::newRow("http LAN") << u"http://192.168.1.20:8787"_s << false;
    QTest::newRow("http upper case") << u"HTTP://10.0.0.1"_s << false;
    QTest::newRow("localhost look-alike") << u"http://localhost.evil.example"_s << false;
    QTest::newRow("other scheme") << u"ftp://127.0.0.1"_s << false;
}

void TestPlainHttp::check()
{
    QFETCH(QString, url);
    QFETCH(bool, allowed);
    QCOMPARE(ProviderClient::insecureUrlProblem(QUrl(url)).isEmpty(), allowed);
}

void TestPlainHttp::remotePlainHttpSendsNothing()
{
    QHostAddress remote;
    for (const QHostAddress &a : QNetworkInterface::allAddresses()) {
        if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback()) {
            remote = a;
            break;
        }
    }
    if (remote.isNull())
        QSKIP("this machine has no non-loopback IPv4 address to listen on");
    QTcpServer listener;
    QVERIFY(listener.listen(remote, 0));
    int connections = 0;
    connect(&listener, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket *s = listener.nextPendingConnection()) {
            ++connections;
            s->deleteLater();
        }
    });
    const QUrl url(u"http://%1:%2"_s.arg(remote.toString()).arg(listener.serverPort()));

    ProviderClient client;
    client.setBaseUrl(url);
    client.setToken(u"the-token"_s);
    auto *login = client.logIn(u"victim@example.com"_s, u"the password"_s);
    auto *me = client.me();
    QSignalSpy loginDone(login, &ApiReply::finished);
    QSignalSpy meDone(me, &ApiReply::finished);
    QTRY_COMPARE(loginDone.count(), 1);
    QTRY_COMPARE(meDone.count(), 1);
    QVERIFY(login->error().userMessage().contains(u"http://"_s));
    QCOMPARE(login->error().kind, ApiError::Kind::Network);

    EventStream stream;
    stream.setBaseUrl(url);
    stream.setToken(u"the-token"_s);
    QSignalSpy down(&stream, &EventStream::disconnected);
    stream.start();
    QTRY_COMPARE(down.count(), 1);
    QVERIFY(down.first().first().toString().contains(u"http://"_s));

    ClientSession::Options options;
    options.keychainService = u"CardHour-plainhttp-test"_s;
    ClientSession session(options);
    QSignalSpy failed(&session, &ClientSession::connectFailed);
    QSignalSpy ready(&session, &ClientSession::providerReady);
    session.connectToUrl(url);
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains(remote.toString()),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(ready.count(), 0);

    QTest::qWait(200); // a connection would have been accepted by now
    QCOMPARE(connections, 0);
}

QTEST_GUILESS_MAIN(TestPlainHttp)
#include "tst_plainhttp.moc"
