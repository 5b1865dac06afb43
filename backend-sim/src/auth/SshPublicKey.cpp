#include "SshPublicKey.h"

#include <QtEndian>

#include <array>
#include <memory>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr qsizetype kMaxLineLength = 16 * 1024;
constexpr int kMinRsaBits = 2048;
constexpr int kMaxRsaBits = 16384;

enum class Kind {
    Ed25519,
    Ecdsa,
    Rsa
};

struct KeyType
{
    QLatin1StringView name;
    Kind kind;
    QLatin1StringView curve; // ecdsa only
    int curveNid; // ecdsa only
    int bits; // fixed size (ed25519, ecdsa)
    int fieldBytes; // ecdsa only: bytes per coordinate
};

const std::array<KeyType, 5> kKeyTypes = {{
    {"ssh-ed25519"_L1, Kind::Ed25519, {}, 0, 256, 0},
    {"ecdsa-sha2-nistp256"_L1, Kind::Ecdsa, "nistp256"_L1, NID_X9_62_prime256v1, 256, 32},
    {"ecdsa-sha2-nistp384"_L1, Kind::Ecdsa, "nistp384"_L1, NID_secp384r1, 384, 48},
    {"ecdsa-sha2-nistp521"_L1, Kind::Ecdsa, "nistp521"_L1, NID_secp521r1, 521, 66},
    {"ssh-rsa"_L1, Kind::Rsa, {}, 0, 0, 0},
}};

const QString kSupportedList =
    u"ssh-ed25519, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521 and ssh-rsa "
    "(at least 2048 bits)"_s;

const KeyType *findType(QStringView name)
{
    for (const KeyType &t : kKeyTypes) {
        if (name == t.name)
            return &t;
    }
    return nullptr;
}

// Names that may appear as the key type of an authorized_keys line, supported or not; used
// to recognise an options prefix ("no-pty ssh-ed25519 AAAA...").
bool isAnyKeyTypeName(QStringView name)
{
    if (findType(name))
        return true;
    static const QLatin1StringView others[] = {
        "ssh-dss"_L1,
        "sk-ssh-ed25519@openssh.com"_L1,
        "sk-ecdsa-sha2-nistp256@openssh.com"_L1,
    };
    for (const auto &o : others) {
        if (name == o)
            return true;
    }
    return name.endsWith("-cert-v01@openssh.com"_L1);
}

