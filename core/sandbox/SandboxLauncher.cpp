#include "sandbox/SandboxLauncher.h"

#include "DataPaths.h"
#include "SandboxSecret.h"
#include "api/ProviderClient.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
constexpr qsizetype kStderrTailBytes = 4096;
constexpr int kHealthTimeoutMs = 5000;
constexpr int kStopGraceMs = 5000;
} // namespace

SandboxLauncher::SandboxLauncher(QObject *parent)
    : QObject(parent), m_probe(new ProviderClient(this)), m_startTimer(new QTimer(this)),
      m_killTimer(new QTimer(this)), m_attachUrl(u"http://127.0.0.1:8787"_s)
{
    m_probe->setTimeoutMs(kHealthTimeoutMs);
    m_startTimer->setSingleShot(true);
    connect(m_startTimer, &QTimer::timeout, this, [this] {
        fail(tr("The sandbox did not become ready within %n second(s).", nullptr,
                m_startTimeoutMs / 1000));
    });
    m_killTimer->setSingleShot(true);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        if (m_process)
            m_process->kill();
    });
}

SandboxLauncher::~SandboxLauncher()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        m_process->terminate();
        if (!m_process->waitForFinished(3000)) {
            m_process->kill();
            m_process->waitForFinished(3000);
        }
        removeUrlFile();
    }
}

