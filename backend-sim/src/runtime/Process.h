#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>

class QProcess;
class QTimer;

namespace cardhour::sim {

// How one run of an external program ended.
struct ProcessResult
{
    bool started = false; // false: it could not be run, startError says why
    bool timedOut = false; // killed when its time was up
    bool crashed = false; // ended by a signal (also when killed for the timeout)
    int exitCode = -1; // the program's exit status; -1 unless it exited normally
    QByteArray out; // all of stdout (and stderr with mergeChannels), unless read by lines
    QByteArray err; // all of stderr
    QString startError; // why it could not be run, in the system's words ("No such file ...")

    // It ran to its end and exited with 0.
    bool ok() const { return started && !timedOut && !crashed && exitCode == 0; }
};

// The environment podman, docker or an image script runs in: this process's, with
// CONTAINERS_CONF=containersConf. With an empty containersConf the inherited CONTAINERS_CONF
// stays (InheritedConf::Keep) or is removed so that podman uses its own defaults (Drop).
enum class InheritedConf {
    Keep,
    Drop
};
QProcessEnvironment containersEnvironment(const QString &containersConf,
                                          InheritedConf inherited = InheritedConf::Keep);

// One run of an external program: argv only (never a shell), stdin from /dev/null, stdout and
// stderr captured, an optional timeout after which it is killed. run() blocks (for the CLI,
// start-up checks and tests); start() does not: `finished` comes once, always from the event
// loop, also when the program cannot be run.
class Process : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QProcessEnvironment environment; // empty: this process's environment
        int timeoutMs = 0; // then killed; 0: no limit (give run() one)
        bool mergeChannels = false; // stderr into stdout, in the order written
        // start() only: hand stdout on as lines (`line`) instead of keeping it in `out`.
        bool lines = false;
        // Linux: what the program gets when this process dies, also by a signal: nothing, a
        // SIGTERM (an engine's API service of ours: it ends cleanly, its containers live on),
        // or a SIGKILL (work whose result only this process would use: a snapshot's copies).
        // Never for a container itself.
        enum class ParentDeath {
            Outlive,
            Terminate,
            Kill
        };
        ParentDeath onParentDeath = ParentDeath::Outlive;
    };

    // Waits at most timeoutMs for the program (and at most 10 s for it to start).
    static ProcessResult run(const QString &program, const QStringList &args,
                             const Options &options);

    // Starts program as a child of `context`; `done` gets the result unless `context` is gone
    // by then. The Process deletes itself afterwards. The pointer is for terminate() or
    // connecting to `line`, valid until `done` runs.
    static Process *start(QObject *context, const QString &program, const QStringList &args,
                          const Options &options, std::function<void(const ProcessResult &)> done);

    explicit Process(QObject *parent = nullptr);
    // Kills the program if it still runs, without a `finished`.
    ~Process() override;

    void start(const QString &program, const QStringList &args, const Options &options);
    bool isRunning() const;
    // SIGTERM, so that the program can clean up; `finished` follows when it has ended.
    void terminate();
    void kill();
    // Blocks until it has ended (then `finished` still comes from the event loop).
    bool waitForFinished(int timeoutMs);

Q_SIGNALS:
    // With Options::lines: each line of output, trimmed (\n or \r ends one; empty ones are
    // skipped).
    void line(const QString &text);
    void finished(const cardhour::sim::ProcessResult &result);

private:
    void readLines(bool atEnd);
    void finish();

    QProcess *m_process = nullptr;
    QTimer *m_timer = nullptr;
    QByteArray m_pending; // the start of a line not yet ended
    ProcessResult m_result;
    bool m_lines = false;
    bool m_done = false;
};

} // namespace cardhour::sim
