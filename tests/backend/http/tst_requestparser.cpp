#include "http/RequestParser.h"

#include <QTest>

using namespace cardhour::http;
using namespace Qt::StringLiterals;

namespace {

// Everything the parser produced for one input, so different chunkings can be compared.
struct Outcome
{
    QList<Request> requests;
    QList<bool> keepAlive; // after each request
    RequestParser::Result last = RequestParser::Result::NeedMore;
    int errorStatus = 0;
    QString errorMessage;
    QByteArray leftover;
};

// Feeds `raw` in chunks of `chunk` bytes (0 = all at once), taking every complete request.
Outcome parse(const QByteArray &raw, qsizetype chunk = 0,
              RequestParser::Limits limits = RequestParser::Limits())
{
    RequestParser parser(limits);
    Outcome outcome;
    QByteArray buffer;
    qsizetype offset = 0;
    do {
        const qsizetype take = chunk <= 0 ? raw.size() : qMin(chunk, raw.size() - offset);
        buffer.append(raw.mid(offset, take));
        offset += take;
        for (;;) {
            outcome.last = parser.feed(buffer);
            if (outcome.last != RequestParser::Result::Complete)
                break;
            outcome.requests.append(parser.takeRequest());
            outcome.keepAlive.append(parser.keepAlive());
        }
        if (outcome.last == RequestParser::Result::Error) {
            outcome.errorStatus = parser.errorStatus();
            outcome.errorMessage = parser.errorMessage();
            break;
        }
    } while (offset < raw.size());
    outcome.leftover = buffer;
    return outcome;
}

bool sameRequest(const Request &a, const Request &b)
{
    return a.method == b.method && a.target == b.target && a.path == b.path
        && a.query.toString() == b.query.toString() && a.headers == b.headers && a.body == b.body;
}

void compareOutcomes(const Outcome &actual, const Outcome &expected)
{
    QCOMPARE(actual.requests.size(), expected.requests.size());
    for (qsizetype i = 0; i < actual.requests.size(); ++i)
        QVERIFY2(sameRequest(actual.requests.at(i), expected.requests.at(i)),
                 qPrintable(u"request %1 differs"_s.arg(i)));
    QCOMPARE(actual.keepAlive, expected.keepAlive);
    QCOMPARE(actual.last, expected.last);
    QCOMPARE(actual.errorStatus, expected.errorStatus);
    QCOMPARE(actual.errorMessage, expected.errorMessage);
}

// Byte-by-byte and other chunkings give exactly what feeding everything at once gives, also
// when the input is repeated as a pipeline.
void checkChunkings(const QByteArray &raw)
{
    const Outcome whole = parse(raw);
    for (const qsizetype chunk : {1, 2, 3, 7, 16}) {
        compareOutcomes(parse(raw, chunk), whole);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(u"differs with chunk size %1"_s.arg(chunk)));
    }
    const QByteArray three = raw + raw + raw;
    const Outcome wholeThree = parse(three);
    if (whole.last != RequestParser::Result::Error)
        QCOMPARE(wholeThree.requests.size(), whole.requests.size() * 3);
    compareOutcomes(parse(three, 1), wholeThree);
}

RequestParser::Limits smallLimits()
{
    RequestParser::Limits limits;
    limits.maxRequestLine = 64;
    limits.maxHeaderBytes = 128;
    limits.maxHeaderCount = 4;
    limits.maxBody = 16;
    return limits;
}

} // namespace

class TestRequestParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validRequest_data();
    void validRequest();
    void invalidRequest_data();
    void invalidRequest();
    void limits_data();
    void limits();
    void keepAlive_data();
    void keepAlive();
    void pipelined();
    void pipelinedAcrossFeeds();
    void needMoreKeepsPartialInput();
    void completeIsStableUntilTaken();
    void errorIsSticky();
    void headersLowerCasedInOrder();
    void headerLookupIsCaseInsensitive();
    void bodyBytesAreExact();
    void limitBoundariesAccepted();
};

