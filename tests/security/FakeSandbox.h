#pragma once

#include <QByteArray>
#include <QList>
#include <QTcpServer>
#include <QUrl>

namespace cardhour::test {

// What another local user could run on a port the client tries: a tiny HTTP server that answers
// GET /v1/health exactly as cardhour-sim does and records every request it receives. For
// POST /v1/_sandbox/prove it either answers a made-up proof or relays the request to a real
// sandbox (which then answers for its own port). Every other request gets a 404; the test reads
// requests() to see whether a token or a password reached it.
class FakeSandbox : public QTcpServer
{
    Q_OBJECT
public:
    enum class Prove {
        MadeUp, // 64 hex digits that prove nothing
        RelayToRealSandbox, // forward the challenge to relayTo()
    };

    explicit FakeSandbox(Prove prove, QObject *parent = nullptr);
    bool start(); // 127.0.0.1, a free port
    QUrl url() const;
    void setRelayTarget(const QUrl &real) { m_relayTo = real; }
    // Every request as received: request line, headers, body.
    QList<QByteArray> requests() const { return m_requests; }
    QByteArray allReceived() const;
    int proveAnswersRelayed() const { return m_relayed; }

private:
    void onReadyRead(class QTcpSocket *socket);
    QByteArray answer(const QByteArray &method, const QByteArray &path, const QByteArray &body);
    QByteArray relay(const QByteArray &method, const QByteArray &path, const QByteArray &body);

    Prove m_prove;
    QUrl m_relayTo;
    QList<QByteArray> m_requests;
    int m_relayed = 0;
};

} // namespace cardhour::test
