#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTcpSocket>

namespace cardhour::http {

// An open server-sent-events connection. Owned through shared_ptr by whoever subscribes;
// writing after the peer went away is a no-op. Emits closed() once when the peer disconnects.
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
    // Bytes queued in the socket but not yet written; lets a publisher drop slow readers.
    qint64 pendingBytes() const;

Q_SIGNALS:
    void closed();

private:
    QPointer<QTcpSocket> m_socket;
    bool m_closedEmitted = false;
};

} // namespace cardhour::http