void TestRequestParser::validRequest_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("queryKey");
    QTest::addColumn<QString>("queryValue");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("keepAlive");

    QTest::newRow("simple GET") << "GET /v1/me HTTP/1.1\r\nHost: localhost\r\n\r\n"_ba
                                << "GET"_ba
                                << "/v1/me"_ba << u"/v1/me"_s << QString() << QString()
                                << QByteArray() << true;
    QTest::newRow("bare LF line ends")
        << "GET /v1/me HTTP/1.1\nHost: localhost\n\n"_ba
        << "GET"_ba
        << "/v1/me"_ba << u"/v1/me"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("mixed line ends")
        << "GET /v1/me HTTP/1.1\r\nHost: localhost\n\r\n"_ba
        << "GET"_ba
        << "/v1/me"_ba << u"/v1/me"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("no headers") << "GET / HTTP/1.1\r\n\r\n"_ba
                                << "GET"_ba
                                << "/"_ba << u"/"_s << QString() << QString() << QByteArray()
                                << true;
    QTest::newRow("HTTP/1.0") << "GET /v1/me HTTP/1.0\r\n\r\n"_ba
                              << "GET"_ba
                              << "/v1/me"_ba << u"/v1/me"_s << QString() << QString()
                              << QByteArray() << false;
    QTest::newRow("POST with JSON body")
        << "POST /v1/instances HTTP/1.1\r\nContent-Type: application/json\r\n"
           "Content-Length: 20\r\n\r\n{\"gpu\":\"h100\",\"n\":2}"_ba
        << "POST"_ba
        << "/v1/instances"_ba << u"/v1/instances"_s << QString() << QString()
        << "{\"gpu\":\"h100\",\"n\":2}"_ba << true;
    QTest::newRow("POST without Content-Length has empty body")
        << "POST /v1/x HTTP/1.1\r\n\r\n"_ba
        << "POST"_ba
        << "/v1/x"_ba << u"/v1/x"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("Content-Length zero")
        << "PUT /v1/x HTTP/1.1\r\nContent-Length: 0\r\n\r\n"_ba
        << "PUT"_ba
        << "/v1/x"_ba << u"/v1/x"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("equal duplicate Content-Length")
        << "POST /v1/x HTTP/1.1\r\nContent-Length: 3\r\ncontent-length: 003\r\n\r\nabc"_ba
        << "POST"_ba
        << "/v1/x"_ba << u"/v1/x"_s << QString() << QString() << "abc"_ba << true;
    QTest::newRow("query string") << "GET /v1/instances?limit=5&state=running HTTP/1.1\r\n\r\n"_ba
                                  << "GET"_ba
                                  << "/v1/instances?limit=5&state=running"_ba << u"/v1/instances"_s
                                  << u"limit"_s << u"5"_s << QByteArray() << true;
    QTest::newRow("empty query") << "GET /v1/instances? HTTP/1.1\r\n\r\n"_ba
                                 << "GET"_ba
                                 << "/v1/instances?"_ba << u"/v1/instances"_s << QString()
                                 << QString() << QByteArray() << true;
    QTest::newRow("percent-encoded space") << "GET /v1/keys/my%20key HTTP/1.1\r\n\r\n"_ba
                                           << "GET"_ba
                                           << "/v1/keys/my%20key"_ba << u"/v1/keys/my key"_s
                                           << QString() << QString() << QByteArray() << true;
    QTest::newRow("percent-encoded UTF-8")
        << "GET /caf%C3%a9 HTTP/1.1\r\n\r\n"_ba
        << "GET"_ba
        << "/caf%C3%a9"_ba << u"/caf\u00e9"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("percent-encoded slash")
        << "GET /a%2Fb HTTP/1.1\r\n\r\n"_ba
        << "GET"_ba
        << "/a%2Fb"_ba << u"/a/b"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("percent in query is left to QUrlQuery")
        << "GET /s?q=a%20b HTTP/1.1\r\n\r\n"_ba
        << "GET"_ba
        << "/s?q=a%20b"_ba << u"/s"_s << u"q"_s << u"a b"_s << QByteArray() << true;
    QTest::newRow("empty lines before request line")
        << "\r\n\n\r\nGET /v1/me HTTP/1.1\r\n\r\n"_ba
        << "GET"_ba
        << "/v1/me"_ba << u"/v1/me"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("extension method")
        << "M-SEARCH /x HTTP/1.1\r\n\r\n"_ba
        << "M-SEARCH"_ba
        << "/x"_ba << u"/x"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("header OWS trimmed")
        << "DELETE /v1/x HTTP/1.1\r\nX-Thing: \t value \t \r\n\r\n"_ba
        << "DELETE"_ba
        << "/v1/x"_ba << u"/v1/x"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("empty header value")
        << "GET /x HTTP/1.1\r\nX-Empty:\r\n\r\n"_ba
        << "GET"_ba
        << "/x"_ba << u"/x"_s << QString() << QString() << QByteArray() << true;
    QTest::newRow("body on GET is read")
        << "GET /x HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"_ba
        << "GET"_ba
        << "/x"_ba << u"/x"_s << QString() << QString() << "hi"_ba << true;
    QTest::newRow("binary body") << "POST /x HTTP/1.1\r\nContent-Length: 4\r\n\r\n\0\r\n\xff"_ba
                                 << "POST"_ba
                                 << "/x"_ba << u"/x"_s << QString() << QString() << "\0\r\n\xff"_ba
                                 << true;
}

