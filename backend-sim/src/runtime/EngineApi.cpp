#include "EngineApi.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <curl/curl.h>
#include <mutex>
#include <vector>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Q_LOGGING_CATEGORY(lcEngineApi, "cardhour.sim.engineapi", QtInfoMsg)

QString EngineReply::message() const
{
    if (!connected || timedOut)
        return error;
    const QJsonObject obj = QJsonDocument::fromJson(body).object();
    const QString text = obj.value(u"message"_s).toString();
    if (!text.isEmpty())
        return text;
    return QString::fromUtf8(body.trimmed().right(700));
}

struct EngineApi::Transfer
{
    quint64 handle = 0;
    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    QByteArray method;
    QByteArray requestBody; // libcurl reads it in place: kept for the transfer's life
    QByteArray response;
    QByteArray pending; // a stream's line not yet ended
    QList<QByteArray> lines; // a stream's lines not yet handed on
    Line line;
    Done done;
    char errorText[CURL_ERROR_SIZE] = {};

    ~Transfer()
    {
        if (easy)
            curl_easy_cleanup(easy);
        if (headers)
            curl_slist_free_all(headers);
    }
};

namespace {

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t collect(char *data, size_t size, size_t count, void *user)
{
    auto *transfer = static_cast<QByteArray *>(user);
    transfer->append(data, static_cast<qsizetype>(size * count));
    return size * count;
}

// The easy handle of one request, without its callbacks (set by the caller).
CURL *makeEasy(const QString &socketPath, const QString &url, const QByteArray &method,
               int timeoutMs, char *errorText)
{
    CURL *easy = curl_easy_init();
    if (!easy)
        return nullptr;
    curl_easy_setopt(easy, CURLOPT_UNIX_SOCKET_PATH, socketPath.toLocal8Bit().constData());
    curl_easy_setopt(easy, CURLOPT_URL, url.toUtf8().constData());
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method.constData());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errorText);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 2000L);
    if (timeoutMs > 0)
        curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(timeoutMs));
    return easy;
}

EngineReply replyOf(CURL *easy, CURLcode code, const char *errorText, QByteArray body)
{
    EngineReply reply;
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    reply.status = static_cast<int>(status);
    reply.body = std::move(body);
    reply.connected = code != CURLE_COULDNT_CONNECT && code != CURLE_COULDNT_RESOLVE_HOST
        && code != CURLE_FAILED_INIT;
    reply.timedOut = code == CURLE_OPERATION_TIMEDOUT && reply.connected;
    if (code != CURLE_OK)
        reply.error = QString::fromUtf8(errorText[0] ? errorText : curl_easy_strerror(code));
    return reply;
}

} // namespace

EngineApi::EngineApi(QString socketPath, QString prefix, QObject *parent)
    : QObject(parent), m_socketPath(std::move(socketPath)), m_prefix(std::move(prefix))
{
    initCurlOnce();
    m_multi = curl_multi_init();
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] { act(CURL_SOCKET_TIMEOUT, 0); });
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &EngineApi::onSocket);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &EngineApi::onTimer);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
}

EngineApi::~EngineApi()
{
    for (Transfer *transfer : std::as_const(m_transfers)) {
        curl_multi_remove_handle(m_multi, transfer->easy);
        delete transfer;
    }
    m_transfers.clear();
    curl_multi_cleanup(m_multi);
}

QString EngineApi::urlOf(const QString &path) const
{
    // The host name is not used on a unix socket; the engines want one all the same.
    return u"http://localhost"_s + m_prefix + path;
}

void EngineApi::request(const QByteArray &method, const QString &path, const QByteArray &jsonBody,
                        int timeoutMs, Done done)
{
    auto transfer = std::make_unique<Transfer>();
    transfer->method = method;
    transfer->requestBody = jsonBody;
    transfer->done = std::move(done);
    transfer->easy =
        makeEasy(m_socketPath, urlOf(path), transfer->method, timeoutMs, transfer->errorText);
    if (!transfer->easy) {
        EngineReply failed;
        failed.error = u"libcurl could not make a request"_s;
        QTimer::singleShot(0, this, [done = std::move(transfer->done), failed] { done(failed); });
        return;
    }
    if (!transfer->requestBody.isNull()) {
        transfer->headers = curl_slist_append(transfer->headers, "Content-Type: application/json");
        curl_easy_setopt(transfer->easy, CURLOPT_HTTPHEADER, transfer->headers);
        curl_easy_setopt(transfer->easy, CURLOPT_POSTFIELDS, transfer->requestBody.constData());
        curl_easy_setopt(transfer->easy, CURLOPT_POSTFIELDSIZE,
                         static_cast<long>(transfer->requestBody.size()));
    }
    curl_easy_setopt(transfer->easy, CURLOPT_WRITEFUNCTION, &collect);
    curl_easy_setopt(transfer->easy, CURLOPT_WRITEDATA, &transfer->response);
    add(std::move(transfer));
}

quint64 EngineApi::stream(const QString &path, Line line, Done done)
{
    auto transfer = std::make_unique<Transfer>();
    transfer->method = "GET";
    transfer->line = std::move(line);
    transfer->done = std::move(done);
    transfer->easy = makeEasy(m_socketPath, urlOf(path), transfer->method, 0, transfer->errorText);
    if (!transfer->easy)
        return 0;
    curl_easy_setopt(
        transfer->easy, CURLOPT_WRITEFUNCTION,
        +[](char *data, size_t size, size_t count, void *user) -> size_t {
            auto *t = static_cast<Transfer *>(user);
            t->pending.append(data, static_cast<qsizetype>(size * count));
            qsizetype end;
            while ((end = t->pending.indexOf('\n')) >= 0) {
                QByteArray one = t->pending.left(end).trimmed();
                t->pending.remove(0, end + 1);
                if (!one.isEmpty())
                    t->lines.append(std::move(one));
            }
            return size * count;
        });
    curl_easy_setopt(transfer->easy, CURLOPT_WRITEDATA, transfer.get());
    return add(std::move(transfer));
}

