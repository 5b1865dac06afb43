#include "api/EventStream.h"

#include "api/ProviderClient.h"
#include "api/TlsTrust.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::core {

EventStream::EventStream(QObject *parent)
    : QObject(parent), m_nam(new QNetworkAccessManager(this)), m_retryTimer(new QTimer(this)),
      m_stallTimer(new QTimer(this))
{
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &EventStream::connectNow);
    m_stallTimer->setSingleShot(true);
    m_stallTimer->setInterval(45000);
    connect(m_stallTimer, &QTimer::timeout, this,
            [this] { lose(tr("The event stream went silent.")); });
}

EventStream::~EventStream()
{
    m_running = false;
    dropReply();
}

void EventStream::setBaseUrl(const QUrl &url)
{
    m_baseUrl = url;
    m_nam->setProxy(ProviderClient::isLoopback(url) ? QNetworkProxy(QNetworkProxy::NoProxy)
                                                    : QNetworkProxy());
}

void EventStream::setToken(const QString &token)
{
    m_token = token;
}

void EventStream::setCaCertificates(const QList<QSslCertificate> &certificates)
{
    m_caCertificates = certificates;
    m_tls.reset();
}

void EventStream::setReconnectDelays(int minMs, int maxMs)
{
    m_minDelayMs = std::max(1, minMs);
    m_maxDelayMs = std::max(m_minDelayMs, maxMs);
}

void EventStream::setStallTimeoutMs(int ms)
{
    m_stallTimer->setInterval(ms);
}

qint64 EventStream::lastEventId() const
{
    bool ok = false;
    const qint64 id = m_parser.lastEventId().toLongLong(&ok);
    return ok ? id : -1;
}

void EventStream::setLastEventId(qint64 id)
{
    m_parser.setLastEventId(id < 0 ? QByteArray() : QByteArray::number(id));
}

void EventStream::start()
{
    m_running = true;
    m_attempt = 0;
    m_retryTimer->stop();
    dropReply();
    connectNow();
}

void EventStream::stop()
{
    m_running = false;
    m_retryTimer->stop();
    m_stallTimer->stop();
    const bool wasConnected = m_state == State::Connected;
    dropReply();
    setState(State::Idle);
    if (wasConnected)
        Q_EMIT disconnected(tr("The event stream was closed."));
}

void EventStream::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void EventStream::dropReply()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

void EventStream::connectNow()
{
    if (!m_running)
        return;
    dropReply();
    if (const QString why = ProviderClient::insecureUrlProblem(m_baseUrl); !why.isEmpty()) {
        // The token would go in clear: no stream, and no reconnecting either.
        m_running = false;
        setState(State::Idle);
        Q_EMIT disconnected(why);
        return;
    }
    m_parser.resetConnection();
    QNetworkRequest request(ProviderClient::endpoint(m_baseUrl, u"/v1/events"_s));
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    if (m_baseUrl.scheme().compare(u"https"_s, Qt::CaseInsensitive) == 0) {
        if (!m_tls)
            m_tls = TlsTrust::configuration(m_caCertificates);
        request.setSslConfiguration(*m_tls);
    }
    request.setRawHeader("Accept"_ba, "text/event-stream"_ba);
    request.setRawHeader("Cache-Control"_ba, "no-cache"_ba);
    request.setRawHeader("User-Agent"_ba, "CardHour/0.1"_ba);
    if (!m_token.isEmpty())
        request.setRawHeader("Authorization"_ba, "Bearer "_ba + m_token.toUtf8());
    m_lastSentEventId = lastEventId();
    if (m_lastSentEventId >= 0)
        request.setRawHeader("Last-Event-ID"_ba, QByteArray::number(m_lastSentEventId));

    setState(State::Connecting);
    m_tlsRefusal.clear();
    m_reply = m_nam->get(request);
    // Nothing is ignored: a certificate that does not verify ends the handshake before the
    // token is sent; the reason is kept for disconnected().
    connect(m_reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError> &errors) {
        m_tlsRefusal = TlsTrust::refusal(m_baseUrl.host(), errors, !m_caCertificates.isEmpty());
    });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &EventStream::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &EventStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &EventStream::onFinished);
    // A connection attempt that hangs counts as stalled too.
    m_stallTimer->start();
}

void EventStream::onMetaData()
{
    if (!m_reply || m_state == State::Connected)
        return;
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray type = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    if (status != 200 || !type.startsWith("text/event-stream"))
        return; // onFinished() reports it once the (error) body is complete
    ++m_connectionCount;
    m_attempt = 0;
    m_stallTimer->start();
    setState(State::Connected);
    Q_EMIT connected();
}

