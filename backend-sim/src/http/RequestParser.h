#pragma once

#include "HttpMessage.h"

#include <QByteArray>
#include <QString>

#include <utility>

namespace cardhour::http {

// tchar of RFC 9110 section 5.6.2: what a method or a header name is made of.
bool isTokenChar(char c);

// Incremental, allocation-bounded HTTP/1.1 request parser. Pure (no sockets), so it is
// unit-tested and fuzzed directly. Supports Content-Length bodies only; a request with
// Transfer-Encoding is refused (501), a body without Content-Length on POST/PUT/PATCH is
// taken as empty.
class RequestParser
{
public:
    struct Limits
    {
        qsizetype maxRequestLine = 8 * 1024;
        qsizetype maxHeaderBytes = 32 * 1024; // all header lines together
        int maxHeaderCount = 100;
        qsizetype maxBody = 1024 * 1024;
    };

    enum class Result {
        NeedMore,
        Complete,
        Error
    };

    RequestParser() = default;
    explicit RequestParser(Limits limits) : m_limits(limits) {}

    // Consumes bytes from the front of `buffer` (removing what it used). Returns Complete when
    // a whole request is ready (fetch it with takeRequest(); the rest of `buffer` may already
    // hold the next pipelined request), NeedMore when more bytes are needed, Error on a
    // malformed or over-limit request (errorStatus()/errorMessage() say why; the connection
    // should answer and close).
    Result feed(QByteArray &buffer);

    Request takeRequest(); // valid after Complete; resets for the next request
    int errorStatus() const { return m_errorStatus; } // 400, 413, 414, 431, 501, 505
    QString errorMessage() const { return m_errorMessage; }
    // Whether the connection stays open after the last completed request
    // (HTTP/1.1 default unless "Connection: close"; HTTP/1.0 only with "keep-alive").
    bool keepAlive() const { return m_keepAlive; }
    // True once, when the headers of a request with "Expect: 100-continue" are in and its body
    // is not: the server then sends an interim "100 Continue" so the client sends the body.
    bool takeContinueRequest() { return std::exchange(m_expectContinue, false); }
    // Whether part of a request (its line, headers or body) has been taken in and the request
    // is not complete yet: the server's request deadline runs meanwhile.
    bool midRequest() const { return m_stage != Stage::RequestLine && !m_complete; }

private:
    // implementation detail, free to change
    enum class Stage {
        RequestLine,
        Headers,
        Body
    };
    Result fail(int status, const QString &message);
    Result parseRequestLine(QByteArrayView line);
    Result parseHeaderLine(QByteArrayView line);
    Result finishHeaders();

    Limits m_limits;
    Stage m_stage = Stage::RequestLine;
    Request m_request;
    qsizetype m_headerBytes = 0;
    qsizetype m_contentLength = 0;
    int m_headerCount = 0;
    bool m_complete = false; // a request is ready and not yet taken
    bool m_expectContinue = false;
    bool m_keepAlive = true;
    bool m_http10 = false;
    int m_errorStatus = 0;
    QString m_errorMessage;
};

} // namespace cardhour::http