quint64 EngineApi::add(std::unique_ptr<Transfer> transfer)
{
    transfer->handle = ++m_lastHandle;
    curl_easy_setopt(transfer->easy, CURLOPT_PRIVATE, transfer.get());
    const quint64 handle = transfer->handle;
    curl_multi_add_handle(m_multi, transfer->easy); // arms the timer: the work starts from there
    m_transfers.insert(handle, transfer.release());
    return handle;
}

void EngineApi::cancel(quint64 handle)
{
    Transfer *transfer = m_transfers.take(handle);
    if (!transfer)
        return;
    curl_multi_remove_handle(m_multi, transfer->easy);
    delete transfer;
}

EngineReply EngineApi::get(const QString &path, int timeoutMs) const
{
    initCurlOnce();
    char errorText[CURL_ERROR_SIZE] = {};
    QByteArray body;
    CURL *easy = makeEasy(m_socketPath, urlOf(path), "GET", timeoutMs, errorText);
    if (!easy)
        return {};
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &collect);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &body);
    const CURLcode code = curl_easy_perform(easy);
    EngineReply reply = replyOf(easy, code, errorText, std::move(body));
    curl_easy_cleanup(easy);
    return reply;
}

// ---- libcurl on the event loop --------------------------------------------------------------

int EngineApi::onSocket(void *, int fd, int what, void *self, void *)
{
    static_cast<EngineApi *>(self)->watchSocket(fd, what);
    return 0;
}

int EngineApi::onTimer(void *, long timeoutMs, void *self)
{
    auto *api = static_cast<EngineApi *>(self);
    if (timeoutMs < 0)
        api->m_timer->stop();
    else
        api->m_timer->start(static_cast<int>(timeoutMs));
    return 0;
}

void EngineApi::dropWatch(int fd)
{
    const Watch watch = m_watches.take(fd);
    // Possibly the notifier whose signal is being handled: disabled now, deleted later.
    for (QSocketNotifier *notifier : {watch.read, watch.write}) {
        if (notifier) {
            notifier->setEnabled(false);
            notifier->deleteLater();
        }
    }
}

void EngineApi::watchSocket(int fd, int what)
{
    qCDebug(lcEngineApi) << "socket" << fd << "wants" << what;
    if (what == CURL_POLL_REMOVE)
        return dropWatch(fd);
    Watch &watch = m_watches[fd];
    const bool wantRead = what & CURL_POLL_IN;
    const bool wantWrite = what & CURL_POLL_OUT;
    if (wantRead && !watch.read) {
        watch.read = new QSocketNotifier(fd, QSocketNotifier::Read, this);
        connect(watch.read, &QSocketNotifier::activated, this,
                [this, fd] { act(fd, CURL_CSELECT_IN); });
    }
    if (wantWrite && !watch.write) {
        watch.write = new QSocketNotifier(fd, QSocketNotifier::Write, this);
        connect(watch.write, &QSocketNotifier::activated, this,
                [this, fd] { act(fd, CURL_CSELECT_OUT); });
    }
    if (watch.read)
        watch.read->setEnabled(wantRead);
    if (watch.write)
        watch.write->setEnabled(wantWrite);
}

void EngineApi::act(int fd, int events)
{
    if (m_acting)
        return;
    m_acting = true;
    qCDebug(lcEngineApi) << "act on" << fd << events;
    int running = 0;
    curl_multi_socket_action(m_multi, static_cast<curl_socket_t>(fd), events, &running);
    m_acting = false;
    finishDone();
}

void EngineApi::finishDone()
{
    QPointer<EngineApi> alive(this);
    // Lines first (their callbacks may start requests: allowed only outside libcurl's).
    std::vector<std::pair<quint64, QList<QByteArray>>> lines;
    for (Transfer *transfer : std::as_const(m_transfers)) {
        if (!transfer->lines.isEmpty())
            lines.emplace_back(transfer->handle, std::exchange(transfer->lines, {}));
    }
    for (auto &[handle, batch] : lines) {
        for (const QByteArray &one : batch) {
            if (!alive)
                return;
            Transfer *transfer = m_transfers.value(handle);
            if (!transfer) // cancelled by an earlier line's callback
                break;
            const Line line = transfer->line;
            line(one);
        }
    }
    if (!alive)
        return;
    std::vector<std::pair<Done, EngineReply>> ended;
    int left = 0;
    while (CURLMsg *msg = curl_multi_info_read(m_multi, &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        Transfer *transfer = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &transfer);
        if (!transfer)
            continue;
        const CURLcode code = msg->data.result;
        qCDebug(lcEngineApi) << "done" << transfer->handle << code;
        curl_multi_remove_handle(m_multi, transfer->easy);
        m_transfers.remove(transfer->handle);
        if (transfer->line && !transfer->pending.trimmed().isEmpty())
            transfer->line(transfer->pending.trimmed());
        ended.emplace_back(
            std::move(transfer->done),
            replyOf(transfer->easy, code, transfer->errorText, std::move(transfer->response)));
        delete transfer;
    }
    for (auto &[done, reply] : ended) {
        if (!alive)
            return;
        if (done)
            done(reply);
    }
}

} // namespace cardhour::sim
