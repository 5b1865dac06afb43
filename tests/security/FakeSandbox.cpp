#include "FakeSandbox.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace cardhour::test {

namespace {
QByteArray httpResponse(int status, const QByteArray &body)
{
    return "HTTP/1.1 "_ba + QByteArray::number(status) + " X\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n"
        + body;
}
} // namespace

FakeSandbox::FakeSandbox(Prove prove, QObject *parent) : QTcpServer(parent), m_prove(prove)
{
    connect(this, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

bool FakeSandbox::start()
{
    return listen(QHostAddress::LocalHost, 0);
}

QUrl FakeSandbox::url() const
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(serverPort()));
}

QByteArray FakeSandbox::allReceived() const
{
    QByteArray all;
    for (const QByteArray &request : m_requests)
        all += request;
    return all;
}

void FakeSandbox::onReadyRead(QTcpSocket *socket)
{
    // One request per connection (every answer closes it); wait for the head and the body.
    QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    socket->setProperty("buffer", buffer);
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return;
    const QByteArray head = buffer.left(headEnd);
    qsizetype length = 0;
    for (const QByteArray &line : head.split('\n')) {
        if (line.toLower().startsWith("content-length:"))
            length = line.mid(15).trimmed().toLongLong();
    }
    if (buffer.size() < headEnd + 4 + length)
        return;
    m_requests.append(buffer.left(headEnd + 4 + length));
    const QList<QByteArray> requestLine = head.left(head.indexOf('\r')).split(' ');
    const QByteArray body = buffer.mid(headEnd + 4, length);
    socket->setProperty("buffer", QByteArray());
    socket->write(answer(requestLine.value(0), requestLine.value(1), body));
    socket->disconnectFromHost();
}

QByteArray FakeSandbox::answer(const QByteArray &method, const QByteArray &path,
                               const QByteArray &body)
{
    if (method == "GET" && path == "/v1/health") {
        if (m_prove == Prove::RelayToRealSandbox)
            return relay(method, path, body);
        const QJsonObject health{{u"status"_s, u"ok"_s},
                                 {u"service"_s, u"cardhour-sim"_s},
                                 {u"version"_s, u"0.1.0"_s},
                                 {u"test_clock"_s, false},
                                 {u"time"_s, u"2026-01-01T00:00:00.000Z"_s}};
        return httpResponse(200, QJsonDocument(health).toJson(QJsonDocument::Compact));
    }
    if (method == "POST" && path == "/v1/_sandbox/prove") {
        if (m_prove == Prove::RelayToRealSandbox) {
            ++m_relayed;
            return relay(method, path, body);
        }
        return httpResponse(200, R"({"proof":")"_ba + QByteArray(64, 'a') + R"("})"_ba);
    }
    return httpResponse(404, R"({"error":{"code":"not_found","message":"no"}})"_ba);
}

// A blocking round trip to the real sandbox (another process, so blocking here is harmless).
QByteArray FakeSandbox::relay(const QByteArray &method, const QByteArray &path,
                              const QByteArray &body)
{
    QTcpSocket real;
    real.connectToHost(m_relayTo.host(), static_cast<quint16>(m_relayTo.port()));
    if (!real.waitForConnected(5000))
        return httpResponse(502, "{}"_ba);
    real.write(method + ' ' + path + " HTTP/1.1\r\nHost: " + m_relayTo.authority().toLatin1()
               + "\r\nContent-Type: application/json\r\nContent-Length: "
               + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    QByteArray response;
    while (real.waitForReadyRead(5000) || real.bytesAvailable() > 0)
        response += real.readAll();
    response += real.readAll();
    const qsizetype headEnd = response.indexOf("\r\n\r\n");
    const int status = response.mid(9, 3).toInt();
    return httpResponse(status == 0 ? 502 : status, response.mid(headEnd + 4));
}

} // namespace cardhour::test
