#include "SimProcess.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonParseError>
#include <QNetworkProxy>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::test {

namespace {

bool sameName(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

void parseJsonInto(Reply &reply)
{
    if (reply.body.isEmpty())
        return;
    QJsonParseError error{};
    reply.json = QJsonDocument::fromJson(reply.body, &error);
    reply.jsonValid = error.error == QJsonParseError::NoError;
}

} // namespace

// ---- Reply ----------------------------------------------------------------------------------

QByteArray Reply::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (sameName(key, name))
            return value;
    }
    return {};
}

bool Reply::hasHeader(QByteArrayView name) const
{
    for (const auto &entry : headers) {
        if (sameName(entry.first, name))
            return true;
    }
    return false;
}

QString Reply::errorCode() const
{
    return json.object().value(u"error"_s).toObject().value(u"code"_s).toString();
}

QByteArray Reply::describe() const
{
    if (status == 0)
        return "no HTTP response: "_ba + networkError.toUtf8();
    return "HTTP "_ba + QByteArray::number(status) + ' ' + body.left(2000);
}

std::optional<Reply> parseRawResponse(const QByteArray &data, qsizetype *consumed)
{
    const qsizetype headEnd = data.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return std::nullopt;
    const QList<QByteArray> lines = data.left(headEnd).split('\n');
    Reply reply;
    const QList<QByteArray> statusParts = lines.value(0).trimmed().split(' ');
    if (statusParts.size() < 2 || !statusParts.at(0).startsWith("HTTP/"))
        return std::nullopt;
    reply.status = statusParts.at(1).toInt();
    qint64 contentLength = -1;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed();
        const QByteArray value = line.mid(colon + 1).trimmed();
        reply.headers.append({name, value});
        if (sameName(name, "content-length"))
            contentLength = value.toLongLong();
    }
    const qsizetype bodyStart = headEnd + 4;
    if (contentLength < 0)
        contentLength = 0; // 204 and friends; the server always sends Content-Length otherwise
    if (data.size() - bodyStart < contentLength)
        return std::nullopt;
    reply.body = data.mid(bodyStart, contentLength);
    parseJsonInto(reply);
    if (consumed)
        *consumed = bodyStart + contentLength;
    return reply;
}

QByteArray rawRequest(const QByteArray &method, const QString &path, const QByteArray &body,
                      const Headers &headers, bool close)
{
    QByteArray out = method + ' ' + path.toUtf8() + " HTTP/1.1\r\n"_ba;
    out += "Host: 127.0.0.1\r\n"_ba;
    bool hasType = false;
    for (const auto &[name, value] : headers) {
        out += name + ": "_ba + value + "\r\n"_ba;
        hasType = hasType || sameName(name, "content-type");
    }
    if (!body.isEmpty() && !hasType)
        out += "Content-Type: application/json\r\n"_ba;
    if (!body.isEmpty() || method == "POST")
        out += "Content-Length: "_ba + QByteArray::number(body.size()) + "\r\n"_ba;
    if (close)
        out += "Connection: close\r\n"_ba;
    out += "\r\n"_ba;
    out += body;
    return out;
}

qint64 isoToMs(const QString &iso)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : -1;
}

// ---- SimProcess -----------------------------------------------------------------------------

SimProcess::SimProcess(QObject *parent) : QObject(parent)
{
    resetNetwork();
}

SimProcess::~SimProcess()
{
    if (isRunning())
        kill();
}

QString SimProcess::binaryPath()
{
    return qEnvironmentVariable("CARDHOUR_SIM_BIN");
}

void SimProcess::resetNetwork()
{
    m_nam = std::make_unique<QNetworkAccessManager>();
    m_nam->setProxy(QNetworkProxy::NoProxy);
}

QString SimProcess::postgresServer()
{
    const QString file = qEnvironmentVariable("CARDHOUR_TEST_POSTGRES_URL_FILE");
    if (file.isEmpty())
        return {};
    QFile url(file);
    if (!url.open(QIODevice::ReadOnly))
        qFatal("CARDHOUR_TEST_POSTGRES_URL_FILE=%s cannot be read: is the postgres fixture up?",
               qPrintable(file));
    return QString::fromUtf8(url.readAll()).trimmed();
}

QString SimProcess::postgresStore(const QString &server, const QString &key)
{
    const QByteArray hash = QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1);
    return server + u"?schema=t_"_s + QString::fromLatin1(hash.toHex().first(16));
}

