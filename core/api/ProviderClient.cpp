#include "api/ProviderClient.h"

#include "api/TlsTrust.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUuid>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::core {

// ---- ApiReply -------------------------------------------------------------------------------

ApiReply::ApiReply(QObject *parent) : QObject(parent) {}

ApiReply::~ApiReply()
{
    // Destroyed while in flight (its client went away): drop the request too.
    if (m_network && !m_network->isFinished()) {
        m_network->disconnect(this);
        m_network->abort();
    }
}

void ApiReply::abort()
{
    if (m_finished)
        return;
    m_cancelled = true;
    if (m_network && !m_network->isFinished())
        m_network->abort(); // finished() runs the usual path, which sees m_cancelled
    else
        finishWith(ApiError::cancelled());
}

void ApiReply::finishWith(const ApiError &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    if (m_timer)
        m_timer->stop();
    if (m_network)
        m_network->deleteLater();
    Q_EMIT finished();
    deleteLater();
}

bool ProviderClient::isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host == u"localhost"_s)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString ProviderClient::insecureUrlProblem(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    if (scheme == u"https"_s)
        return {};
    if (scheme == u"http"_s && isLoopback(url))
        return {};
    if (scheme == u"http"_s)
        return tr("CardHour does not use plain http:// with %1, which is not on this computer: "
                  "your password and token would cross the network unencrypted, readable by "
                  "anyone on the way. Use the provider's https:// address.")
            .arg(url.host());
    return tr("%1 is not an http:// or https:// address.").arg(url.toDisplayString());
}

// ---- ProviderClient --------------------------------------------------------------------------

ProviderClient::ProviderClient(QObject *parent)
    : QObject(parent), m_nam(new QNetworkAccessManager(this))
{}

ProviderClient::~ProviderClient()
{
    // Replies in flight go first, each aborting its request, so that no network reply can
    // report back into a half-destroyed client.
    const QList<ApiReply *> replies = findChildren<ApiReply *>(Qt::FindDirectChildrenOnly);
    for (ApiReply *reply : replies)
        delete reply;
}

void ProviderClient::setBaseUrl(const QUrl &url)
{
    m_baseUrl = url;
    // A proxy from the environment must never see the local sandbox (or its token).
    m_nam->setProxy(isLoopback(url) ? QNetworkProxy(QNetworkProxy::NoProxy) : QNetworkProxy());
}

void ProviderClient::setToken(const QString &token)
{
    m_token = token;
}

void ProviderClient::setCaCertificates(const QList<QSslCertificate> &certificates)
{
    m_caCertificates = certificates;
    m_tls.reset();
}

QUrl ProviderClient::endpoint(const QUrl &base, const QString &path, const QUrlQuery &query)
{
    QUrl url = base;
    QString prefix = base.path();
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    url.setPath(prefix + path);
    url.setQuery(query);
    url.setFragment({});
    return url;
}

QString ProviderClient::newIdempotencyKey()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