void TestRequestParser::validRequest()
{
    QFETCH(QByteArray, raw);
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    QFETCH(QString, path);
    QFETCH(QString, queryKey);
    QFETCH(QString, queryValue);
    QFETCH(QByteArray, body);
    QFETCH(bool, keepAlive);

    RequestParser parser;
    QByteArray buffer = raw;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QVERIFY(buffer.isEmpty());
    QCOMPARE(parser.keepAlive(), keepAlive);
    const Request request = parser.takeRequest();
    QCOMPARE(request.method, method);
    QCOMPARE(request.target, target);
    QCOMPARE(request.path, path);
    QCOMPARE(request.body, body);
    if (!queryKey.isEmpty())
        QCOMPARE(request.query.queryItemValue(queryKey, QUrl::FullyDecoded), queryValue);
    QVERIFY(request.peer.isNull());
    QVERIFY(request.pathParams.isEmpty());
    // Nothing further: the parser waits for the next request.
    QCOMPARE(parser.feed(buffer), RequestParser::Result::NeedMore);

    checkChunkings(raw);
}

void TestRequestParser::invalidRequest_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<int>("status");

    // request line
    QTest::newRow("HTTP/2.0") << "GET / HTTP/2.0\r\n\r\n"_ba << 505;
    QTest::newRow("HTTP/1.2") << "GET / HTTP/1.2\r\n\r\n"_ba << 505;
    QTest::newRow("HTTP/0.9") << "GET / HTTP/0.9\r\n\r\n"_ba << 505;
    QTest::newRow("lower-case version") << "GET / http/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("version garbage") << "GET / HTTP/1.1x\r\n\r\n"_ba << 400;
    QTest::newRow("no version") << "GET /\r\n\r\n"_ba << 400;
    QTest::newRow("only method") << "GET\r\n\r\n"_ba << 400;
    QTest::newRow("double space") << "GET  / HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("trailing space") << "GET / HTTP/1.1 \r\n\r\n"_ba << 400;
    QTest::newRow("extra field") << "GET / x HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("bad method char") << "G(T / HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("empty method") << " / HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("relative target") << "GET v1/me HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("absolute-form target") << "GET http://h/v1 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("asterisk-form target") << "OPTIONS * HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("control char in target") << "GET /a\x01 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("tab in request line") << "GET\t/ HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("DEL in target") << "GET /a\x7f HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("NUL in target") << "GET /a\0 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("bare CR in request line") << "GET / HTTP/1.1\rX\r\n\r\n"_ba << 400;
    QTest::newRow("raw non-ASCII in target") << "GET /caf\xc3\xa9 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("fragment") << "GET /a#b HTTP/1.1\r\n\r\n"_ba << 400;
    // percent-decoding
    QTest::newRow("bad hex") << "GET /a%zz HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("truncated escape") << "GET /a%2 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("escape at end") << "GET /a% HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("truncated escape before query") << "GET /a%4?x=1 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("encoded NUL") << "GET /a%00b HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("invalid UTF-8 byte") << "GET /a%ff HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("truncated UTF-8") << "GET /a%C3 HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("overlong UTF-8") << "GET /a%C0%AF HTTP/1.1\r\n\r\n"_ba << 400;
    QTest::newRow("UTF-8 surrogate") << "GET /a%ED%A0%80 HTTP/1.1\r\n\r\n"_ba << 400;
    // headers
    QTest::newRow("obs-fold space") << "GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n"_ba << 400;
    QTest::newRow("obs-fold tab") << "GET / HTTP/1.1\r\nX-A: a\r\n\tb\r\n\r\n"_ba << 400;
    QTest::newRow("leading space first header") << "GET / HTTP/1.1\r\n Host: x\r\n\r\n"_ba << 400;
    QTest::newRow("no colon") << "GET / HTTP/1.1\r\nHost x\r\n\r\n"_ba << 400;
    QTest::newRow("space before colon") << "GET / HTTP/1.1\r\nHost : x\r\n\r\n"_ba << 400;
    QTest::newRow("empty name") << "GET / HTTP/1.1\r\n: x\r\n\r\n"_ba << 400;
    QTest::newRow("bad name char") << "GET / HTTP/1.1\r\nX(y): x\r\n\r\n"_ba << 400;
    QTest::newRow("control char in value") << "GET / HTTP/1.1\r\nX-A: a\x01z\r\n\r\n"_ba << 400;
    QTest::newRow("NUL in value") << "GET / HTTP/1.1\r\nX-A: a\0\r\n\r\n"_ba << 400;
    QTest::newRow("bare CR in header") << "GET / HTTP/1.1\r\nX-A: a\rb\r\n\r\n"_ba << 400;
    // Content-Length / Transfer-Encoding
    QTest::newRow("CL letters") << "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n"_ba << 400;
    QTest::newRow("CL negative") << "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"_ba << 400;
    QTest::newRow("CL plus") << "POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\n"_ba << 400;
    QTest::newRow("CL list") << "POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\nx"_ba << 400;
    QTest::newRow("CL empty") << "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n"_ba << 400;
    QTest::newRow("CL hex") << "POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n"_ba << 400;
    QTest::newRow("CL conflicting duplicates")
        << "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx"_ba << 400;
    QTest::newRow("Transfer-Encoding chunked")
        << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"_ba << 501;
    QTest::newRow("Transfer-Encoding with Content-Length")
        << "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: identity\r\n\r\nx"_ba << 501;
}

