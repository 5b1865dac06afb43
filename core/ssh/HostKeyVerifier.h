#pragma once

#include <QCoreApplication>
#include <QString>

struct ssh_session_struct;

namespace cardhour::core {

// Host key trust comes from the provider alone: the SHA-256 fingerprint of the key the server
// presents must equal the instance's `ssh.host_key_sha256`. There is no trust-on-first-use and
// no "accept anyway": a missing expectation refuses as firmly as a mismatch.
class HostKeyVerifier
{
    Q_DECLARE_TR_FUNCTIONS(HostKeyVerifier)
public:
    enum class Verdict {
        Match,
        Mismatch,
        NoExpectation,
        NoServerKey
    };

    struct Result
    {
        Verdict verdict = Verdict::NoServerKey;
        QString serverFingerprint; // "SHA256:..." of what the server presented
        QString serverKeyLine; // "ssh-ed25519 AAAA..." of it
        QString message; // translated warning unless Match
        bool ok() const { return verdict == Verdict::Match; }
    };

    // Compares two "SHA256:..." fingerprints (the "SHA256:" prefix optional on `expected`).
    static Verdict compare(const QString &expected, const QString &actual);
    // Checks the key of a connected (not yet authenticated) session. `where` names the
    // instance and address for the warning.
    static Result verify(ssh_session_struct *session, const QString &expected,
                         const QString &where);
};

} // namespace cardhour::core
