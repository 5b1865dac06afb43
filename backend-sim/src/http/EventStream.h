#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTcpSocket>

namespace cardhour::http {

// An open server-sent-events connection. Owned through shared_ptr by whoever subscribes;
// writing after the peer went away is a no-op. Emits closed() once when the peer disconnects.
// A reader that does not keep up is cut off rather than buffered for: once more than
// maxBacklog() bytes wait to be sent, the next write is replaced by a last `cut_off` event
// (data: {"reason":"backlog","backlog_bytes":N,"limit_bytes":M}) and the connection closes
// once the reader has taken what was queued, or is aborted cutOffGraceMs() later if it has
// not; the stream is closed from then on (the client reconnects with Last-Event-ID).
class EventStream : public QObject
{
    Q_OBJECT
public:
    explicit EventStream(QTcpSocket *socket, QObject *parent = nullptr);
    ~EventStream() override;

    // Writes "id: <id>\nevent: <event>\ndata: <line>\n...\n\n". `data` may hold newlines;
    // each line gets its own "data:" field. id < 0 omits the id field.
    void send(QByteArrayView event, QByteArrayView data, qint64 id = -1);
    // Writes ": <text>\n\n" (a keep-alive comment).
    void comment(QByteArrayView text);
    // Closes the connection from our side.
    void close();
    bool isOpen() const;
    // Bytes queued in the socket but not yet written.
    qint64 pendingBytes() const;

    static constexpr qint64 kDefaultMaxBacklog = 1024 * 1024;
    void setMaxBacklog(qint64 bytes) { m_maxBacklog = bytes; }
    qint64 maxBacklog() const { return m_maxBacklog; }
    void setCutOffGraceMs(int ms) { m_cutOffGraceMs = ms; } // default 10 s
    int cutOffGraceMs() const { return m_cutOffGraceMs; }
    bool wasCutOff() const { return m_cutOff; }

Q_SIGNALS:
    void closed();

private:
    // False (and the reader cut off) when the backlog is over the limit.
    bool roomFor(qsizetype bytes);

    QPointer<QTcpSocket> m_socket;
    bool m_closedEmitted = false;
    bool m_cutOff = false;
    qint64 m_maxBacklog = kDefaultMaxBacklog;
    int m_cutOffGraceMs = 10'000;
};

} // namespace cardhour::http