void TestRequestParser::invalidRequest()
{
    QFETCH(QByteArray, raw);
    QFETCH(int, status);

    RequestParser parser;
    QByteArray buffer = raw;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Error);
    QCOMPARE(parser.errorStatus(), status);
    QVERIFY(!parser.errorMessage().isEmpty());
    QVERIFY(!parser.keepAlive());

    checkChunkings(raw);
}

void TestRequestParser::limits_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<int>("status");

    const QByteArray longTarget = "/"_ba + QByteArray(80, 'a');
    QTest::newRow("request line too long")
        << "GET "_ba + longTarget + " HTTP/1.1\r\n\r\n"_ba << 414;
    QTest::newRow("request line too long, no line end yet")
        << "GET "_ba + longTarget + longTarget << 414;
    QTest::newRow("garbage without line end") << QByteArray(200, 'x') << 414;
    QTest::newRow("one header too large")
        << "GET / HTTP/1.1\r\nX-Big: "_ba + QByteArray(150, 'b') + "\r\n\r\n"_ba << 431;
    QTest::newRow("header too large, no line end yet")
        << "GET / HTTP/1.1\r\nX-Big: "_ba + QByteArray(150, 'b') << 431;
    QTest::newRow("headers together too large")
        << "GET / HTTP/1.1\r\nX-A: "_ba + QByteArray(40, 'a') + "\r\nX-B: "_ba + QByteArray(40, 'b')
            + "\r\nX-C: "_ba + QByteArray(40, 'c') + "\r\n\r\n"_ba
        << 431;
    QTest::newRow("too many headers")
        << "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n"_ba << 431;
    QTest::newRow("body too large")
        << "POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n"_ba + QByteArray(17, 'x') << 413;
    QTest::newRow("body too large, announced only")
        << "POST / HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n"_ba << 413;
    QTest::newRow("Content-Length overflows 64 bits")
        << "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999999\r\n\r\n"_ba << 413;
}

