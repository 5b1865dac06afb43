#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <deque>
#include <functional>
#include <memory>

namespace cardhour::http {
class EventStream;
}

namespace cardhour::sim {

// Publishes per-user events (instance changes, billing updates) to open SSE streams.
// Keeps the last events in a ring so a client that reconnects with Last-Event-ID gets what it
// missed; streams that fall far behind (a stuck reader) are closed rather than buffered forever.
class EventBus : public QObject
{
    Q_OBJECT
public:
    // `maxStreams`: open streams of all users together, kept below the HTTP server's connection
    // cap so that streams alone can never take every connection (isFull()).
    explicit EventBus(int maxStreams = kDefaultMaxStreams, QObject *parent = nullptr);
    ~EventBus() override;

    // Returns the event's sequence number.
    qint64 publish(const QString &userId, const QString &type, const QJsonObject &data);

    // Sends to the user's open streams now, without an id and without keeping it for replay:
    // for live numbers (metrics at 1 Hz) that a reconnecting client does not need again and
    // that would otherwise push the events it does need out of the ring.
    void publishLive(const QString &userId, const QString &type, const QJsonObject &data);
    // At most this many open streams per user: a new one closes that user's oldest (a client
    // that reconnects after a network change is not refused because of a half-dead stream).
    static constexpr int kMaxStreamsPerUser = 8;
    static constexpr int kDefaultMaxStreams = 256;
    // Who holds a stream: its bearer token, and whether that token still lets its holder in
    // (asked about once a second: a stream ends with log-out, revocation or expiry).
    struct Holder
    {
        QByteArray token;
        std::function<bool()> stillValid;
    };
    // Attaches a stream for `userId`; replays retained events after `lastEventId` (if >= 0).
    void subscribe(const QString &userId, std::shared_ptr<http::EventStream> stream,
                   qint64 lastEventId, Holder holder = {});
    // No room for another stream: the caller refuses it (503) instead of subscribing.
    bool isFull() const;
    // Ends every stream opened with `token` (log-out).
    void closeStreamsOf(const QByteArray &token);
    bool hasSubscribers(const QString &userId) const;
    QStringList subscribedUsers() const;
    int subscriberCount() const;
    void closeAll();

private:
    struct Event
    {
        qint64 seq;
        QString userId;
        QByteArray type;
        QByteArray data;
    };
    struct Subscriber
    {
        std::shared_ptr<http::EventStream> stream;
        Holder holder;
    };
    void send(http::EventStream &stream, const Event &event);
    void dropClosed();
    void closeInvalid();

    qint64 m_nextSeq = 1;
    std::deque<Event> m_ring;
    QHash<QString, QList<Subscriber>> m_streams;
    int m_maxStreams;
    QTimer m_heartbeat;
    QTimer m_validity;
};

} // namespace cardhour::sim
