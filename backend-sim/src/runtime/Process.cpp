#include "runtime/Process.h"

#include <QProcess>
#include <QTimer>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>
#endif
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kStartTimeoutMs = 10000;
constexpr int kReapTimeoutMs = 5000; // after SIGKILL, for the kernel to hand back the child

void prepare(QProcess &process, const Process::Options &options)
{
    if (!options.environment.isEmpty())
        process.setProcessEnvironment(options.environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setProcessChannelMode(options.mergeChannels ? QProcess::MergedChannels
                                                        : QProcess::SeparateChannels);
#ifdef Q_OS_UNIX
    // The provider runs with umask 077 (main.cpp); the engines keep their usual one, so that
    // what they make in their own storage and in volumes has the modes they expect. Files of
    // ours they write into are made 0600 by us first (snapshot archives).
    int deathSignal = 0;
    switch (options.onParentDeath) {
    case Process::Options::ParentDeath::Outlive:
        break;
    case Process::Options::ParentDeath::Terminate:
        deathSignal = SIGTERM;
        break;
    case Process::Options::ParentDeath::Kill:
        deathSignal = SIGKILL;
        break;
    }
    const pid_t parent = ::getpid();
    process.setChildProcessModifier([deathSignal, parent] {
        ::umask(S_IWGRP | S_IWOTH);
#ifdef Q_OS_LINUX
        // Work whose result only this provider can use ends with it (also when it is killed).
        if (deathSignal != 0
            && (::prctl(PR_SET_PDEATHSIG, deathSignal) != 0 || ::getppid() != parent))
            ::_exit(127);
#else
        Q_UNUSED(deathSignal);
        Q_UNUSED(parent);
#endif
    });
#endif
}

} // namespace

QProcessEnvironment containersEnvironment(const QString &containersConf, InheritedConf inherited)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (inherited == InheritedConf::Drop)
        env.remove(u"CONTAINERS_CONF"_s);
    if (!containersConf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, containersConf);
    return env;
}

ProcessResult Process::run(const QString &program, const QStringList &args, const Options &options)
{
    ProcessResult result;
    QProcess process;
    prepare(process, options);
    process.start(program, args);
    const int limit = options.timeoutMs > 0 ? options.timeoutMs : -1;
    if (!process.waitForStarted(limit > 0 ? std::min(limit, kStartTimeoutMs) : kStartTimeoutMs)) {
        result.startError = process.errorString();
        return result;
    }
    result.started = true;
    if (!process.waitForFinished(limit)) {
        process.kill();
        process.waitForFinished(kReapTimeoutMs);
        result.timedOut = true;
        result.crashed = true;
        return result;
    }
    result.crashed = process.exitStatus() == QProcess::CrashExit;
    result.exitCode = result.crashed ? -1 : process.exitCode();
    result.out = process.readAllStandardOutput();
    if (process.processChannelMode() != QProcess::MergedChannels) // merged: all of it is in out
        result.err = process.readAllStandardError();
    return result;
}

Process *Process::start(QObject *context, const QString &program, const QStringList &args,
                        const Options &options, std::function<void(const ProcessResult &)> done)
{
    auto *process = new Process(context);
    connect(process, &Process::finished, context,
            [process, done = std::move(done)](const ProcessResult &result) {
                process->deleteLater();
                if (done)
                    done(result);
            });
    process->start(program, args, options);
    return process;
}

Process::Process(QObject *parent) : QObject(parent) {}

Process::~Process()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(kReapTimeoutMs);
    }
}

void Process::start(const QString &program, const QStringList &args, const Options &options)
{
    Q_ASSERT(!m_process); // one run per Process
    m_lines = options.lines;
    m_process = new QProcess(this);
    prepare(*m_process, options);
    if (m_lines)
        connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { readLines(false); });
    connect(m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus status) {
                m_result.started = true;
                m_result.crashed = status == QProcess::CrashExit;
                m_result.exitCode = m_result.crashed ? -1 : exitCode;
                if (m_lines)
                    readLines(true);
                else
                    m_result.out = m_process->readAllStandardOutput();
                if (m_process->processChannelMode() != QProcess::MergedChannels)
                    m_result.err = m_process->readAllStandardError();
                finish();
            });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and kills end in finished()
        m_result.started = false;
        m_result.startError = m_process->errorString();
        finish();
    });
    if (options.timeoutMs > 0) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, [this] {
            m_result.timedOut = true;
            m_process->kill();
        });
        m_timer->start(options.timeoutMs);
    }
    m_process->start(program, args);
}

bool Process::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void Process::terminate()
{
    if (isRunning())
        m_process->terminate();
}

void Process::kill()
{
    if (isRunning())
        m_process->kill();
}

bool Process::waitForFinished(int timeoutMs)
{
    if (!isRunning())
        return true;
    return m_process->waitForFinished(timeoutMs);
}

void Process::readLines(bool atEnd)
{
    // Output arrives in arbitrary pieces; hand on whole lines.
    m_pending.append(m_process->readAllStandardOutput());
    qsizetype begin = 0;
    for (qsizetype i = 0; i < m_pending.size(); ++i) {
        const char c = m_pending.at(i);
        if (c == '\n' || c == '\r') {
            const QString text =
                QString::fromUtf8(m_pending.constData() + begin, i - begin).trimmed();
            if (!text.isEmpty())
                Q_EMIT line(text);
            begin = i + 1;
        }
    }
    m_pending.remove(0, begin);
    if (atEnd && !m_pending.isEmpty()) {
        const QString text = QString::fromUtf8(m_pending).trimmed();
        m_pending.clear();
        if (!text.isEmpty())
            Q_EMIT line(text);
    }
}

void Process::finish()
{
    // finished() and errorOccurred() may both arrive; a start failure may come from inside
    // QProcess::start(). The result goes out once, from the event loop.
    if (m_done)
        return;
    m_done = true;
    if (m_timer)
        m_timer->stop();
    QMetaObject::invokeMethod(
        this, [this] { Q_EMIT finished(m_result); }, Qt::QueuedConnection);
}

} // namespace cardhour::sim