void TestRequestParser::limits()
{
    QFETCH(QByteArray, raw);
    QFETCH(int, status);

    const Outcome whole = parse(raw, 0, smallLimits());
    QCOMPARE(whole.last, RequestParser::Result::Error);
    QCOMPARE(whole.errorStatus, status);
    compareOutcomes(parse(raw, 1, smallLimits()), whole);
}

void TestRequestParser::limitBoundariesAccepted()
{
    const RequestParser::Limits limits = smallLimits();
    // Request line of exactly maxRequestLine bytes (without CR LF).
    const QByteArray prefix = "GET /"_ba;
    const QByteArray suffix = " HTTP/1.1"_ba;
    const QByteArray line =
        prefix + QByteArray(limits.maxRequestLine - prefix.size() - suffix.size(), 'a') + suffix;
    QCOMPARE(line.size(), limits.maxRequestLine);
    Outcome outcome = parse(line + "\r\n\r\n"_ba, 1, limits);
    QCOMPARE(outcome.requests.size(), 1);
    outcome = parse(line + "a\r\n\r\n"_ba, 1, limits);
    QCOMPARE(outcome.errorStatus, 414);

    // Header lines of exactly maxHeaderBytes bytes (line ends included).
    const QByteArray header = "X-A: "_ba + QByteArray(limits.maxHeaderBytes - 7, 'h') + "\r\n"_ba;
    QCOMPARE(header.size(), limits.maxHeaderBytes);
    outcome = parse("GET / HTTP/1.1\r\n"_ba + header + "\r\n"_ba, 1, limits);
    QCOMPARE(outcome.requests.size(), 1);
    outcome =
        parse("GET / HTTP/1.1\r\n"_ba + "X-A: h"_ba + header.sliced(5) + "\r\n"_ba, 1, limits);
    QCOMPARE(outcome.errorStatus, 431);

    // maxHeaderCount headers, and a body of exactly maxBody bytes.
    QByteArray raw = "POST / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nContent-Length: 16\r\n\r\n"_ba
        + QByteArray(limits.maxBody, 'x');
    outcome = parse(raw, 1, limits);
    QCOMPARE(outcome.requests.size(), 1);
    QCOMPARE(outcome.requests.first().body.size(), limits.maxBody);
}

