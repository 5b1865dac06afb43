// core::ProviderUrl: a provider's address as typed, strictly (QUrl::fromUserInput made
// "http://x:99999" a host named "http" and "::::" a file): good ones come back normalised,
// bad ones are refused naming what is wrong and showing good examples.
#include "api/ProviderUrl.h"

#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::core::ProviderUrl;

class TestProviderUrl : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void good_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("url");
        QTest::newRow("host:port") << u"127.0.0.1:8787"_s << u"http://127.0.0.1:8787"_s;
        QTest::newRow("name:port") << u"localhost:8787"_s << u"http://localhost:8787"_s;
        QTest::newRow("https") << u"https://gpu.example.com"_s << u"https://gpu.example.com"_s;
        QTest::newRow("path") << u"https://gpu.example.com/api"_s
                              << u"https://gpu.example.com/api"_s;
        QTest::newRow("upper case") << u"  HTTP://Host:80/ "_s << u"http://host:80/"_s;
        QTest::newRow("IPv6") << u"[::1]:8787"_s << u"http://[::1]:8787"_s;
    }
    void good()
    {
        QFETCH(QString, text);
        QFETCH(QString, url);
        QString problem = u"left over"_s;
        QCOMPARE(ProviderUrl::parse(text, &problem).toString(), url);
        QVERIFY(problem.isEmpty());
    }

    void bad_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("named"); // what the sentence must point at
        QTest::newRow("empty") << QString() << u"address"_s;
        QTest::newRow("scheme") << u"htp:/x"_s << u"“htp:”"_s;
        QTest::newRow("ftp") << u"ftp://x"_s << u"“ftp:”"_s;
        QTest::newRow("one slash") << u"http:/x"_s << u"two slashes"_s;
        QTest::newRow("no colon") << u"http//x"_s << u"http://"_s;
        QTest::newRow("port word") << u"localhost:abc"_s << u"“abc”"_s;
        QTest::newRow("port too big") << u"http://x:99999"_s << u"“99999”"_s;
        QTest::newRow("port zero") << u"x:0"_s << u"“0”"_s;
        QTest::newRow("colons") << u"::::"_s << u"host name"_s;
        QTest::newRow("no host") << u"http://"_s << u"host name"_s;
        QTest::newRow("space") << u"http://a b"_s << u"space"_s;
        QTest::newRow("user") << u"http://u:p@host"_s << u"user name"_s;
        QTest::newRow("query") << u"http://h?x=1"_s << u"query"_s;
    }
    void bad()
    {
        QFETCH(QString, text);
        QFETCH(QString, named);
        QString problem;
        QVERIFY(ProviderUrl::parse(text, &problem).isEmpty());
        QVERIFY2(problem.contains(named), qPrintable(problem));
        QVERIFY2(problem.contains(u"http://127.0.0.1:8787"_s), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(TestProviderUrl)
#include "tst_providerurl.moc"
