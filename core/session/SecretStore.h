#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QTimer;

namespace QKeychain {
class Job;
}

namespace cardhour::core {

// Why the keychain did not do what was asked, kept as data: SecretStore::describe() makes the
// sentence when it is needed, in the language of that moment (a message still on screen after
// a switch of language is said again in the new one).
struct SecretProblem
{
    enum class Kind {
        None,
        NoAnswer, // silent for SecretStore::timeoutMs()
        Denied, // the user or the system refused access
        NoKeychain, // no backend on this system
        Failed, // any other error of the backend
    };
    Kind kind = Kind::None;
    QString detail; // the backend's own words (QtKeychain's errorString), as it gave them
};

// The result of one keychain operation; finishes once, asynchronously, then deletes itself.
class SecretReply : public QObject
{
    Q_OBJECT
public:
    enum class Status {
        Pending,
        Ok, // done (read: secret() holds the value)
        NotFound, // read/delete: nothing stored under this key
        Denied, // the user or the system refused access
        Unavailable, // no keychain, or it did not answer: keep the secret for this session only
    };
    Q_ENUM(Status)

    Status status() const { return m_status; }
    bool ok() const { return m_status == Status::Ok; }
    QString secret() const { return m_secret; }
    // What went wrong when the status is Denied or Unavailable (empty otherwise).
    SecretProblem problem() const { return m_problem; }
    // The same as a plain sentence in the current language.
    QString reason() const;

Q_SIGNALS:
    void finished();

private:
    friend class SecretStore;
    explicit SecretReply(QObject *parent);
    void finish(Status status, const QString &secret, const SecretProblem &problem = {});

    Status m_status = Status::Pending;
    QString m_secret;
    SecretProblem m_problem;
    QPointer<QKeychain::Job> m_job;
    QTimer *m_timer = nullptr;
};

// The one place that talks to the platform keychain (QtKeychain: Secret Service on Linux,
// Keychain on macOS, Credential Manager on Windows). It stores one provider token per key
// (see Session::providerKey). There is no insecure fallback: when the keychain is missing,
// locked without a prompt, or silent for timeoutMs(), the reply says Unavailable with a reason,
// and the caller keeps the token in memory only.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    // `service` names the entries in the keychain ("CardHour"; tests use their own).
    explicit SecretStore(const QString &service = QStringLiteral("CardHour"),
                         QObject *parent = nullptr);

    QString service() const { return m_service; }
    // How long an operation may take before it counts as Unavailable (default 15 s: a
    // keychain that prompts the user needs time; one that never answers must not hang us).
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

    // `problem` as a plain sentence in the current language (empty for no problem).
    static QString describe(const SecretProblem &problem);

    SecretReply *readToken(const QString &key);
    SecretReply *writeToken(const QString &key, const QString &token);
    SecretReply *deleteToken(const QString &key);

private:
    SecretReply *run(QKeychain::Job *job);

    QString m_service;
    int m_timeoutMs = 15000;
};

} // namespace cardhour::core