void TestRequestParser::keepAlive_data()
{
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QByteArray>("connectionHeaders");
    QTest::addColumn<bool>("keepAlive");

    QTest::newRow("1.1 default") << "HTTP/1.1"_ba << QByteArray() << true;
    QTest::newRow("1.1 close") << "HTTP/1.1"_ba
                               << "Connection: close\r\n"_ba << false;
    QTest::newRow("1.1 Close mixed case") << "HTTP/1.1"_ba
                                          << "connection: CLOSE\r\n"_ba << false;
    QTest::newRow("1.1 close in list") << "HTTP/1.1"_ba
                                       << "Connection: Upgrade, close\r\n"_ba << false;
    QTest::newRow("1.1 close in second header")
        << "HTTP/1.1"_ba
        << "Connection: keep-alive\r\nConnection: close\r\n"_ba << false;
    QTest::newRow("1.1 keep-alive") << "HTTP/1.1"_ba
                                    << "Connection: keep-alive\r\n"_ba << true;
    QTest::newRow("1.1 closed is not close") << "HTTP/1.1"_ba
                                             << "Connection: closed\r\n"_ba << true;
    QTest::newRow("1.0 default") << "HTTP/1.0"_ba << QByteArray() << false;
    QTest::newRow("1.0 keep-alive") << "HTTP/1.0"_ba
                                    << "Connection: Keep-Alive\r\n"_ba << true;
    QTest::newRow("1.0 keep-alive in list") << "HTTP/1.0"_ba
                                            << "Connection: foo ,keep-alive \r\n"_ba << true;
    QTest::newRow("1.0 keep-alive and close") << "HTTP/1.0"_ba
                                              << "Connection: keep-alive, close\r\n"_ba << false;
}

void TestRequestParser::keepAlive()
{
    QFETCH(QByteArray, version);
    QFETCH(QByteArray, connectionHeaders);
    QFETCH(bool, keepAlive);

    const QByteArray raw = "GET / "_ba + version + "\r\n"_ba + connectionHeaders + "\r\n"_ba;
    const Outcome outcome = parse(raw);
    QCOMPARE(outcome.requests.size(), 1);
    QCOMPARE(outcome.keepAlive.first(), keepAlive);

    // The value belongs to the last completed request: a following request resets it.
    const Outcome two = parse(raw + "GET / HTTP/1.1\r\n\r\n"_ba);
    QCOMPARE(two.keepAlive, (QList<bool>{keepAlive, true}));
}

void TestRequestParser::pipelined()
{
    QByteArray buffer = "GET /a HTTP/1.1\r\n\r\n"
                        "POST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
                        "GET /c?x=1 HTTP/1.1\r\nConnection: close\r\n\r\n"
                        "GET /d HT"_ba;
    RequestParser parser;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QVERIFY(buffer.startsWith("POST /b"));
    QCOMPARE(parser.takeRequest().path, u"/a"_s);
    QVERIFY(parser.keepAlive());

    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    Request b = parser.takeRequest();
    QCOMPARE(b.method, "POST"_ba);
    QCOMPARE(b.body, "abc"_ba);

    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    Request c = parser.takeRequest();
    QCOMPARE(c.path, u"/c"_s);
    QCOMPARE(c.query.queryItemValue(u"x"_s), u"1"_s);
    QVERIFY(!parser.keepAlive());

    QCOMPARE(parser.feed(buffer), RequestParser::Result::NeedMore);
    buffer += "TP/1.1\r\n\r\n"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QCOMPARE(parser.takeRequest().path, u"/d"_s);
    QVERIFY(buffer.isEmpty());
}

void TestRequestParser::pipelinedAcrossFeeds()
{
    const QByteArray raw = "POST /one HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
                           "PATCH /two HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
                           "\r\n" // stray empty line between requests is tolerated
                           "GET /three HTTP/1.1\r\n\r\n"_ba;
    for (const qsizetype chunk : {0, 1, 5, 13}) {
        const Outcome outcome = parse(raw, chunk);
        QCOMPARE(outcome.requests.size(), 3);
        QCOMPARE(outcome.requests.at(0).body, "hello"_ba);
        QCOMPARE(outcome.requests.at(1).method, "PATCH"_ba);
        QCOMPARE(outcome.requests.at(1).body, "{}"_ba);
        QCOMPARE(outcome.requests.at(2).path, u"/three"_s);
        QCOMPARE(outcome.last, RequestParser::Result::NeedMore);
        QVERIFY(outcome.leftover.isEmpty());
    }
}

