// A reader of an event stream that does not keep up is cut off after a bounded backlog, with a
// last `cut_off` event, while a reader beside it that keeps up gets every event; one that
// never reads again is let go of after the grace period.
#include "http/EventStream.h"
#include "http/HttpServer.h"
#include "http/Router.h"

#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace cardhour::http;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 10'000;
constexpr qint64 kLimit = 64 * 1024;

// Opens GET /events on `port`; a reader that does not read keeps one byte of buffer, so the
// kernel's buffers fill and the server's backlog grows.
void openStream(QTcpSocket &socket, quint16 port, bool reads)
{
    if (!reads)
        socket.setReadBufferSize(1);
    socket.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(socket.waitForConnected(kTimeoutMs));
    socket.write("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
}

} // namespace

class TestEventBacklog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void slowReaderCutOffOthersKeepUp();
    void stuckReaderLetGoAfterGrace();

private:
    // Sends one 16 KiB event to every stream until `slow` is cut off (or too much was sent).
    int sendUntilCutOff(const std::shared_ptr<EventStream> &slow, QTcpSocket &fast,
                        QByteArray &fastReceived);

    Router m_router;
    std::unique_ptr<HttpServer> m_server;
    QList<std::shared_ptr<EventStream>> m_streams;
};

void TestEventBacklog::init()
{
    m_router = Router();
    m_streams.clear();
    m_router.add("GET"_ba, u"/events"_s, [this](Request &) {
        Response response;
        response.stream = [this](std::shared_ptr<EventStream> stream) {
            stream->setMaxBacklog(kLimit);
            stream->setCutOffGraceMs(500);
            m_streams.append(std::move(stream));
        };
        return response;
    });
    m_server = std::make_unique<HttpServer>(m_router);
    QVERIFY(m_server->listen(QHostAddress::LocalHost, 0));
}

void TestEventBacklog::cleanup()
{
    m_streams.clear();
    m_server.reset();
}

int TestEventBacklog::sendUntilCutOff(const std::shared_ptr<EventStream> &slow, QTcpSocket &fast,
                                      QByteArray &fastReceived)
{
    const QByteArray payload(16 * 1024, 'x');
    int sent = 0;
    // Loopback buffers hold a few MiB at most: far more than that and the cut-off is missing.
    while (!slow->wasCutOff() && sent < 4096) {
        for (const std::shared_ptr<EventStream> &stream : std::as_const(m_streams))
            stream->send("sample", payload, sent);
        ++sent;
        QCoreApplication::processEvents();
        fastReceived += fast.readAll();
        // What the limit is for: the backlog never grows past it (plus the event in hand).
        if (slow->pendingBytes() > kLimit + 2 * payload.size())
            return -1;
    }
    return sent;
}

void TestEventBacklog::slowReaderCutOffOthersKeepUp()
{
    // One at a time, so that the first stream is the slow reader's.
    QTcpSocket slowSocket;
    openStream(slowSocket, m_server->serverPort(), false);
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, kTimeoutMs);
    QTcpSocket fastSocket;
    openStream(fastSocket, m_server->serverPort(), true);
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 2, kTimeoutMs);
    const std::shared_ptr<EventStream> slow = m_streams.at(0);
    const std::shared_ptr<EventStream> fast = m_streams.at(1);
    QByteArray fastReceived;

    const int sent = sendUntilCutOff(slow, fastSocket, fastReceived);
    QVERIFY2(sent > 0, "the slow reader's backlog grew past the limit, or it was never cut off");
    QVERIFY(slow->wasCutOff());
    QVERIFY(!slow->isOpen());
    QVERIFY(!fast->wasCutOff());
    QVERIFY(fast->isOpen());

    // The reader that kept up has every event, the last one included.
    QTRY_VERIFY_WITH_TIMEOUT(
        (fastReceived += fastSocket.readAll()).contains(u"id: %1\n"_s.arg(sent - 1).toLatin1()),
        kTimeoutMs);
    QCOMPARE(fastReceived.count("event: sample\n"), qsizetype(sent));

    // The slow one, reading again, gets what was queued, then the cut-off, then the close.
    slowSocket.setReadBufferSize(0);
    QByteArray slowReceived;
    QTRY_VERIFY_WITH_TIMEOUT((slowReceived += slowSocket.readAll(),
                              slowSocket.state() == QAbstractSocket::UnconnectedState),
                             kTimeoutMs);
    slowReceived += slowSocket.readAll();
    QVERIFY(slowReceived.endsWith("\n\n"));
    const qsizetype last = slowReceived.lastIndexOf("event: ");
    QVERIFY(last > 0);
    const QByteArray closing = slowReceived.mid(last);
    QVERIFY2(closing.startsWith("event: cut_off\ndata: {\"reason\":\"backlog\",\"backlog_bytes\":"),
             closing.left(200).constData());
    QVERIFY(closing.contains(",\"limit_bytes\":65536}"));
    QVERIFY(slowReceived.count("event: sample\n") < sent);
}

void TestEventBacklog::stuckReaderLetGoAfterGrace()
{
    QTcpSocket stuck;
    openStream(stuck, m_server->serverPort(), false);
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, kTimeoutMs);
    QTcpSocket fast;
    openStream(fast, m_server->serverPort(), true);
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 2, kTimeoutMs);
    QCOMPARE(m_server->openConnectionCount(), 2);
    QByteArray received;
    QVERIFY(sendUntilCutOff(m_streams.at(0), fast, received) > 0);
    // It never reads again: the connection is let go of after the grace period, the other stays.
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 1, kTimeoutMs);
    QCOMPARE(fast.state(), QAbstractSocket::ConnectedState);
    QVERIFY(m_streams.at(1)->isOpen());
}

QTEST_GUILESS_MAIN(TestEventBacklog)
#include "tst_eventbacklog.moc"