void ProviderClient::start(ApiReply *reply, const QByteArray &method, const QUrl &url,
                           const QByteArray &body, Auth auth,
                           const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    if (!m_baseUrl.isValid() || m_baseUrl.isRelative()) {
        // Finish on the next turn of the event loop: callers connect after the call returns.
        QTimer::singleShot(0, reply, [reply] {
            reply->finishWith(ApiError::network(u"no provider address is set"_s));
        });
        return;
    }
    if (const QString why = insecureUrlProblem(m_baseUrl); !why.isEmpty()) {
        QTimer::singleShot(0, reply, [reply, why] { reply->finishWith(ApiError::network(why)); });
        return; // nothing sent: not the token, not the password
    }
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (url.scheme().compare(u"https"_s, Qt::CaseInsensitive) == 0) {
        if (!m_tls)
            m_tls = TlsTrust::configuration(m_caCertificates);
        request.setSslConfiguration(*m_tls);
    }
    request.setRawHeader("Accept"_ba, "application/json"_ba);
    request.setRawHeader("User-Agent"_ba, "CardHour/0.1"_ba);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    if (auth == Auth::Bearer && !m_token.isEmpty())
        request.setRawHeader("Authorization"_ba, "Bearer "_ba + m_token.toUtf8());
    if (!reply->m_idempotencyKey.isEmpty())
        request.setRawHeader("Idempotency-Key"_ba, reply->m_idempotencyKey.toUtf8());
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);

    QNetworkReply *network = m_nam->sendCustomRequest(request, method, body);
    reply->m_network = network;
    reply->m_timer = new QTimer(reply);
    reply->m_timer->setSingleShot(true);
    connect(reply->m_timer, &QTimer::timeout, reply, [reply] {
        reply->m_timedOut = true;
        if (reply->m_network)
            reply->m_network->abort();
    });
    reply->m_timer->start(m_timeoutMs);
    // A certificate that does not verify ends the handshake (nothing is ignored, so no request
    // is sent); what was wrong with it is kept for the error.
    auto tlsRefusal = std::make_shared<QString>();
    connect(network, &QNetworkReply::sslErrors, reply,
            [this, tlsRefusal, host = url.host()](const QList<QSslError> &errors) {
                *tlsRefusal = TlsTrust::refusal(host, errors, !m_caCertificates.isEmpty());
            });
    // The token this request carried: a 401 to an older token must not end a newer session.
    const QString tokenSent = auth == Auth::Bearer ? m_token : QString();
    QElapsedTimer sent;
    sent.start();
    connect(network, &QNetworkReply::finished, reply, [this, reply, tokenSent, tlsRefusal, sent] {
        if (reply->m_network && !reply->m_cancelled && !reply->m_timedOut
            && reply->m_network->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0)
            Q_EMIT answered(sent.elapsed());
        onNetworkFinished(reply, *tlsRefusal);
        if (reply->error().isUnauthorized() && !tokenSent.isEmpty() && tokenSent == m_token)
            Q_EMIT sessionExpired();
    });
}

void ProviderClient::onNetworkFinished(ApiReply *reply, const QString &tlsRefusal)
{
    QNetworkReply *network = reply->m_network;
    if (!network)
        return;
    if (reply->m_cancelled) {
        reply->finishWith(ApiError::cancelled());
        return;
    }
    if (reply->m_timedOut) {
        reply->finishWith(ApiError::timeout(m_timeoutMs));
        return;
    }
    const int status = network->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->m_httpStatus = status;
    if (status == 0) {
        reply->finishWith(tlsRefusal.isEmpty() ? ApiError::network(network->errorString())
                                               : ApiError::certificateRefused(tlsRefusal));
        return;
    }
    reply->m_replayed = network->rawHeader("Idempotent-Replayed"_ba) == "true";
    const QByteArray data = network->readAll();
    QJsonParseError parseError{};
    const QJsonDocument doc =
        data.isEmpty() ? QJsonDocument() : QJsonDocument::fromJson(data, &parseError);

    if (status >= 400) {
        // `{"error":{"code","message"}}`; a proxy or a crashed provider may send anything else,
        // which still is an HTTP error (with the reason phrase as the message).
        const QJsonObject error = doc.object().value("error"_L1).toObject();
        QString message = error.value("message"_L1).toString();
        if (message.isEmpty())
            message = network->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        ApiError failure = ApiError::http(status, error.value("code"_L1).toString(), message);
        failure.details = error.value("details"_L1).toObject();
        reply->finishWith(failure);
        return;
    }
    if (status == 204) {
        QString problem;
        reply->finishWith(reply->parseBody(QJsonDocument(), &problem)
                              ? ApiError()
                              : ApiError::invalidJson(status, problem));
        return;
    }
    if (parseError.error != QJsonParseError::NoError || doc.isNull()) {
        reply->finishWith(ApiError::invalidJson(
            status, data.isEmpty() ? u"empty body"_s : parseError.errorString()));
        return;
    }
    QString problem;
    if (!reply->parseBody(doc, &problem)) {
        reply->finishWith(ApiError::invalidJson(status, problem));
        return;
    }
    reply->finishWith(ApiError());
}

} // namespace cardhour::core
