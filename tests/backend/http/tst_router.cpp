#include "http/RequestParser.h"
#include "http/Router.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <stdexcept>

using namespace cardhour::http;
using namespace Qt::StringLiterals;

namespace {

Request makeRequest(const QByteArray &method, const QString &path)
{
    Request request;
    request.method = method;
    request.path = path;
    request.target = path.toUtf8();
    return request;
}

// A handler that answers with its name and the path parameters it saw.
Handler named(const QString &name)
{
    return [name](Request &request) {
        QJsonObject params;
        for (auto it = request.pathParams.cbegin(); it != request.pathParams.cend(); ++it)
            params.insert(it.key(), it.value());
        return Response::json(200, QJsonObject{{u"route"_s, name}, {u"params"_s, params}});
    };
}

QJsonObject bodyOf(const Response &response)
{
    return QJsonDocument::fromJson(response.body).object();
}

QByteArray headerOf(const Response &response, QByteArrayView name)
{
    for (const auto &[key, value] : response.headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

} // namespace

class TestRouter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void matching_data();
    void matching();
    void paramsFilled();
    void paramsArePercentDecoded();
    void literalBeatsPlaceholder();
    void notFound();
    void methodNotAllowed();
    void handlerException();
    void routesInRegistrationOrder();
    void responseHelpers();
    void reasonPhrases();

private:
    Router m_router;
};

void TestRouter::init()
{
    m_router = Router();
    m_router.add("GET"_ba, u"/"_s, named(u"root"_s));
    m_router.add("GET"_ba, u"/v1/me"_s, named(u"me"_s));
    m_router.add("GET"_ba, u"/v1/instances"_s, named(u"list"_s));
    m_router.add("POST"_ba, u"/v1/instances"_s, named(u"create"_s));
    m_router.add("GET"_ba, u"/v1/instances/{id}"_s, named(u"get"_s));
    m_router.add("DELETE"_ba, u"/v1/instances/{id}"_s, named(u"delete"_s));
    m_router.add("POST"_ba, u"/v1/instances/{id}/stop"_s, named(u"stop"_s));
    m_router.add("GET"_ba, u"/v1/instances/pending"_s, named(u"pending"_s));
    m_router.add("GET"_ba, u"/v1/{kind}/{id}/logs"_s, named(u"logs"_s));
    m_router.add("GET"_ba, u"/v1/instances/{id}/logs"_s, named(u"instanceLogs"_s));
}

void TestRouter::matching_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("route");

    QTest::newRow("root") << "GET"_ba << u"/"_s << 200 << u"root"_s;
    QTest::newRow("literal") << "GET"_ba << u"/v1/me"_s << 200 << u"me"_s;
    QTest::newRow("same path, other method")
        << "POST"_ba << u"/v1/instances"_s << 200 << u"create"_s;
    QTest::newRow("placeholder") << "GET"_ba << u"/v1/instances/i-42"_s << 200 << u"get"_s;
    QTest::newRow("placeholder then literal")
        << "POST"_ba << u"/v1/instances/i-42/stop"_s << 200 << u"stop"_s;
    QTest::newRow("literal beats placeholder")
        << "GET"_ba << u"/v1/instances/pending"_s << 200 << u"pending"_s;
    QTest::newRow("leftmost literal wins")
        << "GET"_ba << u"/v1/instances/i-1/logs"_s << 200 << u"instanceLogs"_s;
    QTest::newRow("two placeholders") << "GET"_ba << u"/v1/keys/k-1/logs"_s << 200 << u"logs"_s;
    QTest::newRow("trailing slash is not stripped") << "GET"_ba << u"/v1/me/"_s << 404 << QString();
    QTest::newRow("empty segment does not fill a placeholder")
        << "GET"_ba << u"/v1/instances//stop"_s << 404 << QString();
    QTest::newRow("placeholder needs a segment")
        << "GET"_ba << u"/v1/instances/"_s << 404 << QString();
    QTest::newRow("too long") << "GET"_ba << u"/v1/me/extra"_s << 404 << QString();
    QTest::newRow("case-sensitive path") << "GET"_ba << u"/V1/me"_s << 404 << QString();
    QTest::newRow("case-sensitive method") << "get"_ba << u"/v1/me"_s << 405 << QString();
    QTest::newRow("wrong method") << "PUT"_ba << u"/v1/instances/i-1"_s << 405 << QString();
}

