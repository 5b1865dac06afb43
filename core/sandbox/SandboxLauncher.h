#pragma once

#include "api/Models.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>

class QTimer;

namespace cardhour::core {

class ProviderClient;

// Brings up CardHour Sandbox (the bundled `cardhour-sim`) for the client, asynchronously.
//
// start() first looks for a sandbox that already serves the data directory (cardhour-sim
// allows one per directory and holds `cardhour-sim.lock` there): it tries the address a
// launcher recorded in `cardhour-sim.url` in that directory, then the attachUrl() (by default
// http://127.0.0.1:8787, where scripts/run starts one), and attaches to the first that answers
// GET /v1/health as cardhour-sim and proves it holds the secret in the data directory
// (paths/SandboxSecret: a challenge on POST /v1/_sandbox/prove). One that cannot prove it is
// refused (impostorRefused) and gets nothing: another local user may have bound the port to
// catch the token. When no candidate is proven and the data directory's lock is free, it starts
//     cardhour-sim --listen 127.0.0.1:0 --data DIR --allow-chaos [extra arguments]
// on a port of its own; when the lock is held (the real one runs elsewhere), start() fails.
// It reads the address from its first stdout line ("listening http://127.0.0.1:PORT"), checks
// /v1/health and reports ready(url). Failures carry the last lines the sandbox wrote to stderr.
//
// stop() ends a sandbox this object started (SIGTERM, then a kill after a grace period); an
// attached one is only let go, since someone else runs it.
class SandboxLauncher : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle,
        Starting, // looking for one, starting one, or waiting for it to answer
        Running, // ours, started by this object
        Attached, // someone else's, found running
        Stopping,
        Failed,
    };
    Q_ENUM(State)

    explicit SandboxLauncher(QObject *parent = nullptr);
    ~SandboxLauncher() override; // ends our sandbox (briefly blocking: this is shutdown)

    // cardhour-sim[.exe] next to this program, unless set.
    void setExecutable(const QString &path) { m_executable = path; }
    QString executable() const;
    static QString defaultExecutable();
    // DataPaths::sandboxDataDir() unless set.
    void setDataDir(const QString &dir) { m_dataDir = dir; }
    QString dataDir() const;
    static QString defaultDataDir();
    // Arguments after --listen/--data (e.g. --runtime inprocess, --test-clock).
    void setExtraArguments(const QStringList &arguments) { m_extraArguments = arguments; }
    QStringList extraArguments() const { return m_extraArguments; }
    // Where else a running sandbox may be (default http://127.0.0.1:8787); empty: nowhere.
    void setAttachUrl(const QUrl &url) { m_attachUrl = url; }
    QUrl attachUrl() const { return m_attachUrl; }
    // Whether start() may attach to a running sandbox at all (default true).
    void setAttachAllowed(bool allowed) { m_attachAllowed = allowed; }
    // Limit for the whole start (default 60 s: a first run may migrate a database).
    void setStartTimeoutMs(int ms) { m_startTimeoutMs = ms; }

    void start();
    void stop();

    State state() const { return m_state; }
    QUrl url() const { return m_url; }
    bool ownsProcess() const { return m_state == State::Running; }
    qint64 processId() const;
    // A keychain key for Session::setProvider that stays the same across launches (the port
    // changes every time): "cardhour-sandbox:" + the data directory.
    QString providerKey() const;
    // What the sandbox said of itself (its runtime and why) when it was last proven ours: the
    // session needs no second /v1/health for it.
    const Health &health() const { return m_health; }
    // The last lines the sandbox wrote to stderr (at most 4 KiB).
    QString stderrTail() const { return QString::fromUtf8(m_stderrTail); }
    QString errorString() const { return m_error; }

Q_SIGNALS:
    void stateChanged(cardhour::core::SandboxLauncher::State state);
    // A translated sentence for a splash screen ("Starting the sandbox…").
    void progress(const QString &message);
    void ready(const QUrl &url);
    // start() failed; `stderrTail` may be empty.
    void failed(const QString &reason, const QString &stderrTail);
    // Our sandbox exited without being asked to (crash, killed); `reason` says how.
    void exitedUnexpectedly(const QString &reason, const QString &stderrTail);
    void stopped();
    // A program at `url` answered as a sandbox but could not prove it is ours; `reason` is a
    // translated sentence. start() goes on with the next candidate.
    void impostorRefused(const QUrl &url, const QString &reason);

private:
    void setState(State state);
    void tryAttach(QList<QUrl> candidates);
    void launch();
    void onStdout();
    void onStderr();
    void onProcessFinished(int exitCode, QProcess::ExitStatus status);
    void onProcessError(QProcess::ProcessError error);
    void verify(const QUrl &url);
    void prove(const QUrl &url, std::function<void()> onProven,
               std::function<void(const QString &detail)> onRefused);
    void fail(const QString &reason);
    bool dataDirInUse() const;
    QString urlFilePath() const;
    void writeUrlFile() const;
    void removeUrlFile() const;

    ProviderClient *m_probe = nullptr;
    Health m_health;
    QPointer<QProcess> m_process;
    QTimer *m_startTimer = nullptr;
    QTimer *m_killTimer = nullptr;
    QString m_executable;
    QString m_dataDir;
    QStringList m_extraArguments;
    QUrl m_attachUrl;
    bool m_attachAllowed = true;
    int m_startTimeoutMs = 60000;
    State m_state = State::Idle;
    QUrl m_url;
    QByteArray m_stdout;
    QByteArray m_stderrTail;
    QString m_error;
    quint64 m_attempt = 0; // stale health answers of an earlier start() are dropped
};

} // namespace cardhour::core