QString SandboxLauncher::defaultExecutable()
{
#ifdef Q_OS_WIN
    const QString name = u"cardhour-sim.exe"_s;
#else
    const QString name = u"cardhour-sim"_s;
#endif
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QString SandboxLauncher::executable() const
{
    return m_executable.isEmpty() ? defaultExecutable() : m_executable;
}

QString SandboxLauncher::defaultDataDir()
{
    // The directory scripts/run and cardhour-sim started alone use too, so they all share one
    // ledger and one datasets list (and the lock file tells them apart).
    return DataPaths::sandboxDataDir();
}

QString SandboxLauncher::dataDir() const
{
    return m_dataDir.isEmpty() ? defaultDataDir() : m_dataDir;
}

QString SandboxLauncher::providerKey() const
{
    return u"cardhour-sandbox:"_s + QDir::cleanPath(QFileInfo(dataDir()).absoluteFilePath());
}

qint64 SandboxLauncher::processId() const
{
    return m_process ? m_process->processId() : 0;
}

QString SandboxLauncher::urlFilePath() const
{
    return QDir(dataDir()).filePath(u"cardhour-sim.url"_s);
}

void SandboxLauncher::writeUrlFile() const
{
    QSaveFile file(urlFilePath());
    if (file.open(QIODevice::WriteOnly)) {
        file.write(m_url.toEncoded() + '\n');
        file.commit();
    }
}

void SandboxLauncher::removeUrlFile() const
{
    QFile::remove(urlFilePath());
}

bool SandboxLauncher::dataDirInUse() const
{
    // cardhour-sim holds this lock while it runs. A stale time of 0 means "stale only when
    // its process is gone", as the sandbox itself sets it: a live sandbox's lock is never
    // broken here, however old.
    QLockFile lock(QDir(dataDir()).filePath(u"cardhour-sim.lock"_s));
    lock.setStaleLockTime(0);
    if (lock.tryLock(0)) {
        lock.unlock();
        return false;
    }
    return lock.error() == QLockFile::LockFailedError;
}

void SandboxLauncher::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void SandboxLauncher::start()
{
    if (m_state == State::Starting || m_state == State::Running || m_state == State::Attached)
        return;
    ++m_attempt;
    m_url.clear();
    m_error.clear();
    m_stdout.clear();
    m_stderrTail.clear();
    setState(State::Starting);
    m_startTimer->start(m_startTimeoutMs);
    Q_EMIT progress(tr("Looking for a running sandbox…"));

    QList<QUrl> candidates;
    if (m_attachAllowed) {
        QFile file(urlFilePath());
        if (file.open(QIODevice::ReadOnly)) {
            const QUrl recorded = QUrl::fromEncoded(file.readLine(1024).trimmed());
            if (recorded.isValid() && !recorded.isRelative())
                candidates.append(recorded);
        }
        if (m_attachUrl.isValid() && !m_attachUrl.isEmpty() && !candidates.contains(m_attachUrl))
            candidates.append(m_attachUrl);
    }
    tryAttach(candidates);
}

void SandboxLauncher::tryAttach(QList<QUrl> candidates)
{
    if (candidates.isEmpty()) {
        if (dataDirInUse()) {
            fail(tr("Another CardHour Sandbox is using %1 but does not answer. Stop it, or choose "
                    "another data directory.")
                     .arg(QDir::toNativeSeparators(dataDir())));
            return;
        }
        launch();
        return;
    }
    const QUrl url = candidates.takeFirst();
    const quint64 attempt = m_attempt;
    m_probe->setBaseUrl(url);
    auto *health = m_probe->health();
    health->onFinished(this, [this, url, candidates, attempt](const Reply<Health> &r) {
        if (attempt != m_attempt || m_state != State::Starting)
            return;
        if (!r.ok() || r.value().service != u"cardhour-sim"_s) {
            tryAttach(candidates);
            return;
        }
        m_health = r.value();
        // It says it is a sandbox; only the one holding our data directory's secret is ours.
        prove(
            url,
            [this, url] {
                m_url = url;
                m_startTimer->stop();
                setState(State::Attached);
                Q_EMIT ready(url);
            },
            [this, url, candidates](const QString &detail) {
                const QString reason =
                    tr("Refused the program at %1: it answers like CardHour Sandbox but cannot "
                       "prove "
                       "that it is the one using %2 (%3). It may be another user's program waiting "
                       "for your password; nothing was sent to it.")
                        .arg(url.toString(), QDir::toNativeSeparators(dataDir()), detail);
                Q_EMIT impostorRefused(url, reason);
                Q_EMIT progress(reason);
                tryAttach(candidates);
            });
    });
}

void SandboxLauncher::prove(const QUrl &url, std::function<void()> onProven,
                            std::function<void(const QString &detail)> onRefused)
{
    QString problem;
    const std::optional<QByteArray> secret = SandboxSecret::read(dataDir(), &problem);
    if (!secret) {
        onRefused(tr("its secret file cannot be used: %1").arg(problem));
        return;
    }
    const QByteArray nonce = SandboxSecret::newNonce();
    const QByteArray expected =
        SandboxSecret::proof(*secret, nonce, static_cast<quint16>(url.port(80)));
    const quint64 attempt = m_attempt;
    m_probe->setBaseUrl(url);
    auto *reply = m_probe->proveSandbox(nonce);
    reply->onFinished(
        this,
        [this, attempt, expected, onProven = std::move(onProven),
         onRefused = std::move(onRefused)](const Reply<SandboxProofAnswer> &r) {
            if (attempt != m_attempt || m_state != State::Starting)
                return;
            if (!r.ok())
                onRefused(tr("it did not answer the challenge: %1").arg(r.error().userMessage()));
            else if (!SandboxSecret::proofsEqual(r.value().proof, expected))
                onRefused(tr("its answer to the challenge is wrong"));
            else
                onProven();
        });
}

void SandboxLauncher::launch()
{
    const QString program = executable();
    const QFileInfo info(program);
    if (!info.exists() || !info.isExecutable()) {
        fail(tr("The sandbox program was not found at %1.").arg(QDir::toNativeSeparators(program)));
        return;
    }
    if (!QDir().mkpath(dataDir())) {
        fail(tr("The sandbox's data directory %1 cannot be created.")
                 .arg(QDir::toNativeSeparators(dataDir())));
        return;
    }
    Q_EMIT progress(tr("Starting the sandbox…"));
    auto *process = new QProcess(this);
    m_process = process;
    process->setProgram(program);
    // Rehearsed failures are allowed: this sandbox is the user's own, on loopback, and each
    // fault acts only on the account that asks (docs/sandbox.md).
    process->setArguments(
        QStringList{u"--listen"_s, u"127.0.0.1:0"_s, u"--data"_s, dataDir(), u"--allow-chaos"_s}
        + m_extraArguments);
    process->setProcessChannelMode(QProcess::SeparateChannels);
    process->setStandardInputFile(QProcess::nullDevice());
#ifdef Q_OS_LINUX
    // A client that is killed rather than closed takes its sandbox with it: the kernel sends the
    // sandbox SIGTERM (a clean stop) when the thread that started it ends. A client already gone
    // before the child got here leaves it to exit at once.
    const pid_t client = ::getpid();
    process->setChildProcessModifier([client] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != client)
            ::_exit(1);
    });
#endif
    connect(process, &QProcess::readyReadStandardOutput, this, &SandboxLauncher::onStdout);
    connect(process, &QProcess::readyReadStandardError, this, &SandboxLauncher::onStderr);
    connect(process, &QProcess::finished, this, &SandboxLauncher::onProcessFinished);
    connect(process, &QProcess::errorOccurred, this, &SandboxLauncher::onProcessError);
    process->start();
}

