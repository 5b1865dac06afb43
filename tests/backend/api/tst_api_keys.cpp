// HTTP integration tests of /v1/ssh-keys with keys made by ssh-keygen at test time, against
// the real cardhour-sim process.
#include "SimProcess.h"

#include <QFile>
#include <QHash>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

struct GeneratedKey
{
    QString publicLine; // the .pub file's line, without the newline
    QString fingerprint; // "SHA256:..." as ssh-keygen -l -E sha256 prints it
    int bits = 0; // as ssh-keygen -l prints it
};

QJsonObject keyBody(const QString &name, const QString &publicKey)
{
    return {{u"name"_s, name}, {u"public_key"_s, publicKey}};
}

bool containsId(const QJsonArray &array, const QString &id)
{
    for (const QJsonValue &v : array) {
        if (v.toObject().value(u"id"_s).toString() == id)
            return true;
    }
    return false;
}

} // namespace

class TestApiKeys : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void addsValidKeys_data();
    void addsValidKeys();
    void defaultName();
    void rejectsBadKeys_data();
    void rejectsBadKeys();
    void duplicateKeyIsRejected();
    void sameKeyForAnotherUser();
    void listIsInCreationOrder();
    void deleteThenNotFound();
    void keysAreIsolatedBetweenUsers();
    void instanceKeysMustBeYours();

private:
    bool generate(const QString &name, const QStringList &typeArgs);
    Reply addKey(const QString &token, const QString &name, const QString &line)
    {
        return m_sim.authedPost(token, u"/v1/ssh-keys"_s, keyBody(name, line));
    }

    SimProcess m_sim;
    QTemporaryDir m_keyDir;
    QHash<QString, GeneratedKey> m_keys;
    QString m_tokenA;
    QString m_tokenB;
    QString m_generateError;
};

bool TestApiKeys::generate(const QString &name, const QStringList &typeArgs)
{
    const QString path = m_keyDir.filePath(name);
    QProcess keygen;
    keygen.start(u"ssh-keygen"_s,
                 typeArgs
                     + QStringList{u"-N"_s, QString(), u"-q"_s, u"-C"_s,
                                   u"test-%1@cardhour"_s.arg(name), u"-f"_s, path});
    if (!keygen.waitForFinished(60000) || keygen.exitCode() != 0) {
        m_generateError = u"ssh-keygen %1 failed: %2"_s.arg(
            typeArgs.join(u' '), QString::fromLocal8Bit(keygen.readAllStandardError()));
        return false;
    }
    QFile pub(path + u".pub"_s);
    if (!pub.open(QIODevice::ReadOnly)) {
        m_generateError = u"cannot read %1.pub"_s.arg(path);
        return false;
    }
    GeneratedKey key;
    key.publicLine = QString::fromUtf8(pub.readAll()).trimmed();

    QProcess fingerprint;
    fingerprint.start(u"ssh-keygen"_s, {u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, path + u".pub"_s});
    if (!fingerprint.waitForFinished(30000) || fingerprint.exitCode() != 0) {
        m_generateError = u"ssh-keygen -l failed for %1"_s.arg(name);
        return false;
    }
    // "256 SHA256:abc... comment (ED25519)"
    const QStringList parts =
        QString::fromUtf8(fingerprint.readAllStandardOutput()).trimmed().split(u' ');
    if (parts.size() < 2 || !parts.at(1).startsWith(u"SHA256:"_s)) {
        m_generateError =
            u"unexpected ssh-keygen -l output for %1: %2"_s.arg(name, parts.join(u' '));
        return false;
    }
    key.bits = parts.at(0).toInt();
    key.fingerprint = parts.at(1);
    m_keys.insert(name, key);
    return true;
}

