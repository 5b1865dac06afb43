#include "EventStream.h"

#include <QAbstractSocket>
#include <QMetaObject>
#include <QTimer>

namespace cardhour::http {

using namespace Qt::StringLiterals;

namespace {

// Field values must not contain line breaks (they would end the field or the event).
QByteArray singleLine(QByteArrayView text)
{
    QByteArray result = text.toByteArray();
    result.replace('\r', ' ');
    result.replace('\n', ' ');
    return result;
}

} // namespace

EventStream::EventStream(QTcpSocket *socket, QObject *parent) : QObject(parent), m_socket(socket)
{
    if (socket == nullptr) {
        m_closedEmitted = true;
        return;
    }
    auto emitClosed = [this] {
        if (m_closedEmitted)
            return;
        m_closedEmitted = true;
        Q_EMIT closed();
    };
    connect(socket, &QAbstractSocket::disconnected, this, emitClosed);
    connect(socket, &QObject::destroyed, this, emitClosed);
    if (socket->state() != QAbstractSocket::ConnectedState) {
        // Already gone: tell the subscriber once it had the chance to connect to closed().
        QMetaObject::invokeMethod(this, emitClosed, Qt::QueuedConnection);
    }
}

EventStream::~EventStream()
{
    // Nobody can write to this stream any more: let the connection go.
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->disconnectFromHost();
}

void EventStream::send(QByteArrayView event, QByteArrayView data, qint64 id)
{
    if (!isOpen())
        return;
    QByteArray out;
    out.reserve(data.size() + event.size() + 32);
    if (id >= 0)
        out += "id: "_ba + QByteArray::number(id) + '\n';
    if (!event.isEmpty())
        out += "event: "_ba + singleLine(event) + '\n';
    // Split on CRLF, CR or LF: an SSE client treats each of them as a line end.
    qsizetype start = 0;
    for (;;) {
        qsizetype end = start;
        while (end < data.size() && data.at(end) != '\n' && data.at(end) != '\r')
            ++end;
        out += "data: "_ba;
        out += data.sliced(start, end - start);
        out += '\n';
        if (end >= data.size())
            break;
        if (data.at(end) == '\r' && end + 1 < data.size() && data.at(end + 1) == '\n')
            ++end;
        start = end + 1;
    }
    out += '\n';
    if (roomFor(out.size()))
        m_socket->write(out);
}

void EventStream::comment(QByteArrayView text)
{
    if (!isOpen())
        return;
    const QByteArray out = ": "_ba + singleLine(text) + "\n\n"_ba;
    if (roomFor(out.size()))
        m_socket->write(out);
}

void EventStream::close()
{
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->disconnectFromHost();
}

bool EventStream::roomFor(qsizetype bytes)
{
    const qint64 backlog = m_socket->bytesToWrite();
    if (backlog + bytes <= m_maxBacklog || backlog == 0)
        return true;
    m_cutOff = true;
    m_socket->write("event: cut_off\ndata: {\"reason\":\"backlog\",\"backlog_bytes\":"_ba
                    + QByteArray::number(backlog) + ",\"limit_bytes\":"_ba
                    + QByteArray::number(m_maxBacklog) + "}\n\n"_ba);
    // Closes once the queue is sent; a reader that takes nothing more is let go of for good.
    QTcpSocket *socket = m_socket;
    socket->disconnectFromHost();
    QTimer::singleShot(m_cutOffGraceMs, socket, [socket] {
        if (socket->state() != QAbstractSocket::UnconnectedState)
            socket->abort();
    });
    return false;
}

bool EventStream::isOpen() const
{
    return !m_closedEmitted && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 EventStream::pendingBytes() const
{
    return m_socket ? m_socket->bytesToWrite() : 0;
}

} // namespace cardhour::http
