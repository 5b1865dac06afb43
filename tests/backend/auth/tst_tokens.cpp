#include "auth/Tokens.h"

#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TstTokens : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void generateLengthAndAlphabet()
    {
        for (int i = 0; i < 100; ++i) {
            const QByteArray t = tokens::generate();
            QCOMPARE(t.size(), 43);
            for (const char c : t) {
                const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9') || c == '-' || c == '_';
                QVERIFY2(ok, t.constData());
            }
            const auto decoded = QByteArray::fromBase64Encoding(
                t, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
            QVERIFY(decoded);
            QCOMPARE(decoded.decoded.size(), 32);
        }
    }

    void generateUnique()
    {
        QSet<QByteArray> seen;
        for (int i = 0; i < 1000; ++i)
            seen.insert(tokens::generate());
        QCOMPARE(seen.size(), 1000);
    }

    void hashForStorage()
    {
        const QByteArray h = tokens::hashForStorage("abc");
        QCOMPARE(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"_ba);
        QCOMPARE(tokens::hashForStorage(""),
                 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"_ba);
        const QByteArray t = tokens::generate();
        const QByteArray ht = tokens::hashForStorage(t);
        QCOMPARE(ht.size(), 64);
        for (const char c : ht)
            QVERIFY((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
        QCOMPARE(tokens::hashForStorage(t), ht);
        QVERIFY(tokens::hashForStorage(tokens::generate()) != ht);
    }

    void constantTimeEquals()
    {
        QVERIFY(tokens::constantTimeEquals("abc", "abc"));
        QVERIFY(tokens::constantTimeEquals("", ""));
        QVERIFY(!tokens::constantTimeEquals("abc", "abd"));
        QVERIFY(!tokens::constantTimeEquals("abc", "abcd"));
        QVERIFY(!tokens::constantTimeEquals("abcd", "abc"));
        QVERIFY(!tokens::constantTimeEquals("", "a"));
        const QByteArray a = tokens::generate();
        QByteArray b = a;
        QVERIFY(tokens::constantTimeEquals(a, b));
        b[0] = b[0] == 'A' ? 'B' : 'A';
        QVERIFY(!tokens::constantTimeEquals(a, b));
    }

    void randomBytes()
    {
        QVERIFY(tokens::randomBytes(0).isEmpty());
        QVERIFY(tokens::randomBytes(-3).isEmpty());
        QCOMPARE(tokens::randomBytes(1).size(), 1);
        const QByteArray a = tokens::randomBytes(64);
        QCOMPARE(a.size(), 64);
        QVERIFY(a != tokens::randomBytes(64));
    }
};

QTEST_GUILESS_MAIN(TstTokens)
#include "tst_tokens.moc"
