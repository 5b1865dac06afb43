#include "http/EventStream.h"
#include "http/HttpServer.h"
#include "http/Router.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <optional>

using namespace cardhour::http;
using namespace Qt::StringLiterals;

namespace {

constexpr int Timeout = 5000;

struct Reply
{
    int status = 0;
    QByteArray reason;
    HeaderList headers;
    QByteArray body;

    QByteArray header(QByteArrayView name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0)
                return value;
        }
        return {};
    }
    bool hasHeader(QByteArrayView name) const
    {
        for (const auto &entry : headers) {
            if (entry.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// A raw HTTP/1.1 client on a QTcpSocket that collects whatever the server sends.
class Client
{
public:
    Client()
    {
        QObject::connect(&m_socket, &QIODevice::readyRead, &m_socket,
                         [this] { m_buffer += m_socket.readAll(); });
    }

    bool connectTo(quint16 port)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        return QTest::qWaitFor(
            [this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, Timeout);
    }

    void send(const QByteArray &bytes) { m_socket.write(bytes); }

    // Waits for one whole response (headers and Content-Length body) and takes it.
    std::optional<Reply> next()
    {
        std::optional<Reply> reply;
        (void)QTest::qWaitFor([&] { return (reply = take(true)).has_value(); }, Timeout);
        return reply;
    }

    // Waits for the head of a response without a length (an event stream) and takes it.
    std::optional<Reply> nextHead()
    {
        std::optional<Reply> reply;
        (void)QTest::qWaitFor([&] { return (reply = take(false)).has_value(); }, Timeout);
        return reply;
    }

    bool waitForDisconnect()
    {
        return QTest::qWaitFor(
            [this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, Timeout);
    }

    bool isConnected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    QByteArray &buffer() { return m_buffer; }
    QTcpSocket &socket() { return m_socket; }

private:
    std::optional<Reply> take(bool withBody)
    {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return std::nullopt;
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        Reply reply;
        const QByteArray statusLine = lines.first().trimmed();
        const QList<QByteArray> parts = statusLine.split(' ');
        if (parts.size() < 3 || parts.at(0) != "HTTP/1.1")
            return std::nullopt;
        reply.status = parts.at(1).toInt();
        reply.reason = statusLine.mid(parts.at(0).size() + parts.at(1).size() + 2);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            reply.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
        }
        qsizetype length = 0;
        if (withBody) {
            if (!reply.hasHeader("content-length"))
                return std::nullopt;
            length = reply.header("content-length").toLongLong();
            if (m_buffer.size() < end + 4 + length)
                return std::nullopt;
            reply.body = m_buffer.mid(end + 4, length);
        }
        m_buffer.remove(0, end + 4 + length);
        return reply;
    }

    QTcpSocket m_socket;
    QByteArray m_buffer;
};

QByteArray get(const QByteArray &path, const QByteArray &extraHeaders = {})
{
    return "GET "_ba + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"_ba + extraHeaders + "\r\n"_ba;
}

QByteArray post(const QByteArray &path, const QByteArray &body)
{
    return "POST "_ba + path
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          "Content-Length: "_ba
        + QByteArray::number(body.size()) + "\r\n\r\n"_ba + body;
}

} // namespace

class TestHttpServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void getAndPost();
    void networkAccessManagerClient();
    void handlerHeadersKept();
    void noContentHasNoLength();
    void notFoundAndMethodNotAllowed();
    void keepAliveTwoRequests();
    void connectionClose();
    void http10ClosesByDefault();
    void pipelining();
    void largeBodiesInOrder();
    void requestInPieces();
    void expectContinue();
    void malformedRequestGets400AndClose();
    void oversizeBodyGets413();
    void oversizeHeadersGet431();
    void idleTimeoutClosesConnection();
    void clientDisconnectMidRequest();
    void eventStream();
    void eventStreamClosedFromServer();
    void eventStreamDroppedClosesConnection();
    void eventStreamSurvivesServerDestruction();
    void deferredAnswerHoldsOnlyItsConnection();
    void deferredAnswerToAPeerThatLeftIsDropped();

private:
    Router m_router;
    std::unique_ptr<HttpServer> m_server;
    QList<std::shared_ptr<EventStream>> m_streams;
    bool m_holdStreams = true;
    std::function<void(Response)> m_later; // where /later's answer goes
};

void TestHttpServer::init()
{
    m_router = Router();
    m_streams.clear();
    m_holdStreams = true;
    m_router.add("GET"_ba, u"/hello"_s, [](Request &request) {
        return Response::json(
            200, QJsonObject{{u"hello"_s, u"world"_s}, {u"peer"_s, request.peer.toString()}});
    });
    m_router.add("POST"_ba, u"/echo"_s, [](Request &request) {
        Response response;
        response.status = 201;
        response.setHeader("Content-Type"_ba, request.header("content-type"));
        response.body = request.body;
        return response;
    });
    m_router.add("GET"_ba, u"/path/{name}"_s, [](Request &request) {
        return Response::json(200, QJsonObject{{u"name"_s, request.pathParams.value(u"name"_s)}});
    });
    m_router.add("GET"_ba, u"/cached"_s, [](Request &) {
        Response response = Response::json(200, QJsonObject{});
        response.setHeader("Cache-Control"_ba, "max-age=5"_ba);
        response.setHeader("X-Custom"_ba, "yes"_ba);
        response.setHeader("Content-Length"_ba, "999"_ba); // ignored: the server counts
        response.setHeader("X-Bad"_ba, "a\r\nInjected: 1"_ba); // dropped
        return response;
    });
    m_router.add("DELETE"_ba, u"/thing"_s, [](Request &) { return Response::noContent(); });
    m_router.add("GET"_ba, u"/events"_s, [this](Request &) {
        Response response;
        response.stream = [this](std::shared_ptr<EventStream> stream) {
            stream->send("tick", "a\nb", 1);
            stream->send("tock", "{}");
            if (m_holdStreams)
                m_streams.append(std::move(stream));
        };
        return response;
    });

    m_router.add("GET"_ba, u"/later"_s, [this](Request &) {
        Response response;
        response.deferred = [this](std::function<void(Response)> answer) {
            m_later = std::move(answer);
        };
        return response;
    });

    m_server = std::make_unique<HttpServer>(m_router);
    QVERIFY2(m_server->listen(QHostAddress::LocalHost, 0), qPrintable(m_server->errorString()));
    QVERIFY(m_server->serverPort() != 0);
}

void TestHttpServer::cleanup()
{
    m_later = nullptr;
    m_streams.clear();
    m_server.reset();
}

void TestHttpServer::getAndPost()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));

    client.send(get("/hello"));
    std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 200);
    QCOMPARE(reply->reason, "OK"_ba);
    QCOMPARE(reply->header("content-type"), "application/json; charset=utf-8"_ba);
    QCOMPARE(reply->header("cache-control"), "no-store"_ba);
    QCOMPARE(reply->header("server"), "cardhour-sim"_ba);
    QCOMPARE(reply->header("connection"), "keep-alive"_ba);
    QCOMPARE(reply->header("content-length").toLongLong(), qint64(reply->body.size()));
    QCOMPARE(reply->json().value(u"hello"_s).toString(), u"world"_s);
    QVERIFY(QHostAddress(reply->json().value(u"peer"_s).toString()).isLoopback());

    const QByteArray body = R"({"gpu":"h100","count":2,"note":"caf\u00e9"})"_ba;
    client.send(post("/echo", body));
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 201);
    QCOMPARE(reply->reason, "Created"_ba);
    QCOMPARE(reply->body, body);
    QCOMPARE(reply->header("content-type"), "application/json"_ba);
}

