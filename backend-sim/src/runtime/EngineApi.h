#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QSocketNotifier;
class QTimer;

namespace cardhour::sim {

// How one request to the engine's API ended.
struct EngineReply
{
    bool connected = false; // the socket answered; false: nothing reached the engine
    bool timedOut = false;
    int status = 0; // HTTP status; 0 without an answer
    QByteArray body;
    QString error; // transport failure in libcurl's words; empty when an answer came

    bool ok() const { return connected && !timedOut && status >= 200 && status < 300; }
    // The engine's own words for a failure: the "message" of its JSON error body (podman and
    // Docker Engine both send {"message": ...}), else the body or the transport error.
    QString message() const;
};

// A client of a container engine's REST API on its unix socket (podman's libpod API under
// `podman system service`, Docker Engine's API on docker.sock), with libcurl driven from the
// Qt event loop: nothing blocks but get(), which is for start-up. Paths are given after
// `prefix` ("/v4.0.0/libpod", "/v1.41"), with their query already encoded.
class EngineApi : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const EngineReply &)>;
    using Line = std::function<void(const QByteArray &)>;

    EngineApi(QString socketPath, QString prefix, QObject *parent = nullptr);
    ~EngineApi() override;

    const QString &socketPath() const { return m_socketPath; }

    // One request with a JSON body (may be empty); `done` comes once, from the event loop,
    // unless this object is gone by then. timeoutMs 0: no limit.
    void request(const QByteArray &method, const QString &path, const QByteArray &jsonBody,
                 int timeoutMs, Done done);
    // A GET that stays open and sends JSON lines (the engine's event stream): `line` for each,
    // `done` when the engine ends it. Returns the handle for cancel().
    quint64 stream(const QString &path, Line line, Done done);
    // Ends a request or stream without its `done`.
    void cancel(quint64 handle);

    // Blocking and bounded: whether the engine answers (start-up only).
    EngineReply get(const QString &path, int timeoutMs) const;

private:
    struct Transfer;
    struct Watch
    {
        QSocketNotifier *read = nullptr;
        QSocketNotifier *write = nullptr;
    };
    static int onSocket(void *easy, int fd, int what, void *self, void *socketData);
    static int onTimer(void *multi, long timeoutMs, void *self);

    quint64 add(std::unique_ptr<Transfer> transfer);
    void watchSocket(int fd, int what);
    void dropWatch(int fd);
    void act(int fd, int events);
    void finishDone();
    QString urlOf(const QString &path) const;

    QString m_socketPath;
    QString m_prefix;
    void *m_multi = nullptr; // CURLM
    QTimer *m_timer = nullptr;
    QHash<int, Watch> m_watches;
    QHash<quint64, Transfer *> m_transfers;
    quint64 m_lastHandle = 0;
    bool m_acting = false; // inside curl_multi_socket_action: lines wait until it returns
};

} // namespace cardhour::sim
