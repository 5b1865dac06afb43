#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::core {

// One server-sent event as dispatched.
struct SseEvent
{
    QString type = QStringLiteral("message"); // `event:`; "message" when the server named none
    QByteArray data; // `data:` lines joined with '\n'
    QByteArray lastEventId; // the stream's last event id when it was dispatched
    bool hasId = false; // this event itself carried an `id:` field
};

// The event-stream format of the HTML Living Standard ("server-sent events"), fed in chunks
// as they arrive: lines end in LF, CRLF or CR (also split across chunks); a leading BOM is
// dropped; `:` lines are comments; several `data:` lines make one event; a blank line
// dispatches; an event with no data is not dispatched; `id:` persists across events (an id
// with NUL is ignored); `retry:` takes only ASCII digits. Pure: no I/O, fuzzable.
class SseParser
{
public:
    // Parses `chunk` and returns the events it completed, in order.
    QList<SseEvent> feed(QByteArrayView chunk);
    // A new connection: partial lines and fields are dropped, the last event id is kept.
    void resetConnection();

    QByteArray lastEventId() const { return m_lastEventId; }
    void setLastEventId(const QByteArray &id) { m_lastEventId = id; }
    // The last `retry:` value in milliseconds, if the server sent one.
    std::optional<int> retryMs() const { return m_retryMs; }
    // Comment lines seen so far (the provider's keep-alives); lets a watchdog see life.
    qint64 commentCount() const { return m_comments; }

    // A line, or one event's data, longer than this stops the parser (a server that never
    // ends a line would otherwise fill the client's memory): feed() returns no more events
    // until resetConnection(), and overflowed() says so; the caller drops the connection.
    static constexpr qsizetype kMaxLineBytes = 1024 * 1024;
    static constexpr qsizetype kMaxEventDataBytes = 4 * 1024 * 1024;
    bool overflowed() const { return m_overflowed; }

private:
    void processLine(QByteArrayView line, QList<SseEvent> *out);
    void overflow();

    QByteArray m_line;
    bool m_lastWasCr = false;
    bool m_bomChecked = false;
    QByteArray m_data;
    QString m_type;
    bool m_eventHasId = false;
    QByteArray m_lastEventId;
    std::optional<int> m_retryMs;
    qint64 m_comments = 0;
    bool m_overflowed = false;
};

} // namespace cardhour::core