void TestHttpServer::networkAccessManagerClient()
{
    QNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy); // never an http_proxy from the environment
    const QString base = u"http://127.0.0.1:%1"_s.arg(m_server->serverPort());

    std::unique_ptr<QNetworkReply> reply(manager.get(QNetworkRequest(QUrl(base + u"/hello"_s))));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), Timeout);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(QJsonDocument::fromJson(reply->readAll()).object().value(u"hello"_s).toString(),
             u"world"_s);

    QNetworkRequest request(QUrl(base + u"/echo"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const QByteArray body = "{\"big\":\""_ba + QByteArray(200000, 'q') + "\"}"_ba;
    reply.reset(manager.post(request, body));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), Timeout);
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 201);
    QCOMPARE(reply->readAll(), body);

    reply.reset(manager.deleteResource(QNetworkRequest(QUrl(base + u"/hello"_s))));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), Timeout);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 405);
    QCOMPARE(reply->rawHeader("Allow"), "GET"_ba);
}

void TestHttpServer::handlerHeadersKept()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"invalid response header"_s));
    client.send(get("/cached"));
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->header("cache-control"), "max-age=5"_ba);
    QCOMPARE(reply->header("x-custom"), "yes"_ba);
    QCOMPARE(reply->header("content-length"), "2"_ba);
    QCOMPARE(reply->body, "{}"_ba);
    QVERIFY(!reply->hasHeader("x-bad"));
    QVERIFY(!reply->hasHeader("injected"));
}

