#include "auth/SshPublicKey.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {

QByteArray sshString(const QByteArray &data)
{
    QByteArray out(4, '\0');
    const auto len = static_cast<quint32>(data.size());
    out[0] = char((len >> 24) & 0xff);
    out[1] = char((len >> 16) & 0xff);
    out[2] = char((len >> 8) & 0xff);
    out[3] = char(len & 0xff);
    return out + data;
}

// A positive SSH mpint from a big-endian magnitude without leading zeros.
QByteArray mpint(const QByteArray &magnitude)
{
    if (!magnitude.isEmpty() && (static_cast<unsigned char>(magnitude[0]) & 0x80))
        return sshString('\0' + magnitude);
    return sshString(magnitude);
}

QString keyLine(const QString &type, const QByteArray &blob, const QString &comment = {})
{
    QString line = type + u' ' + QString::fromLatin1(blob.toBase64());
    if (!comment.isEmpty())
        line += u' ' + comment;
    return line;
}

QByteArray ed25519Blob(int keyBytes = 32)
{
    return sshString("ssh-ed25519"_ba) + sshString(QByteArray(keyBytes, '\x11'));
}

// The P-256 generator: a point that is certainly on the curve.
const QByteArray kP256Gx =
    QByteArray::fromHex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
const QByteArray kP256Gy =
    QByteArray::fromHex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");

QByteArray ecdsaBlob(const QByteArray &type, const QByteArray &curve, const QByteArray &point)
{
    return sshString(type) + sshString(curve) + sshString(point);
}

QByteArray p256Point()
{
    return '\x04' + kP256Gx + kP256Gy;
}

// An odd modulus of exactly `bits` bits (bits a multiple of 8); not a real RSA modulus, but
// the parser checks only structure and size.
QByteArray modulus(int bits)
{
    QByteArray n(bits / 8, '\x5a');
    n[0] = '\xc3';
    n[n.size() - 1] = '\x01';
    return n;
}

QByteArray rsaBlob(const QByteArray &eField, const QByteArray &nField)
{
    return sshString("ssh-rsa"_ba) + eField + nField;
}

const QByteArray kE65537 = QByteArray::fromHex("010001");

QString expectedFingerprint(const QByteArray &blob)
{
    return u"SHA256:"_s
        + QString::fromLatin1(QCryptographicHash::hash(blob, QCryptographicHash::Sha256)
                                  .toBase64(QByteArray::OmitTrailingEquals));
}

} // namespace

class TstSshPublicKey : public QObject
{
    Q_OBJECT

private:
    QString m_sshKeygen;
    QTemporaryDir m_dir;

    bool runKeygen(const QStringList &args, QByteArray *out, QString *why)
    {
        QProcess proc;
        proc.setProgram(m_sshKeygen);
        proc.setArguments(args);
        proc.setProcessChannelMode(QProcess::MergedChannels);
        proc.start();
        if (!proc.waitForFinished(120'000)) {
            *why = u"ssh-keygen did not finish: "_s + proc.errorString();
            return false;
        }
        *out = proc.readAll();
        if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0) {
            *why = u"ssh-keygen %1 failed: %2"_s.arg(args.join(u' '),
                                                     QString::fromUtf8(out->trimmed()));
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_sshKeygen = QStandardPaths::findExecutable(u"ssh-keygen"_s);
        QVERIFY(m_dir.isValid());
    }

    void generatedKeys_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("bits");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("keyType");
        QTest::addColumn<QString>("errorPart");

        QTest::newRow("ed25519") << u"ed25519"_s << 0 << true << u"ssh-ed25519"_s << QString();
        QTest::newRow("ecdsa-256")
            << u"ecdsa"_s << 256 << true << u"ecdsa-sha2-nistp256"_s << QString();
        QTest::newRow("ecdsa-384")
            << u"ecdsa"_s << 384 << true << u"ecdsa-sha2-nistp384"_s << QString();
        QTest::newRow("ecdsa-521")
            << u"ecdsa"_s << 521 << true << u"ecdsa-sha2-nistp521"_s << QString();
        QTest::newRow("rsa-2048") << u"rsa"_s << 2048 << true << u"ssh-rsa"_s << QString();
        QTest::newRow("rsa-3072") << u"rsa"_s << 3072 << true << u"ssh-rsa"_s << QString();
        QTest::newRow("rsa-1024") << u"rsa"_s << 1024 << false << u"ssh-rsa"_s
                                  << u"RSA keys must be at least 2048 bits (this one has 1024)"_s;
        QTest::newRow("dsa") << u"dsa"_s << 0 << false << u"ssh-dss"_s
                             << u"DSA (ssh-dss) keys are not supported"_s;
    }

