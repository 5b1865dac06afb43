#pragma once

// Test harness for the HTTP integration tests: runs the real cardhour-sim executable as a
// child process and talks to it over HTTP, synchronously, so a test reads like a script.
//
//   SimProcess sim;
//   QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
//   const QString token = sim.signUp(u"alice@example.com"_s);
//   const SimProcess::Reply r = sim.authedGet(token, u"/v1/me"_s);
//   QCOMPARE(r.status, 200);
//
// The executable comes from the environment variable CARDHOUR_SIM_BIN (ctest sets it).

#include <QByteArray>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QObject>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>
#include <optional>

namespace cardhour::test {

using Headers = QList<QPair<QByteArray, QByteArray>>;

// One HTTP response, as seen by a test.
struct Reply
{
    int status = 0; // 0: no HTTP response (connection refused, timeout, ...)
    QString networkError; // empty when an HTTP response arrived
    Headers headers; // names as sent
    QByteArray body;
    QJsonDocument json; // parsed body; null if the body is not JSON
    bool jsonValid = false;

    QByteArray header(QByteArrayView name) const; // case-insensitive; empty if absent
    bool hasHeader(QByteArrayView name) const;
    QJsonObject object() const { return json.object(); }
    QJsonArray array() const { return json.array(); }
    QJsonValue value(const QString &key) const { return json.object().value(key); }
    // `error.code` of an error body, or empty.
    QString errorCode() const;
    // "HTTP 409 {...}" for failure messages.
    QByteArray describe() const;
};

// Parses a complete HTTP/1.1 response (status line, headers, Content-Length body).
// Returns nullopt while `data` does not yet hold a whole response.
std::optional<Reply> parseRawResponse(const QByteArray &data, qsizetype *consumed = nullptr);

// A raw HTTP/1.1 request: request line, Host, Content-Length, the given headers, body.
QByteArray rawRequest(const QByteArray &method, const QString &path, const QByteArray &body = {},
                      const Headers &headers = {}, bool close = true);

// Parses an ISO 8601 time with milliseconds ("2026-01-02T03:04:05.678Z") to ms since epoch.
qint64 isoToMs(const QString &iso);

class SimProcess : public QObject
{
    Q_OBJECT
public:
    explicit SimProcess(QObject *parent = nullptr);
    ~SimProcess() override;

    // The cardhour-sim executable: $CARDHOUR_SIM_BIN.
    static QString binaryPath();
    // The scratch PostgreSQL server the run's tests use (the file named by
    // $CARDHOUR_TEST_POSTGRES_URL_FILE, written by tests/backend/support/postgres-cluster), or
    // empty: SQLite. When set, start() gives the provider --store on it, in a schema of its own.
    static QString postgresServer();
    // `server` with a schema named after `key` (the same key, the same schema).
    static QString postgresStore(const QString &server, const QString &key);

    // Starts cardhour-sim --listen 127.0.0.1:0 --data DIR plus `extraArgs` and waits for its
    // `listening http://HOST:PORT` line. DIR is `dataDir` if given, else a temporary
    // directory owned by this object (kept across restarts). False (see lastError()) if the
    // process did not come up within `timeoutMs`.
    bool start(const QStringList &extraArgs = {}, const QString &dataDir = {},
               int timeoutMs = 30000);
    // The same without --data: the provider picks its default data directory (DataPaths), as
    // `cardhour-sim` started by hand does. Point XDG_DATA_HOME at a scratch folder first.
    bool startWithDefaultDataDir(const QStringList &extraArgs = {}, int timeoutMs = 30000);
    // Starts again with the same arguments and data directory (after kill() or terminate()).
    bool restart(int timeoutMs = 30000);
    bool isRunning() const;
    qint64 processId() const { return m_process ? m_process->processId() : 0; }

    // SIGKILL, then waits for the process to be gone.
    void kill();
    // SIGTERM, then waits up to `timeoutMs`; true if it exited by itself with status 0.
    bool terminate(int timeoutMs = 15000);
    int exitCode() const { return m_process ? m_process->exitCode() : -1; }
    QProcess::ExitStatus exitStatus() const
    {
        return m_process ? m_process->exitStatus() : QProcess::CrashExit;
    }

    QString dataDir() const { return m_dataDir; }
    QUrl baseUrl() const { return m_baseUrl; }
    quint16 port() const { return m_port; }
    QString firstLine() const { return m_firstLine; }
    QString lastError() const { return m_lastError; }
    QStringList arguments() const { return m_arguments; }
    // With --test-clock: the run's <data>/test-clock-secret, which request() sends on every
    // /v1/_test/ path in X-CardHour-Test-Secret (unless setSendTestSecret(false), for a test
    // that shows the routes refuse a request without it).
    QByteArray testClockSecret() const { return m_testClockSecret; }
    void setSendTestSecret(bool send) { m_sendTestSecret = send; }
    static constexpr char kTestSecretHeader[] = "X-CardHour-Test-Secret";