void TestHttpServer::noContentHasNoLength()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send("DELETE /thing HTTP/1.1\r\n\r\n"_ba + get("/hello"));
    // 204 has neither body nor Content-Length; the next reply follows right after its head.
    const std::optional<Reply> head = client.nextHead();
    QVERIFY(head);
    QCOMPARE(head->status, 204);
    QVERIFY(!head->hasHeader("content-length"));
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 200);
}

void TestHttpServer::notFoundAndMethodNotAllowed()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/nope"));
    std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 404);
    QCOMPARE(reply->json().value(u"error"_s).toObject().value(u"code"_s).toString(),
             u"not_found"_s);
    client.send(get("/echo"));
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 405);
    QCOMPARE(reply->header("allow"), "POST"_ba);
    QVERIFY(client.isConnected());
}

void TestHttpServer::keepAliveTwoRequests()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 1, Timeout);

    client.send(get("/path/first"));
    std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->json().value(u"name"_s).toString(), u"first"_s);
    QVERIFY(client.isConnected());

    client.send(get("/path/second%20one"));
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->json().value(u"name"_s).toString(), u"second one"_s);
    QVERIFY(client.isConnected());
    QCOMPARE(m_server->openConnectionCount(), 1);
}

void TestHttpServer::connectionClose()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    // The pipelined request after "Connection: close" is never answered.
    client.send(get("/hello", "Connection: close\r\n"_ba) + get("/hello"));
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 200);
    QCOMPARE(reply->header("connection"), "close"_ba);
    QVERIFY(client.waitForDisconnect());
    QVERIFY(client.buffer().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);
}

void TestHttpServer::http10ClosesByDefault()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send("GET /hello HTTP/1.0\r\n\r\n"_ba);
    std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 200);
    QCOMPARE(reply->header("connection"), "close"_ba);
    QVERIFY(client.waitForDisconnect());

    Client keep;
    QVERIFY(keep.connectTo(m_server->serverPort()));
    keep.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"_ba);
    reply = keep.next();
    QVERIFY(reply);
    QCOMPARE(reply->header("connection"), "keep-alive"_ba);
    QVERIFY(keep.isConnected());
}

void TestHttpServer::pipelining()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/path/one") + post("/echo", "[2]"_ba) + get("/nope") + get("/path/three"));

    std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->json().value(u"name"_s).toString(), u"one"_s);
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 201);
    QCOMPARE(reply->body, "[2]"_ba);
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 404);
    reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->json().value(u"name"_s).toString(), u"three"_s);
    QVERIFY(client.isConnected());
}