bool SimProcess::start(const QStringList &extraArgs, const QString &dataDir, int timeoutMs)
{
    if (isRunning()) {
        m_lastError = u"already running"_s;
        return false;
    }
    if (!dataDir.isEmpty()) {
        m_dataDir = dataDir;
    } else if (m_dataDir.isEmpty()) {
        m_ownDir = std::make_unique<QTemporaryDir>();
        if (!m_ownDir->isValid()) {
            m_lastError = u"cannot create a temporary directory: %1"_s.arg(m_ownDir->errorString());
            return false;
        }
        m_dataDir = m_ownDir->path();
    }
    m_passDataDir = true;
    m_extraArgs = extraArgs;
    return restart(timeoutMs);
}

bool SimProcess::startWithDefaultDataDir(const QStringList &extraArgs, int timeoutMs)
{
    if (isRunning()) {
        m_lastError = u"already running"_s;
        return false;
    }
    m_dataDir.clear();
    m_passDataDir = false;
    m_extraArgs = extraArgs;
    return restart(timeoutMs);
}

bool SimProcess::restart(int timeoutMs)
{
    if (isRunning()) {
        m_lastError = u"still running: kill() or terminate() it first"_s;
        return false;
    }
    m_lastError.clear();
    m_baseUrl.clear();
    m_port = 0;
    m_firstLine.clear();
    const QString program = binaryPath();
    if (program.isEmpty()) {
        m_lastError = u"CARDHOUR_SIM_BIN is not set (run the test through ctest)"_s;
        return false;
    }
    if (m_dataDir.isEmpty() && m_passDataDir) {
        m_lastError = u"restart() before start()"_s;
        return false;
    }
    resetNetwork(); // connections to the previous process are gone
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(program);
    m_arguments = QStringList{u"--listen"_s, u"127.0.0.1:0"_s};
    if (m_passDataDir)
        m_arguments << u"--data"_s << m_dataDir;
    m_arguments += m_extraArgs;
    // These tests are about the API, not containers: the in-process runtime unless a test asks.
    if (!m_extraArgs.contains(u"--runtime"_s))
        m_arguments << u"--runtime"_s << u"inprocess"_s;
    // The built-in catalog's simulated cards, also on a machine with real GPUs, unless asked.
    if (!m_extraArgs.contains(u"--gpus"_s))
        m_arguments << u"--gpus"_s << u"simulated"_s;
    // Password hashing at the production cost (2^17) takes a large part of a second per sign-up;
    // these tests are about the API, so a cheaper hash unless a test asks (tests/security checks
    // the default).
    if (!m_extraArgs.contains(u"--scrypt-cost-log2"_s))
        m_arguments << u"--scrypt-cost-log2"_s << u"10"_s;
    // The suite's run on PostgreSQL: one schema per data directory (a restart finds its data).
    if (const QString server = postgresServer();
        !server.isEmpty() && m_passDataDir && !m_extraArgs.contains(u"--store"_s))
        m_arguments << u"--store"_s << postgresStore(server, m_dataDir);
    m_process->setArguments(m_arguments);
    // The provider's warnings go straight to the test's stderr: visible, and a full pipe
    // can never block the provider.
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->start();
    if (!m_process->waitForStarted(timeoutMs)) {
        m_lastError = u"cannot start %1: %2"_s.arg(program, m_process->errorString());
        return false;
    }
    const QDeadlineTimer deadline(timeoutMs);
    while (!m_process->canReadLine()) {
        if (m_process->state() != QProcess::Running || deadline.hasExpired()) {
            m_lastError =
                u"%1 did not print its listening line (state %2, exit code %3)"_s.arg(program)
                    .arg(int(m_process->state()))
                    .arg(m_process->exitCode());
            if (m_process->state() == QProcess::Running)
                kill();
            return false;
        }
        m_process->waitForReadyRead(
            int(std::max<qint64>(1, std::min<qint64>(deadline.remainingTime(), 200))));
    }
    m_firstLine = QString::fromUtf8(m_process->readLine()).chopped(1);
    static const QRegularExpression pattern(u"^listening (https?://127\\.0\\.0\\.1:(\\d+))$"_s);
    const QRegularExpressionMatch match = pattern.match(m_firstLine);
    if (!match.hasMatch()) {
        m_lastError = u"unexpected first line: \"%1\""_s.arg(m_firstLine);
        kill();
        return false;
    }
    m_baseUrl = QUrl(match.captured(1));
    m_port = static_cast<quint16>(match.captured(2).toUInt());
    m_testClockSecret.clear();
    if (m_arguments.contains(u"--test-clock"_s) && !m_dataDir.isEmpty()) {
        // Written before the listening line; test routes answer only with it.
        QFile secret(QDir(m_dataDir).filePath(u"test-clock-secret"_s));
        if (!secret.open(QIODevice::ReadOnly)) {
            m_lastError = u"cannot read %1: %2"_s.arg(secret.fileName(), secret.errorString());
            kill();
            return false;
        }
        m_testClockSecret = secret.readAll().trimmed();
    }
    return true;
}

