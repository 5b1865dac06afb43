#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// The host-side files of one container instance, under `<dataDir>/instances/<id>/`:
//   ssh/                          0700, mounted read-only at /etc/cardhour/ssh in the container
//   ssh/ssh_host_ed25519_key      0600, OpenSSH private key format, made once and then reused
//   ssh/ssh_host_ed25519_key.pub  "ssh-ed25519 AAAA... cardhour-<id>"
//   ssh/authorized_keys           0600, rewritten whole and atomically (new inode each time,
//                                 which a directory bind mount shows at once)
//   ssh/cardhour-entrypoint       0755, the box's PID 1; ssh/sshd_config 0644, sshd's whole
//                                 configuration; ssh/app_token 0600, this start's app token:
//                                 ssh/cardhour-hardware-report 0755, run by PID 1;
//                                 ssh/start_id 0644, new for each start: all rewritten before
//                                 every start (writeBootFilesTo)
// Keeping the host key outside the container is what lets a restarted or re-created
// container present the same key, and lets readiness accept only that key.
class InstanceFiles
{
public:
    // Creates the directories and the host key if missing, reuses them otherwise.
    // Throws std::runtime_error (with a readable message) on any failure, or when
    // `instanceId` is not a safe file-name component ([A-Za-z0-9._-], no leading dot).
    static InstanceFiles prepare(const QString &dataDir, const QString &instanceId);

    // Deletes `<dataDir>/instances/<id>` if present. Returns false if something stayed.
    static bool remove(const QString &dataDir, const QString &instanceId);
    bool remove() const;

    static bool isSafeId(const QString &instanceId);
    static QString instanceDirFor(const QString &dataDir, const QString &instanceId);

    // "SHA256:" + unpadded base64 of SHA-256 of an SSH public key blob (ssh-keygen -l -E sha256).
    static QString sha256Fingerprint(const QByteArray &publicKeyBlob);

    QString instanceId() const { return m_instanceId; }
    QString instanceDir() const { return m_instanceDir; }
    QString sshDir() const { return m_sshDir; }
    QString hostKeyPath() const;
    QString hostPublicKeyPath() const;
    QString authorizedKeysPath() const;
    QString hostPublicKeyLine() const
    {
        return m_publicKeyLine;
    } // "ssh-ed25519 AAAA..." (no comment)
    QString hostKeySha256() const { return m_hostKeySha256; }

    // Rewrites authorized_keys whole (atomically, 0600): one key per line; blank lines and
    // lines with a CR/LF inside are dropped. Throws std::runtime_error on failure.
    void writeAuthorizedKeys(const QStringList &lines) const;
    // The same for an ssh directory given by path.
    static void writeAuthorizedKeysTo(const QString &sshDir, const QStringList &lines);
    // Writes the box's boot files (the built-in entrypoint and sshd configuration) and this
    // start's app token into an ssh directory. Throws std::runtime_error on failure.
    static void writeBootFilesTo(const QString &sshDir, const QString &appToken);
    // The id of the last start writeBootFilesTo prepared in an ssh directory (empty: none):
    // the first line of the box's hardware report names it.
    static QString startIdIn(const QString &sshDir);
    // Where the box runs its PID 1 from: the ssh directory as the box sees it.
    static QString boxEntrypoint()
    {
        return QStringLiteral("/etc/cardhour/ssh/cardhour-entrypoint");
    }

private:
    InstanceFiles() = default;

    QString m_instanceId;
    QString m_instanceDir;
    QString m_sshDir;
    QString m_publicKeyLine;
    QString m_hostKeySha256;
};

} // namespace cardhour::sim