void TestRouter::matching()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(int, status);
    QFETCH(QString, route);

    Request request = makeRequest(method, path);
    const Response response = m_router.dispatch(request);
    QCOMPARE(response.status, status);
    if (status == 200)
        QCOMPARE(bodyOf(response).value(u"route"_s).toString(), route);
}

void TestRouter::paramsFilled()
{
    Request request = makeRequest("GET"_ba, u"/v1/keys/k-7/logs"_s);
    request.pathParams.insert(u"stale"_s, u"x"_s); // replaced, not merged
    const Response response = m_router.dispatch(request);
    QCOMPARE(response.status, 200);
    QCOMPARE(request.pathParams.size(), 2);
    QCOMPARE(request.pathParams.value(u"kind"_s), u"keys"_s);
    QCOMPARE(request.pathParams.value(u"id"_s), u"k-7"_s);
    const QJsonObject params = bodyOf(response).value(u"params"_s).toObject();
    QCOMPARE(params.value(u"id"_s).toString(), u"k-7"_s);
}

void TestRouter::paramsArePercentDecoded()
{
    // Through the parser, as the server does it.
    RequestParser parser;
    QByteArray raw = "POST /v1/instances/my%20box%C3%A9/stop HTTP/1.1\r\n\r\n"_ba;
    QCOMPARE(parser.feed(raw), RequestParser::Result::Complete);
    Request request = parser.takeRequest();
    const Response response = m_router.dispatch(request);
    QCOMPARE(response.status, 200);
    QCOMPARE(request.pathParams.value(u"id"_s), u"my box\u00e9"_s);
}

void TestRouter::literalBeatsPlaceholder()
{
    // Registration order does not matter: the literal route was added after the placeholder.
    Router router;
    router.add("GET"_ba, u"/a/{x}/c"_s, named(u"placeholder"_s));
    router.add("GET"_ba, u"/a/b/{y}"_s, named(u"literalFirst"_s));
    router.add("GET"_ba, u"/a/b/c"_s, named(u"allLiteral"_s));
    Request all = makeRequest("GET"_ba, u"/a/b/c"_s);
    QCOMPARE(bodyOf(router.dispatch(all)).value(u"route"_s).toString(), u"allLiteral"_s);
    Request partial = makeRequest("GET"_ba, u"/a/b/d"_s);
    QCOMPARE(bodyOf(router.dispatch(partial)).value(u"route"_s).toString(), u"literalFirst"_s);
    Request other = makeRequest("GET"_ba, u"/a/z/c"_s);
    QCOMPARE(bodyOf(router.dispatch(other)).value(u"route"_s).toString(), u"placeholder"_s);
}

void TestRouter::notFound()
{
    Request request = makeRequest("GET"_ba, u"/x"_s);
    const Response response = m_router.dispatch(request);
    QCOMPARE(response.status, 404);
    QCOMPARE(headerOf(response, "content-type"), "application/json; charset=utf-8"_ba);
    const QJsonObject error = bodyOf(response).value(u"error"_s).toObject();
    QCOMPARE(error.value(u"code"_s).toString(), u"not_found"_s);
    QCOMPARE(error.value(u"message"_s).toString(), u"No route for GET /x"_s);

    Router empty;
    Request any = makeRequest("POST"_ba, u"/"_s);
    QCOMPARE(empty.dispatch(any).status, 404);
}