void TestRequestParser::needMoreKeepsPartialInput()
{
    RequestParser parser;
    QByteArray buffer = "GET /v1/me HTTP/1.1\r\nHost: a"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::NeedMore);
    QCOMPARE(buffer, "Host: a"_ba); // the request line was consumed, the partial header kept
    buffer += "\r\nContent-Length: 4\r\n\r\nab"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::NeedMore);
    QCOMPARE(buffer, "ab"_ba);
    buffer += "cdGET"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QCOMPARE(buffer, "GET"_ba);
    const Request request = parser.takeRequest();
    QCOMPARE(request.body, "abcd"_ba);
    QCOMPARE(request.header("host"), "a"_ba);
}

void TestRequestParser::completeIsStableUntilTaken()
{
    RequestParser parser;
    QByteArray buffer = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    const QByteArray rest = buffer;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QCOMPARE(buffer, rest); // nothing consumed while the request is untaken
    QCOMPARE(parser.takeRequest().path, u"/a"_s);
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Complete);
    QCOMPARE(parser.takeRequest().path, u"/b"_s);
}

void TestRequestParser::errorIsSticky()
{
    RequestParser parser;
    QByteArray buffer = "BAD\r\n"_ba;
    QCOMPARE(parser.feed(buffer), RequestParser::Result::Error);
    QCOMPARE(parser.errorStatus(), 400);
    QByteArray good = "GET / HTTP/1.1\r\n\r\n"_ba;
    QCOMPARE(parser.feed(good), RequestParser::Result::Error);
    QCOMPARE(parser.errorStatus(), 400);
}

void TestRequestParser::headersLowerCasedInOrder()
{
    const Outcome outcome =
        parse("GET / HTTP/1.1\r\nHost: h\r\nX-Custom-Thing: One\r\nx-custom-thing: Two\r\n"
              "ACCEPT: */*\r\n\r\n"_ba);
    QCOMPARE(outcome.requests.size(), 1);
    const HeaderList expected{{"host"_ba, "h"_ba},
                              {"x-custom-thing"_ba, "One"_ba},
                              {"x-custom-thing"_ba, "Two"_ba},
                              {"accept"_ba, "*/*"_ba}};
    QCOMPARE(outcome.requests.first().headers, expected);
}

void TestRequestParser::headerLookupIsCaseInsensitive()
{
    const Outcome outcome = parse("GET / HTTP/1.1\r\nAuthorization: Bearer abc\r\n"
                                  "X-Dup: 1\r\nX-Dup: 2\r\n\r\n"_ba);
    QCOMPARE(outcome.requests.size(), 1);
    const Request &request = outcome.requests.first();
    QCOMPARE(request.header("AUTHORIZATION"), "Bearer abc"_ba);
    QCOMPARE(request.header("authorization"), "Bearer abc"_ba);
    QVERIFY(request.hasHeader("Authorization"));
    QCOMPARE(request.header("x-dup"), "1"_ba); // the first value
    QVERIFY(!request.hasHeader("authorizatio"));
    QCOMPARE(request.header("missing"), QByteArray());
}

void TestRequestParser::bodyBytesAreExact()
{
    // The body is taken by length, even if it looks like more HTTP.
    const QByteArray raw = "POST /x HTTP/1.1\r\nContent-Length: 19\r\n\r\n"
                           "GET /y HTTP/1.1\r\n\r\n"_ba;
    const Outcome outcome = parse(raw, 1);
    QCOMPARE(outcome.requests.size(), 1);
    QCOMPARE(outcome.requests.first().body, "GET /y HTTP/1.1\r\n\r\n"_ba);
}

QTEST_APPLESS_MAIN(TestRequestParser)
#include "tst_requestparser.moc"