void TestApiKeys::initTestCase()
{
    if (QStandardPaths::findExecutable(u"ssh-keygen"_s).isEmpty())
        QSKIP("ssh-keygen (openssh-client) is not installed");
    QVERIFY(m_keyDir.isValid());
    const QList<QPair<QString, QStringList>> specs = {
        {u"ed25519"_s, {u"-t"_s, u"ed25519"_s}},
        {u"ed25519-other"_s, {u"-t"_s, u"ed25519"_s}},
        {u"ed25519-b"_s, {u"-t"_s, u"ed25519"_s}},
        {u"ecdsa256"_s, {u"-t"_s, u"ecdsa"_s, u"-b"_s, u"256"_s}},
        {u"ecdsa384"_s, {u"-t"_s, u"ecdsa"_s, u"-b"_s, u"384"_s}},
        {u"ecdsa521"_s, {u"-t"_s, u"ecdsa"_s, u"-b"_s, u"521"_s}},
        {u"rsa2048"_s, {u"-t"_s, u"rsa"_s, u"-b"_s, u"2048"_s}},
        {u"rsa3072"_s, {u"-t"_s, u"rsa"_s, u"-b"_s, u"3072"_s}},
        {u"rsa1024"_s, {u"-t"_s, u"rsa"_s, u"-b"_s, u"1024"_s}},
    };
    for (const auto &[name, args] : specs)
        QVERIFY2(generate(name, args), qPrintable(m_generateError));

    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    m_tokenA = m_sim.signUp(u"keys.a@example.com"_s);
    QVERIFY2(!m_tokenA.isEmpty(), qPrintable(m_sim.lastError()));
    m_tokenB = m_sim.signUp(u"keys.b@example.com"_s);
    QVERIFY2(!m_tokenB.isEmpty(), qPrintable(m_sim.lastError()));
}

void TestApiKeys::cleanupTestCase()
{
    if (m_sim.isRunning())
        QCOMPARE(m_sim.verifyLedger(), QString());
}

void TestApiKeys::addsValidKeys_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("bits");
    QTest::addColumn<QString>("decoration"); // how the line is pasted
    QTest::newRow("ed25519") << u"ed25519"_s << u"ssh-ed25519"_s << 256 << u"as is"_s;
    QTest::newRow("ecdsa 256") << u"ecdsa256"_s << u"ecdsa-sha2-nistp256"_s << 256 << u"as is"_s;
    QTest::newRow("ecdsa 384") << u"ecdsa384"_s << u"ecdsa-sha2-nistp384"_s << 384 << u"as is"_s;
    QTest::newRow("ecdsa 521") << u"ecdsa521"_s << u"ecdsa-sha2-nistp521"_s << 521
                               << u"trailing newline"_s;
    QTest::newRow("rsa 2048") << u"rsa2048"_s << u"ssh-rsa"_s << 2048 << u"as is"_s;
    QTest::newRow("rsa 3072") << u"rsa3072"_s << u"ssh-rsa"_s << 3072 << u"surrounding blanks"_s;
}

void TestApiKeys::addsValidKeys()
{
    QFETCH(QString, key);
    QFETCH(QString, type);
    QFETCH(int, bits);
    QFETCH(QString, decoration);
    const GeneratedKey &generated = m_keys[key];
    QString pasted = generated.publicLine;
    if (decoration == u"trailing newline"_s)
        pasted += u"\n"_s;
    else if (decoration == u"surrounding blanks"_s)
        pasted = u"  "_s + pasted + u" \r\n"_s;

    const Reply reply = addKey(m_tokenA, u"laptop "_s + key, pasted);
    QVERIFY(m_sim.advance(1)); // distinct created_at, so the list order is the creation order
    QVERIFY2(reply.status == 201, reply.describe().constData());
    const QJsonObject o = reply.object();
    const QString id = o.value(u"id"_s).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(o.value(u"name"_s).toString(), u"laptop "_s + key);
    QCOMPARE(o.value(u"type"_s).toString(), type);
    QCOMPARE(o.value(u"bits"_s).toInt(), bits);
    QCOMPARE(o.value(u"bits"_s).toInt(), generated.bits);
    QCOMPARE(o.value(u"fingerprint_sha256"_s).toString(), generated.fingerprint);
    QCOMPARE(o.value(u"public_key"_s).toString(), generated.publicLine);
    QVERIFY(isoToMs(o.value(u"created_at"_s).toString()) > 0);

    const Reply list = m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s);
    QCOMPARE(list.status, 200);
    QVERIFY(containsId(list.array(), id));
    for (const QJsonValue &v : list.array()) {
        if (v.toObject().value(u"id"_s).toString() == id)
            QCOMPARE(v.toObject(), o);
    }
}

void TestApiKeys::defaultName()
{
    const Reply reply =
        m_sim.authedPost(m_tokenB, u"/v1/ssh-keys"_s,
                         QJsonObject{{u"public_key"_s, m_keys[u"ed25519-b"_s].publicLine}});
    QVERIFY2(reply.status == 201, reply.describe().constData());
    QCOMPARE(reply.value(u"name"_s).toString(), u"key"_s);
    QCOMPARE(reply.value(u"fingerprint_sha256"_s).toString(), m_keys[u"ed25519-b"_s].fingerprint);
}

