#include "ssh/HostKeyVerifier.h"

#include "ssh/SshKeyPair.h"

#include <libssh/libssh.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

HostKeyVerifier::Verdict HostKeyVerifier::compare(const QString &expected, const QString &actual)
{
    QString want = expected.trimmed();
    if (want.isEmpty())
        return Verdict::NoExpectation;
    if (actual.isEmpty())
        return Verdict::NoServerKey;
    if (!want.startsWith(u"SHA256:"_s))
        want.prepend(u"SHA256:"_s);
    // Base64 is case-sensitive: the comparison is exact.
    return want == actual ? Verdict::Match : Verdict::Mismatch;
}

HostKeyVerifier::Result HostKeyVerifier::verify(ssh_session_struct *session,
                                                const QString &expected, const QString &where)
{
    Result result;
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) == SSH_OK && key) {
        char *b64 = nullptr;
        if (ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK) {
            result.serverKeyLine = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)))
                + u' ' + QString::fromLatin1(b64);
            result.serverFingerprint = SshKeyPair::fingerprintOfBlob(QByteArray::fromBase64(b64));
            ssh_string_free_char(b64);
        }
        ssh_key_free(key);
    }
    result.verdict = compare(expected, result.serverFingerprint);
    switch (result.verdict) {
    case Verdict::Match:
        break;
    case Verdict::Mismatch:
        result.message =
            tr("Connection refused: %1 presented the host key %2, but the provider says this "
               "instance's host key is %3. Someone may be intercepting the connection, or the "
               "address now belongs to another machine. CardHour does not connect to a host "
               "whose key does not match.")
                .arg(where, result.serverFingerprint, expected);
        break;
    case Verdict::NoExpectation:
        result.message =
            tr("Connection refused: the provider has not reported a host key for %1, so its "
               "identity cannot be checked. Wait until the instance is running and try again.")
                .arg(where);
        break;
    case Verdict::NoServerKey:
        result.message =
            tr("Connection refused: %1 did not present a host key that could be read.").arg(where);
        break;
    }
    return result;
}

} // namespace cardhour::core
