#pragma once

#include "api/ApiError.h"

#include <QJsonDocument>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

class QNetworkReply;
class QTimer;

namespace cardhour::core {

class ProviderClient;

// One call in flight to the provider. ProviderClient makes it; it finishes exactly once,
// always asynchronously (never inside the call that made it), with either a value (ok()) or
// an error(). It deletes itself (deleteLater) after finished() has been delivered, so read it
// in the slot and do not keep the pointer. Destroying the ProviderClient destroys its replies
// still in flight without a finished().
//
//   auto *reply = client->me();
//   reply->onFinished(this, [this](const Reply<Account> &r) {
//       if (r.ok()) show(r.value()); else showError(r.error().userMessage());
//   });
class ApiReply : public QObject
{
    Q_OBJECT
public:
    ~ApiReply() override;

    bool isFinished() const { return m_finished; }
    bool ok() const { return m_finished && !m_error.isError(); }
    const ApiError &error() const { return m_error; }
    // The HTTP status of the response; 0 if none arrived.
    int httpStatus() const { return m_httpStatus; }
    // The Idempotency-Key the request carried (empty if none): pass it again to retry safely.
    QString idempotencyKey() const { return m_idempotencyKey; }
    // The provider answered with its stored response to an earlier request with the same key.
    bool replayed() const { return m_replayed; }

    // Cancels the request; finished() follows at once with ApiError::Kind::Cancelled.
    void abort();

Q_SIGNALS:
    void finished();

protected:
    explicit ApiReply(QObject *parent);
    // Reads the typed value from a successful response; false (with `problem`) if the body
    // is not what the API promises.
    virtual bool parseBody(const QJsonDocument &body, QString *problem) = 0;

private:
    friend class ProviderClient;
    void finishWith(const ApiError &error);

    QPointer<QNetworkReply> m_network;
    QTimer *m_timer = nullptr;
    ApiError m_error;
    QString m_idempotencyKey;
    int m_httpStatus = 0;
    bool m_finished = false;
    bool m_timedOut = false;
    bool m_cancelled = false;
    bool m_replayed = false;
};

// A 204 answer (log-out, deleting a key): nothing to read.
struct NoContent
{};

template<typename T>
class Reply final : public ApiReply
{
public:
    using Parser = std::function<std::optional<T>(const QJsonDocument &, QString *problem)>;

    Reply(Parser parser, QObject *parent) : ApiReply(parent), m_parser(std::move(parser)) {}

    // The result; only meaningful when ok().
    const T &value() const { return *m_value; }

    // Calls `done(*this)` once finished, as long as `context` lives.
    template<typename Callback>
    void onFinished(const QObject *context, Callback done)
    {
        QObject::connect(this, &ApiReply::finished, context,
                         [this, done = std::move(done)] { done(*this); });
    }

private:
    bool parseBody(const QJsonDocument &body, QString *problem) override
    {
        m_value = m_parser(body, problem);
        return m_value.has_value();
    }

    Parser m_parser;
    std::optional<T> m_value;
};

} // namespace cardhour::core