void TestApiKeys::rejectsBadKeys_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    const auto json = [](const QString &publicKey) {
        return QJsonDocument(QJsonObject{{u"name"_s, u"bad"_s}, {u"public_key"_s, publicKey}})
            .toJson(QJsonDocument::Compact);
    };
    const QString ed = m_keys[u"ed25519-other"_s].publicLine;
    const QString rsa = m_keys[u"rsa2048"_s].publicLine;
    const QString edData = ed.split(u' ').value(1);

    QTest::newRow("rsa 1024") << json(m_keys[u"rsa1024"_s].publicLine) << u"invalid_ssh_key"_s;
    QTest::newRow("garbage") << json(u"hello world"_s) << u"invalid_ssh_key"_s;
    QTest::newRow("type only") << json(u"ssh-ed25519"_s) << u"invalid_ssh_key"_s;
    QTest::newRow("two lines") << json(ed + u"\n"_s + rsa) << u"invalid_ssh_key"_s;
    QTest::newRow("two lines, CRLF") << json(ed + u"\r\n"_s + rsa) << u"invalid_ssh_key"_s;
    QTest::newRow("not base64") << json(u"ssh-ed25519 !!!notbase64!!! c"_s) << u"invalid_ssh_key"_s;
    QTest::newRow("truncated data")
        << json(u"ssh-ed25519 "_s + edData.left(40)) << u"invalid_ssh_key"_s;
    QTest::newRow("type and data disagree") << json(u"ssh-rsa "_s + edData) << u"invalid_ssh_key"_s;
    QTest::newRow("dsa") << json(
        u"ssh-dss AAAAB3NzaC1kc3MAAACBAP1/U4EddRIpUt9KnC7s5Of2EbdSPO9EAMMeP4C2USZpRV1AIlH7WT2NWPq/xfW6MPbLm1Vs14E7gB00b/JmYLdrmVClpJ+f6AR7ECLCT7up1/63xhv4O1fnxqimFQ8E+4P208UewwI1VBNaFpEy9nXzrith1yrv8iIDGZ3RSAHHAAAAFQCXYFCPFSMLzLKSuYKi64QL8Fgc9QAAAIEA9+GghdabPd7LvKtcNrhXuXmUr7v6OuqC+VdMCz0HgmdRWVeOutRZT+ZxBxCBgLRJFnEj6EwoFhO3zwkyjMim4TwWeotUfI0o4KOuHiuzpnWRbqN/C/ohNWLx+2J6ASQ7zKTxvqhRkImog9/hWuWfBpKLZl6Ae1UlZAFMO/7PSSo= x"_s)
                         << u"invalid_ssh_key"_s;
    QTest::newRow("private key") << json(
        u"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"_s)
                                 << u"invalid_ssh_key"_s;
    QTest::newRow("authorized_keys options") << json(u"no-pty "_s + ed) << u"invalid_ssh_key"_s;
    QTest::newRow("empty") << json(QString()) << u"invalid_field"_s;
    QTest::newRow("blank") << json(u"   "_s) << u"invalid_field"_s;
    QTest::newRow("missing public_key") << R"({"name":"x"})"_ba << u"invalid_field"_s;
    QTest::newRow("public_key is a number") << R"({"public_key":42})"_ba << u"invalid_field"_s;
    QTest::newRow("name is a number")
        << QByteArray(R"({"name":1,"public_key":")" + ed.toUtf8() + R"("})") << u"invalid_field"_s;
    QTest::newRow("name of 65") << QByteArray(R"({"name":")" + QByteArray(65, 'n')
                                              + R"(","public_key":")" + ed.toUtf8() + R"("})")
                                << u"invalid_field"_s;
    QTest::newRow("unknown field")
        << QByteArray(R"({"comment":"x","public_key":")" + ed.toUtf8() + R"("})")
        << u"unknown_field"_s;
    QTest::newRow("bad json") << "{\"public_key\":"_ba << u"invalid_json"_s;
}