bool SimProcess::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void SimProcess::kill()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(15000);
    }
}

bool SimProcess::terminate(int timeoutMs)
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return false;
    m_process->terminate();
    if (!m_process->waitForFinished(timeoutMs)) {
        m_lastError = u"did not exit within %1 ms of SIGTERM"_s.arg(timeoutMs);
        kill();
        return false;
    }
    return m_process->exitStatus() == QProcess::NormalExit && m_process->exitCode() == 0;
}

// ---- HTTP -----------------------------------------------------------------------------------

QNetworkReply *SimProcess::send(const QByteArray &method, const QString &path,
                                const QByteArray &body, const Headers &headers)
{
    QNetworkRequest request(m_baseUrl.resolved(QUrl(path, QUrl::TolerantMode)));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    bool hasType = false;
    if (path.startsWith(u"/v1/_test/"_s) && !m_testClockSecret.isEmpty() && m_sendTestSecret)
        request.setRawHeader(kTestSecretHeader, m_testClockSecret);
    for (const auto &[name, value] : headers) {
        request.setRawHeader(name, value);
        hasType = hasType || sameName(name, "content-type");
    }
    if (!body.isEmpty() && !hasType)
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    return m_nam->sendCustomRequest(request, method, body);
}

Reply SimProcess::toReply(QNetworkReply *reply)
{
    Reply result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (result.status == 0)
        result.networkError = reply->errorString();
    const QList<QNetworkReply::RawHeaderPair> pairs = reply->rawHeaderPairs();
    for (const auto &pair : pairs)
        result.headers.append({pair.first, pair.second});
    result.body = reply->readAll();
    parseJsonInto(result);
    return result;
}

Reply SimProcess::request(const QByteArray &method, const QString &path, const QByteArray &body,
                          const Headers &headers, int timeoutMs)
{
    if (m_baseUrl.isEmpty()) {
        Reply none;
        none.networkError = u"the provider is not running"_s;
        return none;
    }
    QNetworkReply *reply = send(method, path, body, headers);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();
    Reply result;
    if (!reply->isFinished()) {
        reply->abort();
        result.networkError =
            u"timed out after %1 ms: %2 %3"_s.arg(timeoutMs).arg(QString::fromLatin1(method), path);
    } else {
        result = toReply(reply);
    }
    reply->deleteLater();
    return result;
}

Reply SimProcess::request(const QByteArray &method, const QString &path, const QJsonObject &body,
                          const Headers &headers, int timeoutMs)
{
    return request(method, path, QJsonDocument(body).toJson(QJsonDocument::Compact), headers,
                   timeoutMs);
}

Headers SimProcess::bearer(const QString &token)
{
    return {{"Authorization"_ba, "Bearer "_ba + token.toLatin1()}};
}

Reply SimProcess::authedGet(const QString &token, const QString &path, const Headers &extra)
{
    return request("GET", path, QByteArray(), bearer(token) + extra);
}

Reply SimProcess::authedPost(const QString &token, const QString &path, const QJsonObject &body,
                             const Headers &extra)
{
    return request("POST", path, body, bearer(token) + extra);
}

Reply SimProcess::authedPostRaw(const QString &token, const QString &path, const QByteArray &body,
                                const Headers &extra)
{
    return request("POST", path, body, bearer(token) + extra);
}

Reply SimProcess::authedDelete(const QString &token, const QString &path, const Headers &extra)
{
    return request("DELETE", path, QByteArray(), bearer(token) + extra);
}

// ---- helpers --------------------------------------------------------------------------------

QString SimProcess::signUp(const QString &email, const QString &password)
{
    const Reply reply =
        post(u"/v1/auth/signup"_s, QJsonObject{{u"email"_s, email}, {u"password"_s, password}});
    if (reply.status != 201) {
        m_lastError = u"sign-up of %1 failed: %2"_s.arg(email, QString::fromUtf8(reply.describe()));
        return {};
    }
    return reply.value(u"token"_s).toString();
}

bool SimProcess::advance(double seconds)
{
    const Reply reply = post(u"/v1/_test/clock/advance"_s, QJsonObject{{u"seconds"_s, seconds}});
    if (reply.status != 200)
        m_lastError = u"clock advance failed: %1"_s.arg(QString::fromUtf8(reply.describe()));
    return reply.status == 200;
}