// A body of 16 KiB or more goes to the socket as a block of its own, behind its head.
void TestHttpServer::largeBodiesInOrder()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    const QByteArray large(200 * 1024, 'a');
    const QByteArray justLarge(16 * 1024, 'b');
    const QByteArray justSmall(16 * 1024 - 1, 'c');
    client.send(post("/echo", large) + get("/path/between") + post("/echo", justLarge)
                + post("/echo", justSmall));
    for (const QByteArray &expected : {large, QByteArray(), justLarge, justSmall}) {
        const std::optional<Reply> reply = client.next();
        QVERIFY(reply);
        QCOMPARE(reply->header("content-length").toLongLong(), qint64(reply->body.size()));
        if (expected.isEmpty()) {
            QCOMPARE(reply->json().value(u"name"_s).toString(), u"between"_s);
        } else {
            QCOMPARE(reply->status, 201);
            QCOMPARE(reply->body.size(), expected.size());
            QCOMPARE(reply->body, expected);
        }
    }
    QVERIFY(client.isConnected());
}

void TestHttpServer::requestInPieces()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    const QByteArray raw = post("/echo", R"({"split":true})"_ba);
    for (qsizetype at = 0; at < raw.size(); at += 7) {
        client.send(raw.mid(at, 7));
        QVERIFY(QTest::qWaitFor([&] { return client.socket().bytesToWrite() == 0; }, Timeout));
        QTest::qWait(1); // give the server a turn to see a partial request
    }
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->body, R"({"split":true})"_ba);
}

void TestHttpServer::expectContinue()
{
    // curl sends "Expect: 100-continue" before larger bodies and waits for the interim answer.
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    const QByteArray body = R"({"waited":false})"_ba;
    client.send(
        "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: "_ba
        + QByteArray::number(body.size()) + "\r\n\r\n"_ba);
    const std::optional<Reply> interim = client.nextHead();
    QVERIFY(interim);
    QCOMPARE(interim->status, 100);
    client.send(body);
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 201);
    QCOMPARE(reply->body, body);
}

void TestHttpServer::malformedRequestGets400AndClose()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send("GARBAGE\r\n\r\n"_ba);
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 400);
    QCOMPARE(reply->header("connection"), "close"_ba);
    const QJsonObject error = reply->json().value(u"error"_s).toObject();
    QCOMPARE(error.value(u"code"_s).toString(), u"bad_request"_s);
    QVERIFY(!error.value(u"message"_s).toString().isEmpty());
    QVERIFY(client.waitForDisconnect());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);

    // A good request before the bad one is still answered first.
    Client second;
    QVERIFY(second.connectTo(m_server->serverPort()));
    second.send(get("/hello") + "GET /x HTTP/9.9\r\n\r\n"_ba);
    std::optional<Reply> first = second.next();
    QVERIFY(first);
    QCOMPARE(first->status, 200);
    const std::optional<Reply> bad = second.next();
    QVERIFY(bad);
    QCOMPARE(bad->status, 505);
    QVERIFY(second.waitForDisconnect());
}

void TestHttpServer::oversizeBodyGets413()
{
    RequestParser::Limits limits;
    limits.maxBody = 1024;
    m_server->setLimits(limits);

    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    // Announced too large: refused before the body is sent.
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 4096\r\n\r\n"_ba + QByteArray(100, 'x'));
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 413);
    QCOMPARE(reply->json().value(u"error"_s).toObject().value(u"code"_s).toString(),
             u"payload_too_large"_s);
    QVERIFY(client.waitForDisconnect());

    // The client keeps uploading a large body: the 413 still arrives intact, then the close.
    Client uploader;
    QVERIFY(uploader.connectTo(m_server->serverPort()));
    uploader.send("POST /echo HTTP/1.1\r\nContent-Length: 4000000\r\n\r\n"_ba
                  + QByteArray(4000000, 'z'));
    const std::optional<Reply> refused = uploader.next();
    QVERIFY(refused);
    QCOMPARE(refused->status, 413);
    QCOMPARE(refused->header("connection"), "close"_ba);
    QVERIFY(uploader.waitForDisconnect());

    // At the limit is fine.
    Client ok;
    QVERIFY(ok.connectTo(m_server->serverPort()));
    ok.send(post("/echo", QByteArray(1024, 'y')));
    const std::optional<Reply> fine = ok.next();
    QVERIFY(fine);
    QCOMPARE(fine->status, 201);
    QCOMPARE(fine->body.size(), qsizetype(1024));
}

