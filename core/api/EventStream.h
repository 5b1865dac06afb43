#pragma once

#include "api/Models.h"
#include "api/SseParser.h"

#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace cardhour::core {

// The provider's GET /v1/events (server-sent events), kept open: after the stream is lost it
// reconnects with growing delays (1 s, 2 s, 4 s ... 30 s, with some jitter; the server's
// `retry:` sets the first one) and sends Last-Event-ID, so buffered events it missed are
// replayed. The UI shows a banner while state() is not Connected.
//
// After every connected() the UI should reload its lists (instances, summary): the provider
// keeps only its last 2048 events, and a restarted provider starts its ids again, so a gap
// can never be assumed to have been filled by replay alone.
class EventStream : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle, // not started, stopped, or ended by a 401
        Connecting, // a request is out, no answer yet
        Connected, // the stream is open
        Waiting, // lost; the next attempt is scheduled
    };
    Q_ENUM(State)

    explicit EventStream(QObject *parent = nullptr);
    ~EventStream() override;

    void setBaseUrl(const QUrl &url);
    void setToken(const QString &token);
    // Certificate authorities trusted for https:// besides the system's (as ProviderClient).
    void setCaCertificates(const QList<QSslCertificate> &certificates);
    // Bounds of the reconnect delay (default 1 000 and 30 000 ms).
    void setReconnectDelays(int minMs, int maxMs);
    // With no byte for this long (the provider sends a keep-alive every 15 s) the connection is
    // taken as dead and replaced (default 45 000 ms).
    void setStallTimeoutMs(int ms);

    // Connects (again) and keeps reconnecting until stop(). Restarting keeps lastEventId().
    void start();
    void stop();

    State state() const { return m_state; }
    bool isConnected() const { return m_state == State::Connected; }
    // The id of the last event received (-1: none yet). Sent as Last-Event-ID on reconnects.
    qint64 lastEventId() const;
    // To resume from a known point (e.g. after replacing the stream object).
    void setLastEventId(qint64 id);
    // The Last-Event-ID the latest connection attempt carried (-1: none).
    qint64 lastSentEventId() const { return m_lastSentEventId; }
    // Connections opened so far (tests and diagnostics).
    int connectionCount() const { return m_connectionCount; }

Q_SIGNALS:
    void stateChanged(cardhour::core::EventStream::State state);
    void connected();
    // The stream was lost (or could not be opened); a reconnect follows unless stopped.
    void disconnected(const QString &reason);
    // Every event, as received (hello, instance, billing, metrics, snapshot, and types this client
    // does not know).
    void eventReceived(const cardhour::core::SseEvent &event);
    void hello(const QString &userId);
    void instanceChanged(const cardhour::core::Instance &instance);
    // The SSE `billing` event: a summary without `instances`.
    void billingChanged(const cardhour::core::BillingSummary &summary);
    // The SSE `metrics` event: one telemetry sample of a running instance (sample.instanceId).
    // These carry no id and are not replayed after a reconnect.
    void metricsReceived(const cardhour::core::MetricsSample &sample);
    // The SSE `snapshot` event: a snapshot was created, became ready or failed, or was deleted.
    void snapshotChanged(const cardhour::core::Snapshot &snapshot);
    // The SSE `spending_limits` event: the limits changed, an alert was crossed, or a cap
    // stopped hosts.
    void spendingLimitsChanged(const cardhour::core::SpendingLimits &limits);
    // The SSE `instance.stop_warning` event: the provider will stop an instance soon.
    void stopWarning(const cardhour::core::StopWarning &warning);
    // The SSE `instance.interruption_notice`: an interruptible host is stopped at a deadline.
    void interruptionNotice(const cardhour::core::InterruptionNotice &notice);
    // The SSE `instance.auto_restart`: an interrupted host was started again.
    void autoRestarted(const QString &instanceId);
    // The provider refused the token (401); the stream stays stopped.
    void sessionExpired();

private:
    void connectNow();
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void lose(const QString &reason);
    void scheduleReconnect();
    void setState(State state);
    void dispatch(const SseEvent &event);
    void dropReply();

    QNetworkAccessManager *m_nam = nullptr;
    QPointer<QNetworkReply> m_reply;
    QTimer *m_retryTimer = nullptr;
    QTimer *m_stallTimer = nullptr;
    SseParser m_parser;
    QUrl m_baseUrl;
    QString m_token;
    QList<QSslCertificate> m_caCertificates;
    // Built for the first https:// request: asking Qt for its default TLS configuration loads
    // the TLS backend and the system's CA store, which a plain-http sandbox never needs.
    std::optional<QSslConfiguration> m_tls;
    QString m_tlsRefusal; // why the current attempt's certificate was refused, if it was
    State m_state = State::Idle;
    bool m_running = false;
    int m_attempt = 0;
    int m_minDelayMs = 1000;
    int m_maxDelayMs = 30000;
    qint64 m_lastSentEventId = -1;
    int m_connectionCount = 0;
};

} // namespace cardhour::core