    void generatedKeys()
    {
        QFETCH(QString, type);
        QFETCH(int, bits);
        QFETCH(bool, accepted);
        QFETCH(QString, keyType);
        QFETCH(QString, errorPart);
        if (m_sshKeygen.isEmpty())
            QSKIP("ssh-keygen (openssh-client) is not installed");

        const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()));
        const QString comment = u"test key  with spaces"_s;
        QStringList args{u"-q"_s, u"-t"_s, type,    u"-N"_s, QString(),
                         u"-C"_s, comment, u"-f"_s, path};
        if (bits > 0)
            args << u"-b"_s << QString::number(bits);
        QByteArray out;
        QString why;
        if (!runKeygen(args, &out, &why)) {
            if (type == u"dsa"_s)
                QSKIP(qPrintable(u"this ssh-keygen cannot make DSA keys: "_s + why));
            QFAIL(qPrintable(why));
        }
        QFile pubFile(path + u".pub"_s);
        QVERIFY(pubFile.open(QIODevice::ReadOnly));
        const QString pub = QString::fromUtf8(pubFile.readAll());
        QVERIFY(pub.endsWith(u'\n')); // the file's trailing newline is trimmed by parse()

        QString error;
        const auto key = SshPublicKey::parse(pub, &error);
        if (!accepted) {
            QVERIFY(!key);
            QVERIFY2(error.contains(errorPart), qPrintable(error));
            return;
        }
        QVERIFY2(key, qPrintable(error));
        QVERIFY(error.isEmpty());
        QCOMPARE(key->type, keyType);
        QCOMPARE(key->comment, comment);

        // ssh-keygen -l -E sha256 prints "<bits> SHA256:<b64> <comment> (<TYPE>)".
        QVERIFY2(runKeygen({u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, path + u".pub"_s}, &out, &why),
                 qPrintable(why));
        const QList<QByteArray> fields = out.trimmed().split(' ');
        QVERIFY2(fields.size() >= 3, out.constData());
        QCOMPARE(key->fingerprintSha256(), QString::fromLatin1(fields.at(1)));
        QCOMPARE(key->bits, fields.at(0).toInt());
        if (bits > 0)
            QCOMPARE(key->bits, bits);

        const QStringList pubFields = pub.trimmed().split(u' ');
        QCOMPARE(key->canonical(), pubFields.at(0) + u' ' + pubFields.at(1));
        const auto again = SshPublicKey::parse(key->canonical(), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->blob, key->blob);
        QVERIFY(again->comment.isEmpty());
        QCOMPARE(again->fingerprintSha256(), key->fingerprintSha256());
    }

    void syntheticAccepted_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("bits");
        QTest::addColumn<QString>("comment");

        const QByteArray ed = ed25519Blob();
        const QString edB64 = QString::fromLatin1(ed.toBase64());
        QTest::newRow("ed25519-no-comment")
            << keyLine(u"ssh-ed25519"_s, ed) << u"ssh-ed25519"_s << 256 << QString();
        QTest::newRow("ed25519-comment") << keyLine(u"ssh-ed25519"_s, ed, u"me@host"_s)
                                         << u"ssh-ed25519"_s << 256 << u"me@host"_s;
        QTest::newRow("surrounding-whitespace")
            << (u"  \t ssh-ed25519 "_s + edB64 + u" a  b\tc  \r\n"_s) << u"ssh-ed25519"_s << 256
            << u"a  b\tc"_s;
        QTest::newRow("tab-separators")
            << (u"ssh-ed25519\t"_s + edB64 + u"\tx y"_s) << u"ssh-ed25519"_s << 256 << u"x y"_s;
        QTest::newRow("unicode-comment") << keyLine(u"ssh-ed25519"_s, ed, u"Zoë's laptop 💻"_s)
                                         << u"ssh-ed25519"_s << 256 << u"Zoë's laptop 💻"_s;
        QTest::newRow("ecdsa-generator")
            << keyLine(u"ecdsa-sha2-nistp256"_s,
                       ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp256"_ba, p256Point()))
            << u"ecdsa-sha2-nistp256"_s << 256 << QString();
        QTest::newRow("rsa-2048") << keyLine(u"ssh-rsa"_s,
                                             rsaBlob(mpint(kE65537), mpint(modulus(2048))))
                                  << u"ssh-rsa"_s << 2048 << QString();
        QTest::newRow("rsa-e3-4096")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint("\x03"_ba), mpint(modulus(4096))))
            << u"ssh-rsa"_s << 4096 << QString();
        QTest::newRow("rsa-16384")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(kE65537), mpint(modulus(16384)))) << u"ssh-rsa"_s
            << 16384 << QString();
    }

    void syntheticAccepted()
    {
        QFETCH(QString, line);
        QFETCH(QString, type);
        QFETCH(int, bits);
        QFETCH(QString, comment);
        QString error = u"stale"_s;
        const auto key = SshPublicKey::parse(line, &error);
        QVERIFY2(key, qPrintable(error));
        QVERIFY(error.isEmpty());
        QCOMPARE(key->type, type);
        QCOMPARE(key->bits, bits);
        QCOMPARE(key->comment, comment);
        QCOMPARE(key->fingerprintSha256(), expectedFingerprint(key->blob));
        QVERIFY(SshPublicKey::parse(line, nullptr).has_value());
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("errorPart");

        const QByteArray ed = ed25519Blob();
        const QString edB64 = QString::fromLatin1(ed.toBase64());
        const QString edLine = keyLine(u"ssh-ed25519"_s, ed, u"me@host"_s);

        QTest::newRow("empty") << QString() << u"empty"_s;
        QTest::newRow("whitespace-only") << u"  \t \r\n "_s << u"empty"_s;
        QTest::newRow("unknown-type")
            << u"ssh-foo AAAAB3NzaC1yc2E="_s << u"Unknown key type 'ssh-foo'"_s;
        QTest::newRow("dsa") << u"ssh-dss AAAAB3NzaC1kc3M="_s
                             << u"DSA (ssh-dss) keys are not supported"_s;
        QTest::newRow("certificate") << (u"ssh-ed25519-cert-v01@openssh.com "_s + edB64)
                                     << u"certificates are not supported"_s;
        QTest::newRow("fido") << (u"sk-ssh-ed25519@openssh.com "_s + edB64) << u"FIDO"_s;
        QTest::newRow("options-keyword") << (u"no-pty "_s + edLine) << u"authorized_keys options"_s;
        QTest::newRow("options-restrict")
            << (u"restrict,pty "_s + edLine) << u"authorized_keys options"_s;
        QTest::newRow("options-command")
            << (u"command=\"ls -l /tmp\" "_s + edLine) << u"authorized_keys options"_s;
        QTest::newRow("options-from") << (u"from=\"*.example.com\",no-agent-forwarding "_s + edLine)
                                      << u"authorized_keys options"_s;
        QTest::newRow("missing-data") << u"ssh-ed25519"_s << u"missing"_s;
        QTest::newRow("missing-data-space") << u"ssh-ed25519    "_s << u"missing"_s;
        QTest::newRow("bad-base64-chars") << u"ssh-ed25519 AAAA$$$$ me"_s << u"not valid base64"_s;
        QTest::newRow("bad-base64-url")
            << (u"ssh-ed25519 "_s
                + QString::fromLatin1(
                    QByteArray(60, '\xfb').toBase64(QByteArray::Base64UrlEncoding)))
            << u"not valid base64"_s;
        QTest::newRow("bad-base64-length")
            << (u"ssh-ed25519 "_s + edB64.chopped(1)) << u"not valid base64"_s;
        QTest::newRow("bad-base64-padding") << u"ssh-ed25519 AA=A"_s << u"not valid base64"_s;
        QTest::newRow("bad-base64-inner-padding")
            << u"ssh-ed25519 AA==AAAA"_s << u"not valid base64"_s;
        QTest::newRow("truncated-blob")
            << keyLine(u"ssh-ed25519"_s, ed.chopped(1)) << u"truncated"_s;
        QTest::newRow("truncated-key-field")
            << keyLine(u"ssh-ed25519"_s, sshString("ssh-ed25519"_ba)) << u"truncated"_s;
        QTest::newRow("truncated-length") << keyLine(u"ssh-ed25519"_s, "\0\0"_ba) << u"truncated"_s;
        QTest::newRow("huge-length")
            << keyLine(u"ssh-ed25519"_s, "\xff\xff\xff\xffssh-ed25519"_ba) << u"truncated"_s;
        QTest::newRow("trailing-bytes")
            << keyLine(u"ssh-ed25519"_s, ed + "\0"_ba) << u"1 unexpected trailing bytes"_s;
        QTest::newRow("trailing-string") << keyLine(u"ssh-ed25519"_s, ed + sshString("x"_ba))
                                         << u"5 unexpected trailing bytes"_s;
        QTest::newRow("type-mismatch")
            << keyLine(u"ssh-rsa"_s, ed) << u"for type 'ssh-ed25519' but the line says 'ssh-rsa'"_s;
        QTest::newRow("type-mismatch-binary")
            << keyLine(u"ssh-ed25519"_s, sshString("\x01\x02"_ba)) << u"(binary data)"_s;
        QTest::newRow("ed25519-31") << keyLine(u"ssh-ed25519"_s, ed25519Blob(31))
                                    << u"must be 32 bytes (this one has 31)"_s;
        QTest::newRow("ed25519-33") << keyLine(u"ssh-ed25519"_s, ed25519Blob(33))
                                    << u"must be 32 bytes (this one has 33)"_s;
        QTest::newRow("multi-line") << (edLine + u'\n' + edLine) << u"single line"_s;
        QTest::newRow("wrapped-base64")
            << (u"ssh-ed25519 "_s + edB64.left(20) + u"\n"_s + edB64.mid(20)) << u"single line"_s;
        QTest::newRow("carriage-return")
            << (u"ssh-ed25519 "_s + edB64 + u" a\rb"_s) << u"single line"_s;
        QTest::newRow("line-separator") << (edLine + QChar(0x2028) + u"x"_s) << u"single line"_s;
        QTest::newRow("nul-in-comment")
            << (u"ssh-ed25519 "_s + edB64 + u" a"_s + QChar(0) + u"b"_s) << u"control characters"_s;
        QTest::newRow("escape-in-comment")
            << (u"ssh-ed25519 "_s + edB64 + u" a\x1b[31mred"_s) << u"control characters"_s;

        QByteArray offCurve = p256Point();
        offCurve[offCurve.size() - 1] = char(offCurve.at(offCurve.size() - 1) ^ 0x01);
        QTest::newRow("ecdsa-not-on-curve") << keyLine(
            u"ecdsa-sha2-nistp256"_s, ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp256"_ba, offCurve))
                                            << u"not on the nistp256 curve"_s;
        QTest::newRow("ecdsa-coordinates-too-big") << keyLine(
            u"ecdsa-sha2-nistp256"_s,
            ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp256"_ba, '\x04' + QByteArray(64, '\xff')))
                                                   << u"not on the nistp256 curve"_s;
        QTest::newRow("ecdsa-zero-point") << keyLine(
            u"ecdsa-sha2-nistp256"_s,
            ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp256"_ba, '\x04' + QByteArray(64, '\0')))
                                          << u"not on the nistp256 curve"_s;
        QTest::newRow("ecdsa-p256-point-as-p384")
            << keyLine(u"ecdsa-sha2-nistp384"_s,
                       ecdsaBlob("ecdsa-sha2-nistp384"_ba, "nistp384"_ba, p256Point()))
            << u"must be uncompressed (97 bytes for nistp384)"_s;
        QTest::newRow("ecdsa-curve-mismatch")
            << keyLine(u"ecdsa-sha2-nistp256"_s,
                       ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp384"_ba, p256Point()))
            << u"curve 'nistp384' does not match"_s;
        QTest::newRow("ecdsa-compressed")
            << keyLine(u"ecdsa-sha2-nistp256"_s,
                       ecdsaBlob("ecdsa-sha2-nistp256"_ba, "nistp256"_ba, '\x03' + kP256Gx))
            << u"uncompressed"_s;
        QTest::newRow("ecdsa-truncated")
            << keyLine(u"ecdsa-sha2-nistp256"_s,
                       sshString("ecdsa-sha2-nistp256"_ba) + sshString("nistp256"_ba))
            << u"truncated"_s;

        QTest::newRow("rsa-1024") << keyLine(u"ssh-rsa"_s,
                                             rsaBlob(mpint(kE65537), mpint(modulus(1024))))
                                  << u"RSA keys must be at least 2048 bits (this one has 1024)"_s;
        QTest::newRow("rsa-2040") << keyLine(u"ssh-rsa"_s,
                                             rsaBlob(mpint(kE65537), mpint(modulus(2040))))
                                  << u"(this one has 2040)"_s;
        QTest::newRow("rsa-too-big")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(kE65537), mpint(modulus(16392))))
            << u"larger than 16384 bits are not supported (this one has 16392)"_s;
        QTest::newRow("rsa-even-e")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint("\x01\x00\x00"_ba), mpint(modulus(2048))))
            << u"odd and greater than 1"_s;
        QTest::newRow("rsa-e-1") << keyLine(u"ssh-rsa"_s,
                                            rsaBlob(mpint("\x01"_ba), mpint(modulus(2048))))
                                 << u"odd and greater than 1"_s;
        QTest::newRow("rsa-e-0") << keyLine(u"ssh-rsa"_s,
                                            rsaBlob(sshString({}), mpint(modulus(2048))))
                                 << u"odd and greater than 1"_s;
        QTest::newRow("rsa-negative-n")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(kE65537), sshString(modulus(2048))))
            << u"malformed or negative"_s;
        QTest::newRow("rsa-non-minimal-e")
            << keyLine(u"ssh-rsa"_s, rsaBlob(sshString("\0\x01\0\x01"_ba), mpint(modulus(2048))))
            << u"malformed or negative"_s;
        QByteArray evenN = modulus(2048);
        evenN[evenN.size() - 1] = '\x02';
        QTest::newRow("rsa-even-n") << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(kE65537), mpint(evenN)))
                                    << u"modulus must be odd"_s;
        QTest::newRow("rsa-e-ge-n")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(modulus(2048)), mpint(modulus(2048))))
            << u"smaller than the modulus"_s;
        QTest::newRow("rsa-truncated")
            << keyLine(u"ssh-rsa"_s, rsaBlob(mpint(kE65537), {})) << u"truncated"_s;

        QTest::newRow("too-long") << (u"ssh-ed25519 "_s + QString(17000, u'A')) << u"too long"_s;
        QTest::newRow("too-long-comment")
            << (edLine + u' ' + QString(16400, u'x')) << u"too long"_s;
        QTest::newRow("private-key")
            << u"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"_s
            << u"private key"_s;
        QTest::newRow("rfc4716")
            << u"---- BEGIN SSH2 PUBLIC KEY ----\nAAAAC3NzaC1lZDI1NTE5\n---- END SSH2 PUBLIC KEY ----"_s
            << u"RFC 4716"_s;
    }

    void malformed()
    {
        QFETCH(QString, line);
        QFETCH(QString, errorPart);
        QString error;
        const auto key = SshPublicKey::parse(line, &error);
        QVERIFY2(!key, qPrintable(u"accepted: "_s + line.left(200)));
        QVERIFY2(error.contains(errorPart, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY(!SshPublicKey::parse(line, nullptr).has_value());
    }

    void fingerprintFormat()
    {
        const QByteArray blob = ed25519Blob();
        const auto key = SshPublicKey::parse(keyLine(u"ssh-ed25519"_s, blob), nullptr);
        QVERIFY(key);
        const QString fp = key->fingerprintSha256();
        QVERIFY(fp.startsWith(u"SHA256:"_s));
        QCOMPARE(fp.size(), 7 + 43); // unpadded base64 of 32 bytes
        QVERIFY(!fp.contains(u'='));
        QCOMPARE(fp, expectedFingerprint(blob));
    }
};

QTEST_GUILESS_MAIN(TstSshPublicKey)
#include "tst_sshpublickey.moc"
