// Fuzz target for SshPublicKey::parse: the input is tried as a whole key line and, so that the
// wire-format parser is reached without the fuzzer having to discover base64, as a raw key
// blob wrapped in a line for each supported type. Accepted keys must fingerprint and
// round-trip through canonical().
#include "auth/SshPublicKey.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace Qt::StringLiterals;
using cardhour::sim::SshPublicKey;

namespace {

void check(const QString &line)
{
    QString error;
    const auto key = SshPublicKey::parse(line, &error);
    if (!key) {
        if (error.isEmpty())
            std::abort(); // every rejection must say why
        return;
    }
    if (!error.isEmpty() || key->bits <= 0 || key->type.isEmpty())
        std::abort();
    const QString fingerprint = key->fingerprintSha256();
    if (!fingerprint.startsWith(u"SHA256:"_s) || fingerprint.size() != 50)
        std::abort();
    // The canonical form must parse back to the same key.
    const auto again = SshPublicKey::parse(key->canonical(), nullptr);
    if (!again || again->blob != key->blob || again->type != key->type || again->bits != key->bits
        || again->fingerprintSha256() != fingerprint) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));

    check(QString::fromUtf8(bytes));

    const QString b64 = QString::fromLatin1(bytes.toBase64());
    static const QString types[] = {
        u"ssh-ed25519"_s,         u"ssh-rsa"_s, u"ecdsa-sha2-nistp256"_s, u"ecdsa-sha2-nistp384"_s,
        u"ecdsa-sha2-nistp521"_s,
    };
    for (const QString &type : types)
        check(type + u' ' + b64 + u" fuzz"_s);
    return 0;
}
