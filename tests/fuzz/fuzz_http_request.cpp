// Fuzz target for the HTTP request parser (and, for complete requests, the router).
//
// The input is fed to RequestParser whole and in several chunkings (fixed-size chunks and
// split points derived from the data). Besides "no crash, no sanitizer report, bounded memory"
// it checks one property: how the bytes are chunked never changes the outcome, i.e. the same
// requests come out, then the same final state (needs more / error status and message).
#include "http/HttpMessage.h"
#include "http/RequestParser.h"
#include "http/Router.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtGlobal>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

using namespace cardhour::http;
using namespace Qt::StringLiterals;

namespace {

// Small limits so the limit paths are reachable with small inputs.
RequestParser::Limits smallLimits()
{
    RequestParser::Limits limits;
    limits.maxRequestLine = 200;
    limits.maxHeaderBytes = 600;
    limits.maxHeaderCount = 12;
    limits.maxBody = 1000;
    return limits;
}

// The router logs handler exceptions with qWarning; keep the fuzzer's output quiet.
void silenceQtMessages(QtMsgType, const QMessageLogContext &, const QString &) {}

const Router &router()
{
    static const Router instance = [] {
        qInstallMessageHandler(silenceQtMessages);
        Router r;
        r.add("GET"_ba, u"/v1/items"_s, [](Request &request) {
            QJsonObject out{{u"limit"_s, request.query.queryItemValue(u"limit"_s)}};
            return Response::json(200, out);
        });
        r.add("POST"_ba, u"/v1/items"_s, [](Request &request) {
            QJsonParseError error{};
            const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject())
                return Response::error(400, u"invalid_json"_s, error.errorString());
            return Response::json(201, doc.object());
        });
        r.add("GET"_ba, u"/v1/items/{id}"_s, [](Request &request) {
            if (request.pathParams.value(u"id"_s) == u"boom"_s)
                throw std::runtime_error("boom");
            return Response::json(200, QJsonObject{{u"id"_s, request.pathParams.value(u"id"_s)}});
        });
        r.add("GET"_ba, u"/v1/items/new"_s, [](Request &) { return Response::noContent(); });
        r.add("DELETE"_ba, u"/v1/items/{id}/tags/{tag}"_s, [](Request &request) {
            Response response = Response::noContent();
            response.setHeader("X-Tag"_ba, request.pathParams.value(u"tag"_s).toUtf8());
            return response;
        });
        return r;
    }();
    return instance;
}

void check(bool condition)
{
    if (!condition)
        std::abort();
}

QByteArray summarize(const Request &request, bool keepAlive)
{
    QByteArray out = request.method + ' ' + request.target + ' ' + request.path.toUtf8() + ' '
        + request.query.toString(QUrl::FullyEncoded).toUtf8()
        + (keepAlive ? " ka\n"_ba : " close\n"_ba);
    for (const auto &[name, value] : request.headers)
        out += name + ':' + value + '\n';
    out += QByteArray::number(request.body.size()) + '\n' + request.body;
    return out;
}

struct Outcome
{
    QList<QByteArray> requests;
    int errorStatus = 0; // 0: ended needing more bytes
    QString errorMessage;

    bool operator==(const Outcome &other) const = default;
};

void route(Request request)
{
    Response response = router().dispatch(request);
    check(response.status >= 200 && response.status < 600);
    if (response.status == 404 || response.status == 405 || response.status == 500) {
        const QJsonDocument doc = QJsonDocument::fromJson(response.body);
        check(doc.isObject() && doc.object().contains(u"error"_s));
    }
}

// Feeds `data` cut at `cuts` (sorted offsets); requests are routed when `withRouter`.
Outcome run(const QByteArray &data, const std::vector<qsizetype> &cuts,
            RequestParser::Limits limits, bool withRouter)
{
    RequestParser parser(limits);
    Outcome outcome;
    QByteArray buffer;
    qsizetype from = 0;
    for (qsizetype i = 0; i <= static_cast<qsizetype>(cuts.size()); ++i) {
        const qsizetype to =
            i < static_cast<qsizetype>(cuts.size()) ? cuts[static_cast<size_t>(i)] : data.size();
        buffer.append(data.constData() + from, to - from);
        from = to;
        for (;;) {
            const RequestParser::Result result = parser.feed(buffer);
            if (result == RequestParser::Result::NeedMore)
                break;
            if (result == RequestParser::Result::Error) {
                const int status = parser.errorStatus();
                check(status == 400 || status == 413 || status == 414 || status == 431
                      || status == 501 || status == 505);
                check(!parser.keepAlive());
                outcome.errorStatus = status;
                outcome.errorMessage = parser.errorMessage();
                return outcome;
            }
            Request request = parser.takeRequest();
            check(request.path.startsWith(u'/'));
            check(request.body.size() <= limits.maxBody);
            check(request.headers.size() <= limits.maxHeaderCount);
            outcome.requests.append(summarize(request, parser.keepAlive()));
            if (withRouter)
                route(std::move(request));
        }
        // Whatever is left waiting is bounded by the limits.
        check(buffer.size() <= limits.maxRequestLine + limits.maxHeaderBytes + limits.maxBody + 2);
    }
    return outcome;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const QByteArray input(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const auto length = static_cast<qsizetype>(size);
    const RequestParser::Limits limits = smallLimits();

    const Outcome whole = run(input, {}, limits, true);

    // Fixed-size chunks, the size taken from the first byte (1 = byte by byte).
    const qsizetype step = size > 0 ? 1 + (data[0] % 16) : 1;
    std::vector<qsizetype> fixed;
    for (qsizetype at = step; at < length; at += step)
        fixed.push_back(at);
    check(run(input, fixed, limits, false) == whole);

    // Split points from a small PRNG seeded with the data.
    uint32_t seed = 2166136261u;
    for (size_t i = 0; i < size; ++i)
        seed = (seed ^ data[i]) * 16777619u;
    std::vector<qsizetype> random;
    for (qsizetype at = 0; length > 0;) {
        seed = seed * 1103515245u + 12345u;
        at += 1 + static_cast<qsizetype>((seed >> 16) % 64);
        if (at >= length)
            break;
        random.push_back(at);
    }
    check(run(input, random, limits, false) == whole);

    // Default limits, whole input, through the router too.
    run(input, {}, RequestParser::Limits(), true);
    return 0;
}
