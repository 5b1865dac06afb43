#include "RequestParser.h"

#include <QStringDecoder>

namespace cardhour::http {

using namespace Qt::StringLiterals;

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

namespace {

bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isOws(char c)
{
    return c == ' ' || c == '\t';
}

QByteArrayView trimOws(QByteArrayView text)
{
    while (!text.isEmpty() && isOws(text.front()))
        text = text.sliced(1);
    while (!text.isEmpty() && isOws(text.back()))
        text.chop(1);
    return text;
}

// Whether a comma-separated header value (e.g. Connection) lists `token`, case-insensitively.
bool listContainsToken(QByteArrayView list, QByteArrayView token)
{
    while (!list.isEmpty()) {
        const qsizetype comma = list.indexOf(',');
        const QByteArrayView item = trimOws(comma < 0 ? list : list.first(comma));
        if (item.size() == token.size() && item.compare(token, Qt::CaseInsensitive) == 0)
            return true;
        if (comma < 0)
            break;
        list = list.sliced(comma + 1);
    }
    return false;
}

bool isDigits(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

} // namespace

RequestParser::Result RequestParser::fail(int status, const QString &message)
{
    m_errorStatus = status;
    m_errorMessage = message;
    m_keepAlive = false;
    return Result::Error;
}

RequestParser::Result RequestParser::feed(QByteArray &buffer)
{
    if (m_errorStatus != 0)
        return Result::Error;
    if (m_complete)
        return Result::Complete;

    for (;;) {
        switch (m_stage) {
        case Stage::RequestLine: {
            const qsizetype lf = buffer.indexOf('\n');
            if (lf < 0) {
                // The line (without its CR LF) is at least size() - 1 bytes long already.
                if (buffer.size() > m_limits.maxRequestLine + 1)
                    return fail(414, u"Request line too long"_s);
                return Result::NeedMore;
            }
            QByteArrayView line(buffer.constData(), lf);
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.isEmpty()) {
                // RFC 9112 section 2.2: ignore empty lines before the request line.
                buffer.remove(0, lf + 1);
                continue;
            }
            if (line.size() > m_limits.maxRequestLine)
                return fail(414, u"Request line too long"_s);
            if (parseRequestLine(line) == Result::Error)
                return Result::Error;
            buffer.remove(0, lf + 1);
            m_stage = Stage::Headers;
            continue;
        }
        case Stage::Headers: {
            const qsizetype lf = buffer.indexOf('\n');
            if (lf < 0) {
                // A pending line that cannot be the empty end-of-headers line ("" or "\r")
                // will take at least size() + 1 bytes once its LF arrives.
                const qsizetype pending = buffer.size();
                if ((pending >= 2 || (pending == 1 && buffer.at(0) != '\r'))
                    && m_headerBytes + pending + 1 > m_limits.maxHeaderBytes) {
                    return fail(431, u"Request header fields too large"_s);
                }
                return Result::NeedMore;
            }
            QByteArrayView line(buffer.constData(), lf);
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.isEmpty()) {
                if (finishHeaders() == Result::Error)
                    return Result::Error;
                buffer.remove(0, lf + 1);
                if (m_contentLength == 0) {
                    m_complete = true;
                    return Result::Complete;
                }
                m_stage = Stage::Body;
                m_expectContinue = !m_http10
                    && m_request.header("expect").trimmed().compare("100-continue",
                                                                    Qt::CaseInsensitive)
                        == 0;
                continue;
            }
            m_headerBytes += lf + 1;
            if (m_headerBytes > m_limits.maxHeaderBytes)
                return fail(431, u"Request header fields too large"_s);
            if (++m_headerCount > m_limits.maxHeaderCount)
                return fail(431, u"Too many request header fields"_s);
            if (parseHeaderLine(line) == Result::Error)
                return Result::Error;
            buffer.remove(0, lf + 1);
            continue;
        }
        case Stage::Body: {
            if (buffer.size() < m_contentLength)
                return Result::NeedMore;
            m_request.body = buffer.left(m_contentLength);
            buffer.remove(0, m_contentLength);
            m_complete = true;
            return Result::Complete;
        }
        }
        return Result::NeedMore; // not reached
    }
}