void TestRouter::methodNotAllowed()
{
    Request request = makeRequest("PATCH"_ba, u"/v1/instances"_s);
    const Response response = m_router.dispatch(request);
    QCOMPARE(response.status, 405);
    QCOMPARE(headerOf(response, "Allow"), "GET, POST"_ba);
    const QJsonObject error = bodyOf(response).value(u"error"_s).toObject();
    QCOMPARE(error.value(u"code"_s).toString(), u"method_not_allowed"_s);
    QVERIFY(error.value(u"message"_s).toString().contains(u"PATCH"_s));

    // Allow lists every method of every matching pattern, once.
    Request put = makeRequest("PUT"_ba, u"/v1/instances/pending"_s);
    const Response other = m_router.dispatch(put);
    QCOMPARE(other.status, 405);
    QCOMPARE(headerOf(other, "allow"), "GET, DELETE"_ba);
}

void TestRouter::handlerException()
{
    Router router;
    router.add("GET"_ba, u"/boom"_s,
               [](Request &) -> Response { throw std::runtime_error("kaboom"); });
    router.add("GET"_ba, u"/odd"_s, [](Request &) -> Response { throw 42; });
    router.add("GET"_ba, u"/empty"_s, Handler());

    for (const QString &path : {u"/boom"_s, u"/odd"_s, u"/empty"_s}) {
        if (path == u"/boom"_s)
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"kaboom"_s));
        else
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"threw"_s));
        Request request = makeRequest("GET"_ba, path);
        const Response response = router.dispatch(request);
        QCOMPARE(response.status, 500);
        const QJsonObject error = bodyOf(response).value(u"error"_s).toObject();
        QCOMPARE(error.value(u"code"_s).toString(), u"internal"_s);
        QVERIFY(!error.value(u"message"_s).toString().contains(u"kaboom"_s)); // no internals
    }
}

void TestRouter::routesInRegistrationOrder()
{
    const QList<Router::Route> routes = m_router.routes();
    QCOMPARE(routes.size(), 10);
    QCOMPARE(routes.at(0).method, "GET"_ba);
    QCOMPARE(routes.at(0).pattern, u"/"_s);
    QCOMPARE(routes.at(3).method, "POST"_ba);
    QCOMPARE(routes.at(3).pattern, u"/v1/instances"_s);
    QCOMPARE(routes.last().pattern, u"/v1/instances/{id}/logs"_s);
}

void TestRouter::responseHelpers()
{
    const Response object = Response::json(201, QJsonObject{{u"a"_s, 1}, {u"b"_s, u"x y"_s}});
    QCOMPARE(object.status, 201);
    QCOMPARE(object.body, R"({"a":1,"b":"x y"})"_ba);
    QCOMPARE(headerOf(object, "Content-Type"), "application/json; charset=utf-8"_ba);

    const Response array = Response::json(200, QJsonArray{1, 2});
    QCOMPARE(array.body, "[1,2]"_ba);

    const Response error = Response::error(409, u"conflict"_s, u"Already \"there\""_s);
    QCOMPARE(error.status, 409);
    QCOMPARE(error.body,
             R"({"error":{"code":"conflict","details":null,"message":"Already \"there\""}})"_ba);

    const Response none = Response::noContent();
    QCOMPARE(none.status, 204);
    QVERIFY(none.body.isEmpty());

    Response response;
    response.setHeader("X-A"_ba, "1"_ba);
    response.setHeader("x-a"_ba, "2"_ba);
    response.setHeader("X-B"_ba, "3"_ba);
    QCOMPARE(response.headers.size(), 2);
    QCOMPARE(headerOf(response, "X-A"), "2"_ba);
}

void TestRouter::reasonPhrases()
{
    QCOMPARE(reasonPhrase(200), "OK"_ba);
    QCOMPARE(reasonPhrase(404), "Not Found"_ba);
    QCOMPARE(reasonPhrase(405), "Method Not Allowed"_ba);
    QCOMPARE(reasonPhrase(431), "Request Header Fields Too Large"_ba);
    QCOMPARE(reasonPhrase(505), "HTTP Version Not Supported"_ba);
    QCOMPARE(reasonPhrase(799), "Unknown"_ba);
}

QTEST_APPLESS_MAIN(TestRouter)
#include "tst_router.moc"