void TestHttpServer::oversizeHeadersGet431()
{
    RequestParser::Limits limits;
    limits.maxHeaderBytes = 512;
    m_server->setLimits(limits);

    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send("GET /hello HTTP/1.1\r\nX-Big: "_ba + QByteArray(2000, 'b'));
    const std::optional<Reply> reply = client.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 431);
    QVERIFY(client.waitForDisconnect());
}

void TestHttpServer::idleTimeoutClosesConnection()
{
    m_server->setIdleTimeoutMs(150);
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/hello"));
    QVERIFY(client.next());
    QVERIFY(client.waitForDisconnect());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);

    // A connection that never sends anything is closed too.
    Client silent;
    QVERIFY(silent.connectTo(m_server->serverPort()));
    QVERIFY(silent.waitForDisconnect());
}

void TestHttpServer::clientDisconnectMidRequest()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 1, Timeout);
    client.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly part"_ba);
    QVERIFY(QTest::qWaitFor([&] { return client.socket().bytesToWrite() == 0; }, Timeout));
    client.socket().abort();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);

    // Also right after a complete request, before reading the answer.
    Client hasty;
    QVERIFY(hasty.connectTo(m_server->serverPort()));
    hasty.send(get("/hello"));
    QVERIFY(QTest::qWaitFor([&] { return hasty.socket().bytesToWrite() == 0; }, Timeout));
    hasty.socket().abort();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);

    // The server carries on.
    Client next;
    QVERIFY(next.connectTo(m_server->serverPort()));
    next.send(get("/hello"));
    const std::optional<Reply> reply = next.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 200);
}

void TestHttpServer::eventStream()
{
    m_server->setIdleTimeoutMs(150);
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/events", "Accept: text/event-stream\r\n"_ba) + get("/hello"));

    const std::optional<Reply> head = client.nextHead();
    QVERIFY(head);
    QCOMPARE(head->status, 200);
    QCOMPARE(head->header("content-type"), "text/event-stream"_ba);
    QCOMPARE(head->header("cache-control"), "no-store"_ba);
    QCOMPARE(head->header("connection"), "keep-alive"_ba);
    QVERIFY(!head->hasHeader("content-length"));

    const QByteArray expected = "id: 1\nevent: tick\ndata: a\ndata: b\n\n"
                                "event: tock\ndata: {}\n\n"_ba;
    QTRY_COMPARE_WITH_TIMEOUT(client.buffer(), expected, Timeout);
    client.buffer().clear();
    QCOMPARE(m_streams.size(), 1);
    const std::shared_ptr<EventStream> stream = m_streams.first();
    QVERIFY(stream->isOpen());

    // The idle timeout does not apply: a plain connection with the same timeout is closed
    // while the stream stays open.
    Client idle;
    QVERIFY(idle.connectTo(m_server->serverPort()));
    QVERIFY(idle.waitForDisconnect());
    QVERIFY(client.isConnected());
    QVERIFY(stream->isOpen());

    stream->comment("ping\nline");
    stream->send("x", "one\r\ntwo\rthree\n", 7);
    QTRY_COMPARE_WITH_TIMEOUT(
        client.buffer(),
        ": ping line\n\nid: 7\nevent: x\ndata: one\ndata: two\ndata: three\ndata: \n\n"_ba,
        Timeout);
    QTRY_COMPARE_WITH_TIMEOUT(stream->pendingBytes(), qint64(0), Timeout);

    // The pipelined GET /hello after the stream request is never answered.
    QVERIFY(!client.buffer().contains("HTTP/1.1"));

    QSignalSpy closed(stream.get(), &EventStream::closed);
    client.socket().disconnectFromHost();
    QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, Timeout);
    QVERIFY(!stream->isOpen());
    stream->send("late", "ignored"); // a no-op, no crash
    stream->comment("late");
    QCOMPARE(stream->pendingBytes(), qint64(0));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);
    QCOMPARE(closed.count(), 1);
}

