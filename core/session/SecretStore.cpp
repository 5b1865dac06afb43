#include "session/SecretStore.h"

#include <QTimer>
#include <qt6keychain/keychain.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SecretReply::SecretReply(QObject *parent) : QObject(parent) {}

void SecretReply::finish(Status status, const QString &secret, const SecretProblem &problem)
{
    if (m_status != Status::Pending)
        return;
    m_status = status;
    m_secret = secret;
    m_problem = problem;
    if (m_timer)
        m_timer->stop();
    Q_EMIT finished();
    deleteLater();
}

QString SecretReply::reason() const
{
    return SecretStore::describe(m_problem);
}

QString SecretStore::describe(const SecretProblem &problem)
{
    using K = SecretProblem::Kind;
    switch (problem.kind) {
    case K::None:
        return {};
    case K::NoAnswer:
        return tr("The system keychain did not answer.");
    case K::Denied:
        return tr("Access to the system keychain was denied (%1).").arg(problem.detail);
    case K::NoKeychain:
        return tr("No system keychain is available (%1).").arg(problem.detail);
    case K::Failed:
        break;
    }
    return tr("The system keychain failed (%1).").arg(problem.detail);
}

SecretStore::SecretStore(const QString &service, QObject *parent)
    : QObject(parent), m_service(service)
{}

SecretReply *SecretStore::readToken(const QString &key)
{
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    return run(job);
}

SecretReply *SecretStore::writeToken(const QString &key, const QString &token)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setTextData(token);
    return run(job);
}

SecretReply *SecretStore::deleteToken(const QString &key)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    return run(job);
}

SecretReply *SecretStore::run(QKeychain::Job *job)
{
    auto *reply = new SecretReply(this);
    // Never fall back to a plain file: a token on disk in clear is worse than logging in again.
    job->setInsecureFallback(false);
    job->setAutoDelete(true);
    reply->m_job = job;
    reply->m_timer = new QTimer(reply);
    reply->m_timer->setSingleShot(true);
    connect(reply->m_timer, &QTimer::timeout, reply, [reply] {
        // The job may still finish later (a prompt answered after all); its result is dropped,
        // since the caller has already moved on.
        reply->finish(SecretReply::Status::Unavailable, {}, {SecretProblem::Kind::NoAnswer, {}});
    });
    connect(job, &QKeychain::Job::finished, reply, [reply](QKeychain::Job *done) {
        using S = SecretReply::Status;
        using K = SecretProblem::Kind;
        const QString detail = done->errorString();
        switch (done->error()) {
        case QKeychain::NoError: {
            const auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(done);
            reply->finish(S::Ok, read ? read->textData() : QString());
            return;
        }
        case QKeychain::EntryNotFound:
            reply->finish(S::NotFound, {});
            return;
        case QKeychain::AccessDeniedByUser:
        case QKeychain::AccessDenied:
            reply->finish(S::Denied, {}, {K::Denied, detail});
            return;
        case QKeychain::NoBackendAvailable:
        case QKeychain::NotImplemented:
            reply->finish(S::Unavailable, {}, {K::NoKeychain, detail});
            return;
        case QKeychain::CouldNotDeleteEntry:
        case QKeychain::OtherError:
            break;
        }
        reply->finish(S::Unavailable, {}, {K::Failed, detail});
    });
    reply->m_timer->start(m_timeoutMs);
    // Some backends fail at once inside start(); starting on the next turn of the event loop
    // guarantees that the caller has connected to finished() first.
    QMetaObject::invokeMethod(job, &QKeychain::Job::start, Qt::QueuedConnection);
    return reply;
}

} // namespace cardhour::core