void TestApiKeys::rejectsBadKeys()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    const int before = m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array().size();
    const Reply reply = m_sim.authedPostRaw(m_tokenA, u"/v1/ssh-keys"_s, body);
    QVERIFY2(reply.status == 400, reply.describe().constData());
    QCOMPARE(reply.errorCode(), code);
    QVERIFY(!reply.value(u"error"_s).toObject().value(u"message"_s).toString().isEmpty());
    QCOMPARE(m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array().size(), before);
}

void TestApiKeys::duplicateKeyIsRejected()
{
    const GeneratedKey &key = m_keys[u"ed25519"_s]; // added by addsValidKeys
    const Reply again = addKey(m_tokenA, u"again"_s, key.publicLine);
    QVERIFY2(again.status == 409, again.describe().constData());
    QCOMPARE(again.errorCode(), u"duplicate_ssh_key"_s);
    QVERIFY(again.value(u"error"_s)
                .toObject()
                .value(u"message"_s)
                .toString()
                .contains(key.fingerprint));
    // The same key with another comment is still the same key.
    const QStringList parts = key.publicLine.split(u' ');
    const Reply recommented =
        addKey(m_tokenA, u"again"_s, parts.at(0) + u' ' + parts.at(1) + u" other-comment"_s);
    QCOMPARE(recommented.status, 409);
    const Reply noComment = addKey(m_tokenA, u"again"_s, parts.at(0) + u' ' + parts.at(1));
    QCOMPARE(noComment.status, 409);
    int copies = 0;
    for (const QJsonValue &v : m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array())
        copies += v.toObject().value(u"fingerprint_sha256"_s).toString() == key.fingerprint ? 1 : 0;
    QCOMPARE(copies, 1);
}

void TestApiKeys::sameKeyForAnotherUser()
{
    // Two accounts may trust the same key (a shared laptop): uniqueness is per user.
    const Reply reply = addKey(m_tokenB, u"shared"_s, m_keys[u"rsa2048"_s].publicLine);
    QVERIFY2(reply.status == 201, reply.describe().constData());
    QCOMPARE(reply.value(u"fingerprint_sha256"_s).toString(), m_keys[u"rsa2048"_s].fingerprint);
}

void TestApiKeys::listIsInCreationOrder()
{
    const Reply list = m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s);
    QCOMPARE(list.status, 200);
    // The keys addsValidKeys added, in that order (only those it managed to add, so that a
    // failure there is reported there and not again here).
    QStringList expected;
    for (const QString &name :
         {u"ed25519"_s, u"ecdsa256"_s, u"ecdsa384"_s, u"ecdsa521"_s, u"rsa2048"_s, u"rsa3072"_s}) {
        for (const QJsonValue &v : list.array()) {
            if (v.toObject().value(u"fingerprint_sha256"_s).toString() == m_keys[name].fingerprint)
                expected.append(name);
        }
    }
    QVERIFY(expected.size() >= 4);
    QCOMPARE(list.array().size(), expected.size());
    qint64 previous = 0;
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const QJsonObject k = list.array().at(i).toObject();
        QCOMPARE(k.value(u"fingerprint_sha256"_s).toString(), m_keys[expected.at(i)].fingerprint);
        QCOMPARE(k.value(u"name"_s).toString(), u"laptop "_s + expected.at(i));
        const qint64 created = isoToMs(k.value(u"created_at"_s).toString());
        QVERIFY(created > previous);
        previous = created;
    }
}

void TestApiKeys::deleteThenNotFound()
{
    const Reply added = addKey(m_tokenA, u"short-lived"_s, m_keys[u"ed25519-other"_s].publicLine);
    QVERIFY2(added.status == 201, added.describe().constData());
    const QString id = added.value(u"id"_s).toString();
    QVERIFY(containsId(m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array(), id));

    const Reply removed = m_sim.authedDelete(m_tokenA, u"/v1/ssh-keys/"_s + id);
    QVERIFY2(removed.status == 204, removed.describe().constData());
    QVERIFY(removed.body.isEmpty());
    QVERIFY(!containsId(m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array(), id));

    const Reply again = m_sim.authedDelete(m_tokenA, u"/v1/ssh-keys/"_s + id);
    QCOMPARE(again.status, 404);
    QCOMPARE(again.errorCode(), u"not_found"_s);
    QCOMPARE(m_sim.authedDelete(m_tokenA, u"/v1/ssh-keys/no-such-key"_s).status, 404);

    // Deleted means the key may be added again.
    const Reply readded = addKey(m_tokenA, u"back"_s, m_keys[u"ed25519-other"_s].publicLine);
    QVERIFY2(readded.status == 201, readded.describe().constData());
    QVERIFY(readded.value(u"id"_s).toString() != id);
    QCOMPARE(
        m_sim.authedDelete(m_tokenA, u"/v1/ssh-keys/"_s + readded.value(u"id"_s).toString()).status,
        204);
}