QString SimProcess::verifyLedger()
{
    const Reply reply = get(u"/v1/_test/ledger/verify"_s);
    if (reply.status != 200)
        return u"verify failed: "_s + QString::fromUtf8(reply.describe());
    if (reply.value(u"ok"_s).toBool())
        return {};
    const QString problem = reply.value(u"problem"_s).toString();
    return problem.isEmpty() ? u"verify says not ok without a problem"_s : problem;
}

QJsonObject SimProcess::waitForState(const QString &token, const QString &instanceId,
                                     const QString &state, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    QJsonObject last;
    for (;;) {
        const Reply reply = authedGet(token, u"/v1/instances/"_s + instanceId);
        if (reply.status == 200) {
            last = reply.object();
            if (last.value(u"state"_s).toString() == state)
                return last;
        }
        if (deadline.hasExpired())
            return last;
        QTest::qWait(5);
    }
}

QString SimProcess::createRunning(const QString &token, const QJsonObject &body, int timeoutMs)
{
    const Reply reply = authedPost(token, u"/v1/instances"_s, body);
    if (reply.status != 202) {
        m_lastError = u"create failed: %1"_s.arg(QString::fromUtf8(reply.describe()));
        return {};
    }
    const QString id = reply.value(u"id"_s).toString();
    const QJsonObject instance = waitForState(token, id, u"running"_s, timeoutMs);
    if (instance.value(u"state"_s).toString() != u"running"_s) {
        m_lastError = u"instance %1 did not reach running: %2"_s.arg(
            id, QString::fromUtf8(QJsonDocument(instance).toJson(QJsonDocument::Compact)));
        return {};
    }
    return id;
}

QJsonArray SimProcess::allPostings(const QString &token)
{
    QJsonArray all;
    qint64 before = 0;
    for (int page = 0; page < 1000; ++page) {
        QString path = u"/v1/billing/ledger?limit=500"_s;
        if (before > 0)
            path += u"&before=%1"_s.arg(before);
        const Reply reply = authedGet(token, path);
        if (reply.status != 200) {
            m_lastError = u"ledger read failed: %1"_s.arg(QString::fromUtf8(reply.describe()));
            return all;
        }
        const QJsonArray postings = reply.value(u"postings"_s).toArray();
        for (const QJsonValue &p : postings)
            all.append(p);
        const QJsonValue next = reply.value(u"next_before"_s);
        if (next.isNull() || next.isUndefined())
            break;
        before = next.toInteger();
    }
    return all;
}

// ---- raw sockets ----------------------------------------------------------------------------

QList<Reply> SimProcess::sendConcurrently(const QList<QByteArray> &requests, int timeoutMs,
                                          const QHostAddress &source)
{
    QList<QPair<quint16, QByteArray>> toPort;
    for (const QByteArray &request : requests)
        toPort.append({m_port, request});
    return sendConcurrently(toPort, timeoutMs, source);
}

QList<Reply> SimProcess::sendConcurrently(const QList<QPair<quint16, QByteArray>> &requests,
                                          int timeoutMs, const QHostAddress &source)
{
    const QDeadlineTimer deadline(timeoutMs);
    const auto remaining = [&deadline] {
        return int(std::max<qint64>(1, deadline.remainingTime()));
    };
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    QList<Reply> replies(requests.size());
    for (qsizetype i = 0; i < requests.size(); ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        if (!source.isNull() && !socket->bind(source, 0)) {
            replies[i].networkError =
                u"cannot bind %1: %2"_s.arg(source.toString(), socket->errorString());
            return replies;
        }
        socket->connectToHost(QHostAddress::LocalHost, requests.at(i).first);
        if (!socket->waitForConnected(remaining())) {
            replies[i].networkError = u"cannot connect: %1"_s.arg(socket->errorString());
            return replies;
        }
        sockets.push_back(std::move(socket));
    }
    // Every request is on the wire before any response is read.
    for (qsizetype i = 0; i < requests.size(); ++i)
        sockets[size_t(i)]->write(requests.at(i).second);
    for (auto &socket : sockets) {
        while (socket->bytesToWrite() > 0 && socket->waitForBytesWritten(remaining())) {
        }
    }
    for (qsizetype i = 0; i < requests.size(); ++i) {
        QTcpSocket &socket = *sockets[size_t(i)];
        QByteArray data;
        for (;;) {
            data += socket.readAll();
            if (const std::optional<Reply> reply = parseRawResponse(data)) {
                replies[i] = *reply;
                break;
            }
            if (socket.state() != QAbstractSocket::ConnectedState && socket.bytesAvailable() == 0) {
                replies[i].networkError =
                    u"connection closed before a whole response (%1 bytes)"_s.arg(data.size());
                break;
            }
            if (deadline.hasExpired()) {
                replies[i].networkError = u"timed out (%1 bytes read)"_s.arg(data.size());
                break;
            }
            socket.waitForReadyRead(std::min(remaining(), 200));
        }
    }
    return replies;
}