void SandboxLauncher::onStdout()
{
    if (!m_process)
        return;
    const QByteArray data = m_process->readAllStandardOutput();
    if (!m_url.isEmpty() || m_state != State::Starting)
        return; // only the first line matters; the rest is drained so the pipe never fills
    m_stdout += data;
    const qsizetype end = m_stdout.indexOf('\n');
    if (end < 0) {
        if (m_stdout.size() > 4096)
            fail(tr("The sandbox printed something unexpected instead of its address."));
        return;
    }
    const QString line = QString::fromUtf8(m_stdout.left(end)).trimmed();
    static const QRegularExpression pattern(u"^listening (http://\\S+)$"_s);
    const QRegularExpressionMatch match = pattern.match(line);
    const QUrl url = match.hasMatch() ? QUrl(match.captured(1)) : QUrl();
    if (!url.isValid() || url.port() <= 0) {
        fail(tr("The sandbox printed something unexpected instead of its address: %1").arg(line));
        return;
    }
    verify(url);
}

void SandboxLauncher::verify(const QUrl &url)
{
    m_url = url;
    Q_EMIT progress(tr("Waiting for the sandbox to answer…"));
    const quint64 attempt = m_attempt;
    m_probe->setBaseUrl(url);
    auto *health = m_probe->health();
    health->onFinished(this, [this, url, attempt](const Reply<Health> &r) {
        if (attempt != m_attempt || m_state != State::Starting)
            return;
        if (!r.ok()) {
            fail(tr("The sandbox started but does not answer at %1: %2")
                     .arg(url.toString(), r.error().userMessage()));
            return;
        }
        m_health = r.value();
        // Our own child, yet checked the same way: what answers on that port must be it.
        prove(
            url,
            [this, url] {
                m_startTimer->stop();
                writeUrlFile();
                setState(State::Running);
                Q_EMIT ready(url);
            },
            [this, url](const QString &detail) {
                fail(tr("The sandbox started but what answers at %1 cannot prove it is the "
                        "sandbox: %2")
                         .arg(url.toString(), detail));
            });
    });
}

void SandboxLauncher::onStderr()
{
    if (!m_process)
        return;
    m_stderrTail += m_process->readAllStandardError();
    if (m_stderrTail.size() > kStderrTailBytes) {
        m_stderrTail = m_stderrTail.right(kStderrTailBytes);
        const qsizetype newline = m_stderrTail.indexOf('\n');
        if (newline >= 0 && newline + 1 < m_stderrTail.size())
            m_stderrTail.remove(0, newline + 1); // start at a whole line
    }
}

void SandboxLauncher::onProcessFinished(int exitCode, QProcess::ExitStatus status)
{
    onStderr();
    const QString how = status == QProcess::CrashExit ? tr("it crashed or was killed")
                                                      : tr("exit code %1").arg(exitCode);
    const State was = m_state;
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_killTimer->stop();
    switch (was) {
    case State::Starting:
        fail(tr("The sandbox stopped while starting (%1).").arg(how));
        return;
    case State::Running:
        removeUrlFile();
        m_error = tr("The sandbox stopped unexpectedly (%1).").arg(how);
        setState(State::Failed);
        Q_EMIT exitedUnexpectedly(m_error, stderrTail());
        return;
    case State::Stopping:
        removeUrlFile();
        m_url.clear();
        setState(State::Idle);
        Q_EMIT stopped();
        return;
    case State::Idle:
    case State::Attached:
    case State::Failed:
        return;
    }
}

void SandboxLauncher::onProcessError(QProcess::ProcessError error)
{
    // Only a failed start needs handling here; every other error also ends in finished().
    if (error == QProcess::FailedToStart && m_state == State::Starting)
        fail(tr("The sandbox program could not be started: %1")
                 .arg(m_process ? m_process->errorString() : QString()));
}

void SandboxLauncher::fail(const QString &reason)
{
    if (m_state != State::Starting)
        return;
    ++m_attempt;
    m_error = reason;
    m_startTimer->stop();
    m_url.clear();
    setState(State::Failed);
    if (m_process) {
        QProcess *process = m_process;
        m_process = nullptr;
        process->disconnect(this);
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(1000);
        }
        m_stderrTail += process->readAllStandardError();
        process->deleteLater();
    }
    Q_EMIT failed(reason, stderrTail());
}

void SandboxLauncher::stop()
{
    switch (m_state) {
    case State::Running:
        setState(State::Stopping);
        Q_EMIT progress(tr("Stopping the sandbox…"));
        m_process->terminate(); // SIGTERM: the sandbox closes its database cleanly
        m_killTimer->start(kStopGraceMs);
        return;
    case State::Starting:
        ++m_attempt;
        m_startTimer->stop();
        if (m_process) {
            QProcess *process = m_process;
            m_process = nullptr;
            process->disconnect(this);
            process->kill();
            process->waitForFinished(1000);
            process->deleteLater();
        }
        [[fallthrough]];
    case State::Attached:
        m_url.clear();
        setState(State::Idle);
        Q_EMIT stopped();
        return;
    case State::Idle:
    case State::Stopping:
    case State::Failed:
        return;
    }
}

} // namespace cardhour::core