bool isAuthorizedKeysOption(QStringView token)
{
    if (token.contains(u'=') || token.contains(u'"') || token.contains(u','))
        return true;
    static const QLatin1StringView options[] = {
        "agent-forwarding"_L1,
        "cert-authority"_L1,
        "no-agent-forwarding"_L1,
        "no-port-forwarding"_L1,
        "no-pty"_L1,
        "no-user-rc"_L1,
        "no-x11-forwarding"_L1,
        "port-forwarding"_L1,
        "pty"_L1,
        "no-touch-required"_L1,
        "verify-required"_L1,
        "restrict"_L1,
        "user-rc"_L1,
        "x11-forwarding"_L1,
    };
    for (const auto &o : options) {
        if (token.compare(o, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QByteArrayView bytes(QLatin1StringView s)
{
    return QByteArrayView(s.data(), s.size());
}

bool isSeparator(QChar c)
{
    return c == u' ' || c == u'\t';
}

// Text from the key (which may be anything) made safe to quote in a message.
QString quoted(QByteArrayView raw)
{
    QString out;
    for (const char ch : raw) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c > 0x7e)
            return u"(binary data)"_s;
        if (out.size() >= 60)
            return u"'"_s + out + u"...'"_s;
        out += QLatin1Char(char(c));
    }
    return u"'"_s + out + u"'"_s;
}

QString quoted(QStringView text)
{
    if (text.size() > 60)
        return u"'"_s + text.left(60).toString() + u"...'"_s;
    return u"'"_s + text.toString() + u"'"_s;
}

bool isBase64Char(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9')
        || u == u'+' || u == u'/';
}

// Standard base64 with correct padding, nothing else.
bool strictBase64(QStringView text, QByteArray *out)
{
    if (text.isEmpty() || text.size() % 4 != 0)
        return false;
    qsizetype padding = 0;
    if (text.endsWith(u'='))
        padding = text.endsWith(u"=="_s) ? 2 : 1;
    for (qsizetype i = 0; i < text.size() - padding; ++i) {
        if (!isBase64Char(text[i]))
            return false;
    }
    auto result =
        QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return false;
    *out = std::move(result.decoded);
    return true;
}

// SSH wire format (RFC 4251): uint32 big-endian length followed by that many bytes.
class WireReader
{
public:
    explicit WireReader(QByteArrayView data) : m_data(data) {}

    bool readString(QByteArrayView *out)
    {
        if (m_data.size() - m_pos < 4)
            return false;
        const quint32 len = qFromBigEndian<quint32>(m_data.data() + m_pos);
        m_pos += 4;
        if (quint64(len) > quint64(m_data.size() - m_pos))
            return false;
        *out = m_data.sliced(m_pos, qsizetype(len));
        m_pos += qsizetype(len);
        return true;
    }

    qsizetype remaining() const { return m_data.size() - m_pos; }

private:
    QByteArrayView m_data;
    qsizetype m_pos = 0;
};

enum class MpintStatus {
    Ok,
    Negative,
    NonMinimal
};

// An SSH mpint that must be non-negative; returns its magnitude without leading zero bytes.
MpintStatus positiveMpint(QByteArrayView raw, QByteArrayView *magnitude)
{
    if (raw.isEmpty()) {
        *magnitude = {};
        return MpintStatus::Ok;
    }
    const auto first = static_cast<unsigned char>(raw[0]);
    if (first & 0x80)
        return MpintStatus::Negative;
    if (first == 0) {
        // A leading zero is only allowed to keep the sign bit of the next byte clear.
        if (raw.size() == 1 || !(static_cast<unsigned char>(raw[1]) & 0x80))
            return MpintStatus::NonMinimal;
        *magnitude = raw.sliced(1);
        return MpintStatus::Ok;
    }
    *magnitude = raw;
    return MpintStatus::Ok;
}

int bitLength(QByteArrayView magnitude)
{
    if (magnitude.isEmpty())
        return 0;
    int top = 0;
    for (auto b = static_cast<unsigned char>(magnitude[0]); b; b >>= 1)
        ++top;
    return int((magnitude.size() - 1) * 8) + top;
}

bool isOdd(QByteArrayView magnitude)
{
    return !magnitude.isEmpty() && (static_cast<unsigned char>(magnitude.back()) & 1);
}

// Compares two magnitudes without leading zeros.
int compareMagnitudes(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const auto x = static_cast<unsigned char>(a[i]);
        const auto y = static_cast<unsigned char>(b[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

bool ecPointOnCurve(int nid, QByteArrayView point)
{
    std::unique_ptr<EC_GROUP, decltype(&EC_GROUP_free)> group(EC_GROUP_new_by_curve_name(nid),
                                                              &EC_GROUP_free);
    if (!group) {
        ERR_clear_error();
        return false;
    }
    std::unique_ptr<EC_POINT, decltype(&EC_POINT_free)> p(EC_POINT_new(group.get()),
                                                          &EC_POINT_free);
    const bool ok = p
        && EC_POINT_oct2point(group.get(), p.get(),
                              reinterpret_cast<const unsigned char *>(point.data()),
                              static_cast<size_t>(point.size()), nullptr)
            == 1
        && EC_POINT_is_at_infinity(group.get(), p.get()) == 0
        && EC_POINT_is_on_curve(group.get(), p.get(), nullptr) == 1;
    ERR_clear_error();
    return ok;
}

} // namespace

QString SshPublicKey::fingerprintSha256() const
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(blob.constData(), static_cast<size_t>(blob.size()), digest, &len, EVP_sha256(),
                   nullptr)
        != 1) {
        ERR_clear_error();
        return {};
    }
    const QByteArray b64 = QByteArray(reinterpret_cast<const char *>(digest), qsizetype(len))
                               .toBase64(QByteArray::OmitTrailingEquals);
    return u"SHA256:"_s + QString::fromLatin1(b64);
}

QString SshPublicKey::canonical() const
{
    return type + u' ' + QString::fromLatin1(blob.toBase64());
}

std::optional<SshPublicKey> SshPublicKey::parse(const QString &input, QString *error)
{
    const auto fail = [error](const QString &why) -> std::optional<SshPublicKey> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (error)
        error->clear();

    if (input.size() > kMaxLineLength)
        return fail(
            u"The key is too long (more than 16 KiB); paste a single OpenSSH public key line"_s);
    const QString line = input.trimmed();
    if (line.isEmpty())
        return fail(u"The key is empty"_s);

    if (line.startsWith("-----BEGIN"_L1) || line.startsWith("---- BEGIN"_L1)) {
        if (line.contains("PRIVATE KEY"_L1))
            return fail(u"This is a private key: paste the public key instead (the .pub file)"_s);
        return fail(u"This is a PEM or RFC 4716 public key; convert it to the one-line OpenSSH "
                    "format with 'ssh-keygen -i -f FILE'"_s);
    }
    for (const QChar c : line) {
        const char16_t u = c.unicode();
        if (u == u'\n' || u == u'\r' || u == u'\v' || u == u'\f' || u == 0x85 || u == 0x2028
            || u == 0x2029) {
            return fail(u"The key must be a single line"_s);
        }
    }
    for (const QChar c : line) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != u'\t') || u == 0x7f)
            return fail(u"The key contains control characters"_s);
    }

    // type <whitespace> base64 [<whitespace> comment]
    qsizetype pos = 0;
    while (pos < line.size() && !isSeparator(line[pos]))
        ++pos;
    const QStringView typeName = QStringView(line).left(pos);
    while (pos < line.size() && isSeparator(line[pos]))
        ++pos;
    const qsizetype dataStart = pos;
    while (pos < line.size() && !isSeparator(line[pos]))
        ++pos;
    const QStringView data = QStringView(line).sliced(dataStart, pos - dataStart);
    while (pos < line.size() && isSeparator(line[pos]))
        ++pos;
    const QStringView comment = QStringView(line).sliced(pos);

    const KeyType *keyType = findType(typeName);
    if (!keyType) {
        if (typeName == "ssh-dss"_L1) {
            return fail(u"DSA (ssh-dss) keys are not supported; supported types are "_s
                        + kSupportedList);
        }
        if (typeName.endsWith("-cert-v01@openssh.com"_L1))
            return fail(u"SSH certificates are not supported; paste the plain public key"_s);
        if (typeName.startsWith("sk-"_L1) && isAnyKeyTypeName(typeName)) {
            return fail(u"Security-key (FIDO) keys are not supported; supported types are "_s
                        + kSupportedList);
        }
        bool optionsPrefix = isAuthorizedKeysOption(typeName);
        if (!optionsPrefix) {
            for (const QStringView token : QStringView(line).tokenize(u' ', Qt::SkipEmptyParts)) {
                if (isAnyKeyTypeName(token.trimmed())) {
                    optionsPrefix = true;
                    break;
                }
            }
        }
        if (optionsPrefix) {
            return fail(u"The line starts with authorized_keys options (such as no-pty or "
                        "command=\"...\"); remove them and paste only the public key: type, key "
                        "data and optional comment"_s);
        }
        return fail(u"Unknown key type %1; supported types are "_s.arg(quoted(typeName))
                    + kSupportedList);
    }

    if (data.isEmpty())
        return fail(u"The key data is missing after the key type"_s);
    QByteArray blob;
    if (!strictBase64(data, &blob))
        return fail(u"The key data is not valid base64"_s);

    WireReader reader(blob);
    const QString truncated = u"The key data is truncated or malformed"_s;
    QByteArrayView innerType;
    if (!reader.readString(&innerType))
        return fail(truncated);
    if (innerType != bytes(keyType->name)) {
        return fail(u"The key data is for type %1 but the line says %2"_s.arg(
            quoted(innerType), quoted(QString(keyType->name))));
    }

    SshPublicKey key;
    key.type = QString(keyType->name);
    key.comment = comment.toString();

    switch (keyType->kind) {
    case Kind::Ed25519: {
        QByteArrayView pk;
        if (!reader.readString(&pk))
            return fail(truncated);
        if (pk.size() != 32) {
            return fail(u"An ed25519 key must be 32 bytes (this one has %1)"_s.arg(pk.size()));
        }
        key.bits = keyType->bits;
        break;
    }
    case Kind::Ecdsa: {
        QByteArrayView curve;
        QByteArrayView point;
        if (!reader.readString(&curve) || !reader.readString(&point))
            return fail(truncated);
        if (curve != bytes(keyType->curve)) {
            return fail(u"The ECDSA curve %1 does not match the key type %2"_s.arg(
                quoted(curve), quoted(QString(keyType->name))));
        }
        const qsizetype expected = 1 + 2 * qsizetype(keyType->fieldBytes);
        if (point.size() != expected || point[0] != 0x04) {
            return fail(u"The ECDSA public point must be uncompressed (%1 bytes for %2)"_s.arg(
                QString::number(expected), QString(keyType->curve)));
        }
        if (!ecPointOnCurve(keyType->curveNid, point)) {
            return fail(
                u"The ECDSA public point is not on the %1 curve"_s.arg(QString(keyType->curve)));
        }
        key.bits = keyType->bits;
        break;
    }
    case Kind::Rsa: {
        QByteArrayView rawE;
        QByteArrayView rawN;
        if (!reader.readString(&rawE) || !reader.readString(&rawN))
            return fail(truncated);
        QByteArrayView e;
        QByteArrayView n;
        if (positiveMpint(rawE, &e) != MpintStatus::Ok
            || positiveMpint(rawN, &n) != MpintStatus::Ok) {
            return fail(u"The RSA key contains a malformed or negative integer"_s);
        }
        if (!isOdd(e) || bitLength(e) < 2)
            return fail(u"The RSA public exponent must be odd and greater than 1"_s);
        const int bits = bitLength(n);
        if (bits < kMinRsaBits) {
            return fail(u"RSA keys must be at least %1 bits (this one has %2)"_s.arg(
                QString::number(kMinRsaBits), QString::number(bits)));
        }
        if (bits > kMaxRsaBits) {
            return fail(u"RSA keys larger than %1 bits are not supported (this one has %2)"_s.arg(
                QString::number(kMaxRsaBits), QString::number(bits)));
        }
        if (!isOdd(n))
            return fail(u"The RSA modulus must be odd"_s);
        if (compareMagnitudes(e, n) >= 0)
            return fail(u"The RSA public exponent must be smaller than the modulus"_s);
        key.bits = bits;
        break;
    }
    }

    if (reader.remaining() != 0) {
        return fail(u"The key data has %1 unexpected trailing bytes"_s.arg(
            QString::number(reader.remaining())));
    }
    key.blob = std::move(blob);
    return key;
}

} // namespace cardhour::sim