    // ---- synchronous HTTP over QNetworkAccessManager -----------------------------------
    Reply request(const QByteArray &method, const QString &path, const QByteArray &body = {},
                  const Headers &headers = {}, int timeoutMs = 30000);
    Reply request(const QByteArray &method, const QString &path, const QJsonObject &body,
                  const Headers &headers = {}, int timeoutMs = 30000);

    Reply get(const QString &path) { return request("GET", path); }
    Reply post(const QString &path, const QJsonObject &body) { return request("POST", path, body); }

    Reply authedGet(const QString &token, const QString &path, const Headers &extra = {});
    Reply authedPost(const QString &token, const QString &path, const QJsonObject &body = {},
                     const Headers &extra = {});
    Reply authedPostRaw(const QString &token, const QString &path, const QByteArray &body,
                        const Headers &extra = {});
    Reply authedDelete(const QString &token, const QString &path, const Headers &extra = {});

    static Headers bearer(const QString &token);

    // ---- fire-and-forget (for requests still in flight when the process dies) -----------
    // The reply belongs to this object's network manager; connect to finished() or poll.
    QNetworkReply *send(const QByteArray &method, const QString &path, const QByteArray &body,
                        const Headers &headers);
    static Reply toReply(QNetworkReply *reply);

    // ---- helpers ------------------------------------------------------------------------
    // POST /v1/auth/signup; returns the token, or an empty string (with lastError()).
    QString signUp(const QString &email,
                   const QString &password = QStringLiteral("correct horse battery"));
    // POST /v1/_test/clock/advance; true on 200.
    bool advance(double seconds);
    // GET /v1/_test/ledger/verify: empty string if ok, else the problem.
    QString verifyLedger();
    // GET /v1/instances/{id} until `state` (or timeout); returns the last instance JSON seen.
    QJsonObject waitForState(const QString &token, const QString &instanceId, const QString &state,
                             int timeoutMs = 10000);
    // POST /v1/instances and wait for `running`; returns the instance id or empty.
    QString createRunning(const QString &token, const QJsonObject &body, int timeoutMs = 10000);
    // All postings of the user's ledger, newest first (follows next_before).
    QJsonArray allPostings(const QString &token);

    // ---- raw sockets ----------------------------------------------------------------------
    // Opens one connection per request, writes every request before reading any response,
    // then collects the responses (same order as `requests`). Each request should carry
    // `Connection: close` (rawRequest() does). `source`, if set, is bound as the local address
    // (any 127.x.y.z works on Linux) so a test can look like another client.
    QList<Reply> sendConcurrently(const QList<QByteArray> &requests, int timeoutMs = 30000,
                                  const QHostAddress &source = {});
    // The same to several providers at once: each request with the port it goes to.
    static QList<Reply> sendConcurrently(const QList<QPair<quint16, QByteArray>> &requests,
                                         int timeoutMs = 30000, const QHostAddress &source = {});
    // Whether this machine lets a socket bind to loopback addresses other than 127.0.0.1
    // (Linux routes all of 127/8 to lo; macOS, for one, does not by default).
    static bool loopbackAliasesWork();
    // One raw request from a given local address.
    Reply rawFrom(const QHostAddress &source, const QByteArray &request, int timeoutMs = 30000);

private:
    void resetNetwork();

    std::unique_ptr<QTemporaryDir> m_ownDir;
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QString m_dataDir;
    bool m_passDataDir = true;
    QStringList m_extraArgs;
    QStringList m_arguments;
    QUrl m_baseUrl;
    quint16 m_port = 0;
    QString m_firstLine;
    QString m_lastError;
    QByteArray m_testClockSecret;
    bool m_sendTestSecret = true;
};

// A client of GET /v1/events over a raw socket: parses the stream as it arrives while the
// event loop runs (QTRY_VERIFY, SimProcess::request and QTest::qWait all run it).
class SseClient : public QObject
{
    Q_OBJECT
public:
    struct Event
    {
        qint64 id = -1; // -1: no id field
        QByteArray type;
        QByteArray data;
        QJsonObject json() const { return QJsonDocument::fromJson(data).object(); }
    };

    explicit SseClient(QObject *parent = nullptr);
    ~SseClient() override;

    // Connects and sends the request; true once the response head (status 200,
    // text/event-stream) has arrived. `lastEventId` < 0: no Last-Event-ID header.
    bool open(quint16 port, const QString &token, qint64 lastEventId = -1, int timeoutMs = 10000);
    void close();
    bool isConnected() const;
    int status() const { return m_status; }
    QByteArray head() const { return m_head; }

    QList<Event> events() const { return m_events; }
    QList<Event> eventsOfType(QByteArrayView type) const;
    qint64 lastId() const;
    bool hasInstanceState(const QString &instanceId, const QString &state) const;

private:
    void onReadyRead();

    QTcpSocket m_socket;
    QByteArray m_buffer;
    QByteArray m_head;
    bool m_headDone = false;
    int m_status = 0;
    QList<Event> m_events;
};

} // namespace cardhour::test