bool SimProcess::loopbackAliasesWork()
{
    QTcpSocket probe;
    return probe.bind(QHostAddress(u"127.0.0.2"_s), 0);
}

Reply SimProcess::rawFrom(const QHostAddress &source, const QByteArray &request, int timeoutMs)
{
    return sendConcurrently({request}, timeoutMs, source).value(0);
}

// ---- SseClient ------------------------------------------------------------------------------

SseClient::SseClient(QObject *parent) : QObject(parent)
{
    connect(&m_socket, &QTcpSocket::readyRead, this, &SseClient::onReadyRead);
}

SseClient::~SseClient()
{
    m_socket.abort();
}

bool SseClient::open(quint16 port, const QString &token, qint64 lastEventId, int timeoutMs)
{
    m_socket.abort();
    m_buffer.clear();
    m_head.clear();
    m_headDone = false;
    m_status = 0;
    m_events.clear();
    const QDeadlineTimer deadline(timeoutMs);
    m_socket.connectToHost(QHostAddress::LocalHost, port);
    if (!m_socket.waitForConnected(timeoutMs))
        return false;
    Headers headers{{"Authorization"_ba, "Bearer "_ba + token.toLatin1()},
                    {"Accept"_ba, "text/event-stream"_ba}};
    if (lastEventId >= 0)
        headers.append({"Last-Event-ID"_ba, QByteArray::number(lastEventId)});
    m_socket.write(rawRequest("GET", u"/v1/events"_s, {}, headers, false));
    while (!m_headDone && !deadline.hasExpired()
           && m_socket.state() == QAbstractSocket::ConnectedState)
        m_socket.waitForReadyRead(
            int(std::max<qint64>(1, std::min<qint64>(deadline.remainingTime(), 100))));
    return m_headDone && m_status == 200;
}

void SseClient::close()
{
    m_socket.abort();
}

bool SseClient::isConnected() const
{
    return m_socket.state() == QAbstractSocket::ConnectedState;
}

void SseClient::onReadyRead()
{
    m_buffer += m_socket.readAll();
    if (!m_headDone) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        m_head = m_buffer.left(end + 4);
        m_buffer.remove(0, end + 4);
        m_headDone = true;
        const QList<QByteArray> parts = m_head.left(m_head.indexOf("\r\n")).split(' ');
        m_status = parts.value(1).toInt();
        if (m_status != 200) {
            // An error response: keep the body in m_head for diagnostics.
            m_head += m_buffer;
            m_buffer.clear();
            return;
        }
    }
    if (m_status != 200)
        return;
    for (;;) {
        const qsizetype end = m_buffer.indexOf("\n\n");
        if (end < 0)
            return;
        const QByteArray block = m_buffer.left(end);
        m_buffer.remove(0, end + 2);
        Event event;
        bool any = false;
        QList<QByteArray> dataLines;
        for (const QByteArray &line : block.split('\n')) {
            if (line.isEmpty() || line.startsWith(':'))
                continue;
            const qsizetype colon = line.indexOf(':');
            const QByteArray field = colon < 0 ? line : line.left(colon);
            QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
            if (value.startsWith(' '))
                value.remove(0, 1);
            any = true;
            if (field == "id")
                event.id = value.toLongLong();
            else if (field == "event")
                event.type = value;
            else if (field == "data")
                dataLines.append(value);
        }
        if (!any)
            continue; // a keep-alive comment
        event.data = dataLines.join('\n');
        m_events.append(event);
    }
}

QList<SseClient::Event> SseClient::eventsOfType(QByteArrayView type) const
{
    QList<Event> result;
    for (const Event &event : m_events) {
        if (event.type == type)
            result.append(event);
    }
    return result;
}

qint64 SseClient::lastId() const
{
    qint64 id = -1;
    for (const Event &event : m_events)
        id = std::max(id, event.id);
    return id;
}

bool SseClient::hasInstanceState(const QString &instanceId, const QString &state) const
{
    for (const Event &event : m_events) {
        if (event.type != "instance")
            continue;
        const QJsonObject o = event.json();
        if (o.value(u"id"_s).toString() == instanceId && o.value(u"state"_s).toString() == state)
            return true;
    }
    return false;
}

} // namespace cardhour::test
