#include "EventBus.h"

#include "core/Json.h"
#include "http/EventStream.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr std::size_t kRingSize = 2048;
constexpr int kHeartbeatMs = 15'000;
constexpr int kValidityCheckMs = 1000;
} // namespace

EventBus::EventBus(int maxStreams, QObject *parent) : QObject(parent), m_maxStreams(maxStreams)
{
    m_heartbeat.setInterval(kHeartbeatMs);
    connect(&m_heartbeat, &QTimer::timeout, this, [this] {
        for (const auto &list : std::as_const(m_streams)) {
            for (const Subscriber &s : list)
                s.stream->comment("keep-alive");
        }
        dropClosed();
    });
    m_heartbeat.start();
    m_validity.setInterval(kValidityCheckMs);
    connect(&m_validity, &QTimer::timeout, this, &EventBus::closeInvalid);
    m_validity.start();
}

EventBus::~EventBus()
{
    closeAll();
}

qint64 EventBus::publish(const QString &userId, const QString &type, const QJsonObject &data)
{
    Event event{m_nextSeq++, userId, type.toUtf8(), json::compact(data)};
    const auto it = m_streams.constFind(userId);
    if (it != m_streams.constEnd()) {
        for (const Subscriber &s : *it)
            send(*s.stream, event);
    }
    m_ring.push_back(std::move(event));
    if (m_ring.size() > kRingSize)
        m_ring.pop_front();
    dropClosed();
    return m_nextSeq - 1;
}

void EventBus::publishLive(const QString &userId, const QString &type, const QJsonObject &data)
{
    const auto it = m_streams.constFind(userId);
    if (it == m_streams.constEnd())
        return;
    const Event event{-1, userId, type.toUtf8(), json::compact(data)};
    for (const Subscriber &s : *it)
        send(*s.stream, event);
    dropClosed();
}

void EventBus::send(http::EventStream &stream, const Event &event)
{
    // A reader that does not keep up is cut off by the stream itself (EventStream's backlog).
    stream.send(event.type, event.data, event.seq);
}

void EventBus::subscribe(const QString &userId, std::shared_ptr<http::EventStream> stream,
                         qint64 lastEventId, Holder holder)
{
    stream->send("hello", json::compact(QJsonObject{{u"user_id"_s, userId}}), -1);
    if (lastEventId >= 0) {
        for (const Event &event : m_ring) {
            if (event.seq > lastEventId && event.userId == userId)
                send(*stream, event);
        }
    }
    QList<Subscriber> &streams = m_streams[userId];
    streams.removeIf([](const Subscriber &s) { return !s.stream->isOpen(); });
    while (streams.size() >= kMaxStreamsPerUser)
        streams.takeFirst().stream->close();
    streams.append({std::move(stream), std::move(holder)});
}

bool EventBus::isFull() const
{
    return subscriberCount() >= m_maxStreams;
}

void EventBus::closeStreamsOf(const QByteArray &token)
{
    if (token.isEmpty())
        return;
    for (const auto &list : std::as_const(m_streams)) {
        for (const Subscriber &s : list) {
            if (s.holder.token == token)
                s.stream->close();
        }
    }
    dropClosed();
}

void EventBus::closeInvalid()
{
    // One question per token, however many streams it holds.
    QHash<QByteArray, bool> valid;
    for (const auto &list : std::as_const(m_streams)) {
        for (const Subscriber &s : list) {
            if (!s.holder.stillValid)
                continue;
            auto known = valid.constFind(s.holder.token);
            if (known == valid.cend())
                known = valid.insert(s.holder.token, s.holder.stillValid());
            if (!*known)
                s.stream->close();
        }
    }
    dropClosed();
}

bool EventBus::hasSubscribers(const QString &userId) const
{
    return m_streams.contains(userId);
}

QStringList EventBus::subscribedUsers() const
{
    return m_streams.keys();
}

int EventBus::subscriberCount() const
{
    int count = 0;
    for (const auto &list : m_streams) {
        for (const Subscriber &s : list)
            count += s.stream->isOpen() ? 1 : 0;
    }
    return count;
}

void EventBus::dropClosed()
{
    for (auto it = m_streams.begin(); it != m_streams.end();) {
        it->removeIf([](const Subscriber &s) { return !s.stream->isOpen(); });
        if (it->isEmpty())
            it = m_streams.erase(it);
        else
            ++it;
    }
}

void EventBus::closeAll()
{
    for (const auto &list : std::as_const(m_streams)) {
        for (const Subscriber &s : list)
            s.stream->close();
    }
    m_streams.clear();
}

} // namespace cardhour::sim
