#include "auth/PasswordHasher.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {
PasswordHasher::Params smallParams()
{
    PasswordHasher::Params p;
    p.n = 1u << 10;
    p.r = 8;
    p.p = 1;
    return p;
}
} // namespace

class TstPasswordHasher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        const PasswordHasher hasher(smallParams());
        const QString password = u"correct horse battery staple"_s;
        const QByteArray encoded = hasher.hash(password);
        QVERIFY(encoded.startsWith("scrypt$1024$8$1$"_ba));
        const QList<QByteArray> parts = encoded.split('$');
        QCOMPARE(parts.size(), 6);
        QCOMPARE(QByteArray::fromBase64(parts.at(4)).size(), 16);
        QCOMPARE(QByteArray::fromBase64(parts.at(5)).size(), 32);
        QVERIFY(hasher.verify(password, encoded));
    }

    void unicodeAndEmpty()
    {
        const PasswordHasher hasher(smallParams());
        const QString password = u"pässwörd \u00e9\u4e2d\U0001F600"_s;
        const QByteArray encoded = hasher.hash(password);
        QVERIFY(hasher.verify(password, encoded));
        QVERIFY(!hasher.verify(u"passwörd"_s, encoded));
        const QByteArray empty = hasher.hash(QString());
        QVERIFY(!empty.isEmpty());
        QVERIFY(hasher.verify(QString(), empty));
        QVERIFY(!hasher.verify(u" "_s, empty));
    }

    void wrongPasswordFails()
    {
        const PasswordHasher hasher(smallParams());
        const QByteArray encoded = hasher.hash(u"secret-1"_s);
        QVERIFY(!hasher.verify(u"secret-2"_s, encoded));
        QVERIFY(!hasher.verify(u"Secret-1"_s, encoded));
        QVERIFY(!hasher.verify(u"secret-1 "_s, encoded));
        QVERIFY(!hasher.verify(QString(), encoded));
    }

    void saltMakesHashesDiffer()
    {
        const PasswordHasher hasher(smallParams());
        const QByteArray a = hasher.hash(u"same"_s);
        const QByteArray b = hasher.hash(u"same"_s);
        QVERIFY(a != b);
        QVERIFY(a.split('$').at(4) != b.split('$').at(4));
        QVERIFY(hasher.verify(u"same"_s, a));
        QVERIFY(hasher.verify(u"same"_s, b));
    }

    void encodedParamsRespected()
    {
        PasswordHasher::Params tiny;
        tiny.n = 1u << 8;
        tiny.r = 4;
        tiny.p = 2;
        const QByteArray encoded = PasswordHasher(tiny).hash(u"pw"_s);
        QVERIFY(encoded.startsWith("scrypt$256$4$2$"_ba));
        // A hasher configured differently verifies with the parameters stored in the hash.
        QVERIFY(PasswordHasher(smallParams()).verify(u"pw"_s, encoded));
        QVERIFY(!PasswordHasher(smallParams()).verify(u"px"_s, encoded));

        // Tampering with the stored parameters changes the result.
        QByteArray tampered = encoded;
        tampered.replace("scrypt$256$4$2$"_ba, "scrypt$512$4$2$"_ba);
        QVERIFY(!PasswordHasher(tiny).verify(u"pw"_s, tampered));
    }

    void knownVector()
    {
        // RFC 7914 test vector 3 (P="pleaseletmein", S="SodiumChloride", N=16384, r=8, p=1);
        // the encoded form keeps 32 bytes, the first half of the vector's 64-byte output.
        const QByteArray dk3 =
            QByteArray::fromHex("7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2");
        const QByteArray encoded3 =
            "scrypt$16384$8$1$"_ba + "SodiumChloride"_ba.toBase64() + "$"_ba + dk3.toBase64();
        QVERIFY(PasswordHasher().verify(u"pleaseletmein"_s, encoded3));
        QVERIFY(!PasswordHasher().verify(u"pleaseletmeIn"_s, encoded3));
    }

    void defaultParams()
    {
        const PasswordHasher hasher;
        // What a stolen database costs per guess: never below N = 2^17 (128 MiB with r = 8).
        QVERIFY(hasher.params().n >= quint64(1) << 17);
        QCOMPARE(hasher.params().n, quint64(1) << 17);
        QCOMPARE(hasher.params().r, 8u);
        QCOMPARE(hasher.params().p, 1u);
        QElapsedTimer timer;
        timer.start();
        const QByteArray encoded = hasher.hash(u"default params"_s);
        const qint64 hashMs = timer.elapsed();
        QVERIFY2(!encoded.isEmpty(), "OpenSSL refused the default parameters (maxmem?)");
        QVERIFY(encoded.startsWith("scrypt$131072$8$1$"_ba));
        timer.restart();
        QVERIFY(hasher.verify(u"default params"_s, encoded));
        const qint64 verifyMs = timer.elapsed();
        QVERIFY(!hasher.verify(u"default paramz"_s, encoded));
        qInfo("default-params scrypt: hash %lld ms, verify %lld ms", hashMs, verifyMs);
    }

    void needsRehash()
    {
        // Hashes at a lower cost are made again at the next log-in; never downwards.
        const QByteArray weak = PasswordHasher(smallParams()).hash(u"pw"_s);
        const PasswordHasher strong;
        QVERIFY(strong.needsRehash(weak));
        QVERIFY(strong.verify(u"pw"_s, weak)
                == PasswordHasher(smallParams()).verify(u"pw"_s, weak));
        QVERIFY(!PasswordHasher(smallParams()).needsRehash(weak));
        const QByteArray current = "scrypt$131072$8$1$"_ba + QByteArray(16, 's').toBase64() + "$"_ba
            + QByteArray(32, 'h').toBase64();
        QVERIFY(!strong.needsRehash(current));
        QVERIFY(!PasswordHasher(smallParams()).needsRehash(current));
        QVERIFY(strong.needsRehash("not a hash"_ba));
    }

    void invalidHasherParams()
    {
        PasswordHasher::Params bad;
        bad.n = 1000; // not a power of two
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"refusing scrypt parameters"_s));
        QVERIFY(PasswordHasher(bad).hash(u"x"_s).isEmpty());
    }

    void malformedRejected_data()
    {
        QTest::addColumn<QByteArray>("encoded");
        const QByteArray salt = QByteArray(16, 'S').toBase64();
        const QByteArray hash = QByteArray(32, 'H').toBase64();
        const QByteArray tail = "$"_ba + salt + "$"_ba + hash;
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << "not a hash"_ba;
        QTest::newRow("bcrypt")
            << "$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234"_ba;
        QTest::newRow("other-kdf") << ("pbkdf2$1024$8$1"_ba + tail);
        QTest::newRow("uppercase-name") << ("SCRYPT$1024$8$1"_ba + tail);
        QTest::newRow("too-few-fields") << ("scrypt$1024$8"_ba + tail);
        QTest::newRow("too-many-fields") << ("scrypt$1024$8$1"_ba + tail + "$"_ba);
        QTest::newRow("n-not-power-of-two") << ("scrypt$1000$8$1"_ba + tail);
        QTest::newRow("n-one") << ("scrypt$1$8$1"_ba + tail);
        QTest::newRow("n-zero") << ("scrypt$0$8$1"_ba + tail);
        QTest::newRow("n-2^21") << ("scrypt$2097152$8$1"_ba + tail);
        QTest::newRow("n-2^30") << ("scrypt$1073741824$8$1"_ba + tail);
        QTest::newRow("n-2^62") << ("scrypt$4611686018427387904$8$1"_ba + tail);
        QTest::newRow("n-overflow") << ("scrypt$99999999999999999999999$8$1"_ba + tail);
        QTest::newRow("n-negative") << ("scrypt$-1024$8$1"_ba + tail);
        QTest::newRow("n-plus") << ("scrypt$+1024$8$1"_ba + tail);
        QTest::newRow("n-leading-zero") << ("scrypt$01024$8$1"_ba + tail);
        QTest::newRow("n-hex") << ("scrypt$0x400$8$1"_ba + tail);
        QTest::newRow("n-space") << ("scrypt$ 1024$8$1"_ba + tail);
        QTest::newRow("n-empty") << ("scrypt$$8$1"_ba + tail);
        QTest::newRow("r-zero") << ("scrypt$1024$0$1"_ba + tail);
        QTest::newRow("p-zero") << ("scrypt$1024$8$0"_ba + tail);
        QTest::newRow("r-huge") << ("scrypt$1024$4294967295$1"_ba + tail);
        QTest::newRow("r-overflow") << ("scrypt$1024$4294967296$1"_ba + tail);
        QTest::newRow("p-huge") << ("scrypt$1024$8$1000000"_ba + tail);
        QTest::newRow("rp-too-large") << ("scrypt$1024$64$64"_ba + tail);
        QTest::newRow("memory-too-large") << ("scrypt$1048576$64$1"_ba + tail);
        QTest::newRow("salt-bad-base64") << ("scrypt$1024$8$1$!!!!$"_ba + hash);
        QTest::newRow("salt-empty") << ("scrypt$1024$8$1$$"_ba + hash);
        QTest::newRow("salt-too-short")
            << ("scrypt$1024$8$1$"_ba + "abc"_ba.toBase64() + "$"_ba + hash);
        QTest::newRow("hash-bad-base64") << ("scrypt$1024$8$1$"_ba + salt + "$****"_ba);
        QTest::newRow("hash-short")
            << ("scrypt$1024$8$1$"_ba + salt + "$"_ba + QByteArray(31, 'H').toBase64());
        QTest::newRow("hash-long")
            << ("scrypt$1024$8$1$"_ba + salt + "$"_ba + QByteArray(33, 'H').toBase64());
        QTest::newRow("hash-empty") << ("scrypt$1024$8$1$"_ba + salt + "$"_ba);
        QTest::newRow("very-long")
            << ("scrypt$1024$8$1$"_ba + QByteArray(100000, 'A') + "$"_ba + hash);
        QTest::newRow("nul-byte") << ("scrypt$1024\0$8$1"_ba + tail);
    }

    void malformedRejected()
    {
        QFETCH(QByteArray, encoded);
        const PasswordHasher hasher(smallParams());
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!hasher.verify(u"password"_s, encoded));
        // Refused by parsing, not after running an expensive (or absurd) derivation.
        QVERIFY2(timer.elapsed() < 250, QByteArray::number(timer.elapsed()).constData());
    }

    void validEncodingWithWrongHashIsFalse()
    {
        const QByteArray salt = QByteArray(16, 'S').toBase64();
        const QByteArray hash = QByteArray(32, 'H').toBase64();
        const QByteArray encoded = "scrypt$1024$8$1$"_ba + salt + "$"_ba + hash;
        QVERIFY(!PasswordHasher(smallParams()).verify(u"password"_s, encoded));
    }
};

QTEST_GUILESS_MAIN(TstPasswordHasher)
#include "tst_passwordhasher.moc"