RequestParser::Result RequestParser::parseRequestLine(QByteArrayView line)
{
    for (const char c : line) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            return fail(400, u"Control character in request line"_s);
    }
    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp1 < 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0)
        return fail(400, u"Malformed request line"_s);

    const QByteArrayView method = line.first(sp1);
    const QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);

    if (!isToken(method))
        return fail(400, u"Invalid request method"_s);

    if (version == "HTTP/1.1") {
        m_http10 = false;
    } else if (version == "HTTP/1.0") {
        m_http10 = true;
    } else {
        const bool wellFormed = version.size() == 8 && version.startsWith("HTTP/")
            && version.at(5) >= '0' && version.at(5) <= '9' && version.at(6) == '.'
            && version.at(7) >= '0' && version.at(7) <= '9';
        if (wellFormed)
            return fail(505, u"HTTP version not supported"_s);
        return fail(400, u"Malformed HTTP version"_s);
    }

    if (target.isEmpty() || target.front() != '/')
        return fail(400, u"Request target must be an absolute path"_s);
    for (const char c : target) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f || c == '#')
            return fail(400, u"Invalid character in request target"_s);
    }

    const qsizetype question = target.indexOf('?');
    const QByteArrayView rawPath = question < 0 ? target : target.first(question);
    const QByteArrayView rawQuery = question < 0 ? QByteArrayView() : target.sliced(question + 1);

    QByteArray decoded;
    decoded.reserve(rawPath.size());
    for (qsizetype i = 0; i < rawPath.size(); ++i) {
        const char c = rawPath.at(i);
        if (c != '%') {
            decoded.append(c);
            continue;
        }
        if (i + 2 >= rawPath.size())
            return fail(400, u"Invalid percent-encoding in path"_s);
        const int high = hexValue(rawPath.at(i + 1));
        const int low = hexValue(rawPath.at(i + 2));
        if (high < 0 || low < 0)
            return fail(400, u"Invalid percent-encoding in path"_s);
        const int byte = high * 16 + low;
        if (byte == 0)
            return fail(400, u"Encoded NUL in path"_s);
        decoded.append(static_cast<char>(byte));
        i += 2;
    }
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString path = utf8.decode(decoded);
    if (utf8.hasError())
        return fail(400, u"Path is not valid UTF-8"_s);

    m_request.method = method.toByteArray();
    m_request.target = target.toByteArray();
    m_request.path = std::move(path);
    if (!rawQuery.isEmpty())
        m_request.query.setQuery(QString::fromLatin1(rawQuery));
    return Result::NeedMore;
}

RequestParser::Result RequestParser::parseHeaderLine(QByteArrayView line)
{
    if (isOws(line.front()))
        return fail(400, u"Obsolete header line folding is not supported"_s);
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return fail(400, u"Malformed header line"_s);
    const QByteArrayView name = line.first(colon);
    if (!isToken(name))
        return fail(400, u"Invalid header name"_s);
    const QByteArrayView value = trimOws(line.sliced(colon + 1));
    for (const char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return fail(400, u"Invalid character in header value"_s);
    }
    m_request.headers.append({name.toByteArray().toLower(), value.toByteArray()});
    return Result::NeedMore;
}

RequestParser::Result RequestParser::finishHeaders()
{
    bool sawClose = false;
    bool sawKeepAlive = false;
    bool sawTransferEncoding = false;
    bool sawContentLength = false;
    QByteArrayView contentLength; // without leading zeros
    for (const auto &[name, value] : std::as_const(m_request.headers)) {
        if (name == "connection") {
            sawClose = sawClose || listContainsToken(value, "close");
            sawKeepAlive = sawKeepAlive || listContainsToken(value, "keep-alive");
        } else if (name == "transfer-encoding") {
            sawTransferEncoding = true;
        } else if (name == "content-length") {
            if (!isDigits(value))
                return fail(400, u"Invalid Content-Length"_s);
            QByteArrayView digits = value;
            while (digits.size() > 1 && digits.front() == '0')
                digits = digits.sliced(1);
            if (sawContentLength && digits != contentLength)
                return fail(400, u"Conflicting Content-Length headers"_s);
            sawContentLength = true;
            contentLength = digits;
        }
    }
    m_keepAlive = m_http10 ? (sawKeepAlive && !sawClose) : !sawClose;

    if (sawTransferEncoding)
        return fail(501, u"Transfer-Encoding is not supported"_s);

    m_contentLength = 0;
    if (sawContentLength) {
        // 18 digits always fit in qint64.
        if (contentLength.size() > 18)
            return fail(413, u"Request body too large"_s);
        qint64 length = 0;
        for (const char c : contentLength)
            length = length * 10 + (c - '0');
        if (length > m_limits.maxBody)
            return fail(413, u"Request body too large"_s);
        m_contentLength = static_cast<qsizetype>(length);
    }
    return Result::NeedMore;
}

Request RequestParser::takeRequest()
{
    Request request = std::move(m_request);
    m_request = Request();
    m_stage = Stage::RequestLine;
    m_headerBytes = 0;
    m_headerCount = 0;
    m_contentLength = 0;
    m_http10 = false;
    m_complete = false;
    m_expectContinue = false;
    return request;
}

} // namespace cardhour::http