void TestApiKeys::keysAreIsolatedBetweenUsers()
{
    const Reply listA = m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s);
    QVERIFY(!listA.array().isEmpty());
    const QString keyOfA = listA.array().at(0).toObject().value(u"id"_s).toString();

    const Reply listB = m_sim.authedGet(m_tokenB, u"/v1/ssh-keys"_s);
    QCOMPARE(listB.status, 200);
    for (const QJsonValue &a : listA.array())
        QVERIFY(!containsId(listB.array(), a.toObject().value(u"id"_s).toString()));

    const Reply steal = m_sim.authedDelete(m_tokenB, u"/v1/ssh-keys/"_s + keyOfA);
    QCOMPARE(steal.status, 404); // not 403: B learns nothing about A's ids
    QCOMPARE(steal.errorCode(), u"not_found"_s);
    QVERIFY(containsId(m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s).array(), keyOfA));
}

void TestApiKeys::instanceKeysMustBeYours()
{
    const QString keyOfA = m_sim.authedGet(m_tokenA, u"/v1/ssh-keys"_s)
                               .array()
                               .at(0)
                               .toObject()
                               .value(u"id"_s)
                               .toString();
    const QString keyOfB = m_sim.authedGet(m_tokenB, u"/v1/ssh-keys"_s)
                               .array()
                               .at(0)
                               .toObject()
                               .value(u"id"_s)
                               .toString();
    QVERIFY(!keyOfA.isEmpty());
    QVERIFY(!keyOfB.isEmpty());

    const auto createWith = [this](const QJsonArray &keyIds) {
        return m_sim.authedPost(m_tokenA, u"/v1/instances"_s,
                                QJsonObject{{u"gpu_type"_s, u"rtx4090"_s},
                                            {u"image"_s, u"base"_s},
                                            {u"ssh_key_ids"_s, keyIds}});
    };
    const Reply withB = createWith(QJsonArray{keyOfB});
    QVERIFY2(withB.status == 400, withB.describe().constData());
    QCOMPARE(withB.errorCode(), u"unknown_ssh_key"_s);
    const Reply mixed = createWith(QJsonArray{keyOfA, keyOfB});
    QCOMPARE(mixed.status, 400);
    QCOMPARE(mixed.errorCode(), u"unknown_ssh_key"_s);
    const Reply unknown = createWith(QJsonArray{u"00000000-0000-4000-8000-000000000000"_s});
    QCOMPARE(unknown.status, 400);
    QCOMPARE(unknown.errorCode(), u"unknown_ssh_key"_s);
    const Reply notStrings = createWith(QJsonArray{1, 2});
    QCOMPARE(notStrings.status, 400);
    QCOMPARE(notStrings.errorCode(), u"invalid_field"_s);
    // Nothing was created by the refused requests.
    QCOMPARE(m_sim.authedGet(m_tokenA, u"/v1/instances?include_terminated=true"_s).array().size(),
             0);

    const Reply own = createWith(QJsonArray{keyOfA, keyOfA});
    QVERIFY2(own.status == 202, own.describe().constData());
    QCOMPARE(own.value(u"ssh_key_ids"_s).toArray(), QJsonArray{keyOfA});
    const QString instanceId = own.value(u"id"_s).toString();
    QCOMPARE(m_sim.waitForState(m_tokenA, instanceId, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);

    // The instance keeps its copy of the key when the key leaves the account.
    QCOMPARE(m_sim.authedDelete(m_tokenA, u"/v1/ssh-keys/"_s + keyOfA).status, 204);
    const Reply instance = m_sim.authedGet(m_tokenA, u"/v1/instances/"_s + instanceId);
    QCOMPARE(instance.status, 200);
    QCOMPARE(instance.value(u"ssh_key_ids"_s).toArray(), QJsonArray{keyOfA});
    QCOMPARE(m_sim.authedDelete(m_tokenA, u"/v1/instances/"_s + instanceId).status, 200);
}

QTEST_GUILESS_MAIN(TestApiKeys)
#include "tst_api_keys.moc"