void EventStream::onReadyRead()
{
    if (!m_reply)
        return;
    if (m_state != State::Connected) {
        onMetaData();
        if (m_state != State::Connected)
            return; // an error body: read in onFinished()
    }
    m_stallTimer->start();
    const QByteArray chunk = m_reply->readAll();
    const QList<SseEvent> events = m_parser.feed(chunk);
    for (const SseEvent &event : events) {
        dispatch(event);
        if (!m_reply)
            return; // a slot stopped or restarted the stream
    }
    if (m_parser.overflowed())
        lose(tr("The provider sent an event stream line longer than %1 MiB; the stream was "
                "dropped.")
                 .arg(SseParser::kMaxLineBytes / (1024 * 1024)));
}

void EventStream::dispatch(const SseEvent &event)
{
    Q_EMIT eventReceived(event);
    if (event.type == u"hello"_s || event.type == u"instance"_s || event.type == u"billing"_s
        || event.type == u"metrics"_s || event.type == u"snapshot"_s
        || event.type == u"spending_limits"_s || event.type == u"instance.stop_warning"_s
        || event.type == u"instance.interruption_notice"_s
        || event.type == u"instance.auto_restart"_s) {
        const QJsonObject data = QJsonDocument::fromJson(event.data).object();
        if (event.type == u"hello"_s)
            Q_EMIT hello(data.value("user_id"_L1).toString());
        else if (event.type == u"instance"_s)
            Q_EMIT instanceChanged(Instance::fromJson(data));
        else if (event.type == u"metrics"_s)
            Q_EMIT metricsReceived(MetricsSample::fromJson(data));
        else if (event.type == u"snapshot"_s)
            Q_EMIT snapshotChanged(Snapshot::fromJson(data));
        else if (event.type == u"spending_limits"_s)
            Q_EMIT spendingLimitsChanged(SpendingLimits::fromJson(data));
        else if (event.type == u"instance.stop_warning"_s)
            Q_EMIT stopWarning(StopWarning::fromJson(data));
        else if (event.type == u"instance.interruption_notice"_s)
            Q_EMIT interruptionNotice(InterruptionNotice::fromJson(data));
        else if (event.type == u"instance.auto_restart"_s)
            Q_EMIT autoRestarted(data.value("instance_id"_L1).toString());
        else
            Q_EMIT billingChanged(BillingSummary::fromJson(data));
    }
}

void EventStream::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 401) {
        m_running = false;
        m_stallTimer->stop();
        dropReply();
        setState(State::Idle);
        Q_EMIT sessionExpired();
        return;
    }
    QString reason;
    if (status == 0 && !m_tlsRefusal.isEmpty()) {
        reason = m_tlsRefusal;
    } else if (status == 0 || (status == 200 && reply->error() != QNetworkReply::NoError)) {
        reason = reply->errorString();
    } else if (status != 200) {
        const QJsonObject error =
            QJsonDocument::fromJson(reply->readAll()).object().value("error"_L1).toObject();
        reason = tr("The provider refused the event stream (HTTP %1 %2).")
                     .arg(status)
                     .arg(error.value("message"_L1).toString());
    } else {
        reason = tr("The provider closed the event stream.");
    }
    lose(reason);
}

void EventStream::lose(const QString &reason)
{
    m_stallTimer->stop();
    dropReply();
    if (!m_running) {
        setState(State::Idle);
        return;
    }
    scheduleReconnect();
    // Reported for failed attempts too, not only for lost streams: the banner can say why.
    Q_EMIT disconnected(reason);
}

void EventStream::scheduleReconnect()
{
    // Exponential backoff from the server's `retry:` (or our minimum), capped, with +-20 %
    // jitter so that many clients of one restarted provider do not come back in step.
    const int base =
        std::clamp(m_parser.retryMs().value_or(m_minDelayMs), m_minDelayMs, m_maxDelayMs);
    const qint64 grown = qint64(base) << std::min(m_attempt, 16);
    const int delay = int(std::min<qint64>(grown, m_maxDelayMs));
    const int jitter = delay / 5;
    const int jittered = jitter > 0
        ? delay - jitter + int(QRandomGenerator::global()->bounded(2 * jitter + 1))
        : delay;
    ++m_attempt;
    setState(State::Waiting);
    m_retryTimer->start(std::max(1, jittered));
}

} // namespace cardhour::core