void TestHttpServer::eventStreamClosedFromServer()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/events"));
    QVERIFY(client.nextHead());
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, Timeout);
    const std::shared_ptr<EventStream> stream = m_streams.first();
    QSignalSpy closed(stream.get(), &EventStream::closed);
    stream->send("bye", "now");
    stream->close();
    QVERIFY(client.waitForDisconnect());
    // Everything written before close() arrives.
    QVERIFY(client.buffer().endsWith("event: bye\ndata: now\n\n"));
    QTRY_COMPARE_WITH_TIMEOUT(closed.count(), 1, Timeout);
    QVERIFY(!stream->isOpen());
}

void TestHttpServer::eventStreamDroppedClosesConnection()
{
    m_holdStreams = false; // the stream callback keeps nothing
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/events"));
    QVERIFY(client.nextHead());
    QVERIFY(client.waitForDisconnect());
    QCOMPARE(client.buffer(),
             "id: 1\nevent: tick\ndata: a\ndata: b\n\nevent: tock\ndata: {}\n\n"_ba);
}

void TestHttpServer::eventStreamSurvivesServerDestruction()
{
    Client client;
    QVERIFY(client.connectTo(m_server->serverPort()));
    client.send(get("/events"));
    QVERIFY(client.nextHead());
    QTRY_COMPARE_WITH_TIMEOUT(m_streams.size(), 1, Timeout);
    const std::shared_ptr<EventStream> stream = m_streams.first();
    QSignalSpy closed(stream.get(), &EventStream::closed);
    m_server.reset();
    QCOMPARE(closed.count(), 1);
    QVERIFY(!stream->isOpen());
    stream->send("after", "server gone"); // no-op
    QVERIFY(client.waitForDisconnect());
}

// A handler that answers later (work on another thread, say) holds its own connection's next
// requests, in order, and nobody else's.
void TestHttpServer::deferredAnswerHoldsOnlyItsConnection()
{
    Client waiting;
    QVERIFY(waiting.connectTo(m_server->serverPort()));
    waiting.send(get("/later") + get("/path/after"));
    QTRY_VERIFY_WITH_TIMEOUT(m_later != nullptr, Timeout);

    Client other;
    QVERIFY(other.connectTo(m_server->serverPort()));
    other.send(get("/hello"));
    const std::optional<Reply> hello = other.next();
    QVERIFY(hello);
    QCOMPARE(hello->status, 200);
    QVERIFY(waiting.buffer().isEmpty()); // neither the held answer nor the one behind it

    m_later(Response::json(201, QJsonObject{{u"later"_s, true}}));
    std::optional<Reply> reply = waiting.next();
    QVERIFY(reply);
    QCOMPARE(reply->status, 201);
    QCOMPARE(reply->json().value(u"later"_s).toBool(), true);
    reply = waiting.next();
    QVERIFY(reply);
    QCOMPARE(reply->json().value(u"name"_s).toString(), u"after"_s);
    QVERIFY(waiting.isConnected());
}

void TestHttpServer::deferredAnswerToAPeerThatLeftIsDropped()
{
    {
        Client leaving;
        QVERIFY(leaving.connectTo(m_server->serverPort()));
        leaving.send(get("/later"));
        QTRY_VERIFY_WITH_TIMEOUT(m_later != nullptr, Timeout);
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnectionCount(), 0, Timeout);
    m_later(Response::json(200, QJsonObject{})); // nothing to send it to: no crash
    Client next;
    QVERIFY(next.connectTo(m_server->serverPort()));
    next.send(get("/hello"));
    const std::optional<Reply> hello = next.next();
    QVERIFY(hello);
    QCOMPARE(hello->status, 200);
}

QTEST_GUILESS_MAIN(TestHttpServer)
#include "tst_httpserver.moc"
