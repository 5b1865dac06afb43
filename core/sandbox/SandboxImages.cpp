#include "sandbox/SandboxImages.h"

#include "sandbox/SandboxLauncher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#ifdef Q_OS_UNIX
#include <signal.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

constexpr qsizetype kLogLines = 20000;

// The value after `option` in the launcher's extra arguments ("--tag-prefix X" or
// "--tag-prefix=X"), empty when absent.
QString optionValue(const QStringList &arguments, const QString &option)
{
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        if (arguments.at(i) == option && i + 1 < arguments.size())
            return arguments.at(i + 1);
        if (arguments.at(i).startsWith(option + u'='))
            return arguments.at(i).mid(option.size() + 1);
    }
    return {};
}

QString stripProgramName(QString text)
{
    text.remove(QRegularExpression(u"^cardhour-sim( images| doctor)?: "_s));
    return text.trimmed();
}

} // namespace

SandboxImages::SandboxImages(const SandboxLauncher *launcher, QObject *parent)
    : QObject(parent), m_launcher(launcher)
{}

SandboxImages::~SandboxImages()
{
#ifdef Q_OS_UNIX
    if (m_build && m_build->processId() > 0)
        ::kill(-pid_t(m_build->processId()), SIGTERM); // podman under it, too
#endif
    for (QProcess *process : {m_list.data(), m_doctor.data(), m_build.data()}) {
        if (!process)
            continue;
        process->disconnect(this);
        process->kill();
        process->waitForFinished(3000);
    }
}

QStringList SandboxImages::engineArguments() const
{
    QStringList args;
    const QStringList extra = m_launcher->extraArguments();
    for (const QString &option : {u"--tag-prefix"_s, u"--containers-conf"_s}) {
        const QString value = optionValue(extra, option);
        if (!value.isEmpty())
            args << option << value;
    }
    return args;
}

bool SandboxImages::usesContainers() const
{
    return optionValue(m_launcher->extraArguments(), u"--runtime"_s) != u"inprocess"_s;
}

QStringList SandboxImages::listArguments() const
{
    return QStringList{u"images"_s, u"list"_s} + engineArguments();
}

QStringList SandboxImages::buildArguments(const QStringList &ids) const
{
    QStringList ordered = ids;
    // `base` first: the others are built on it, and a first launch can start once it is there.
    if (ordered.removeAll(u"base"_s) > 0)
        ordered.prepend(u"base"_s);
    return QStringList{u"images"_s, u"build"_s} + ordered
        + QStringList{u"--data"_s, m_launcher->dataDir()} + engineArguments();
}

QStringList SandboxImages::doctorArguments() const
{
    return QStringList{u"doctor"_s, u"--json"_s, u"--data"_s, m_launcher->dataDir()}
    + engineArguments();
}

QStringList SandboxImages::missing() const
{
    QStringList ids;
    for (const Image &image : m_images) {
        if (image.needsBuild())
            ids.append(image.id);
    }
    if (ids.removeAll(u"base"_s) > 0)
        ids.prepend(u"base"_s);
    return ids;
}

QProcess *SandboxImages::startProcess(const QStringList &arguments)
{
    auto *process = new QProcess(this);
    process->setProgram(m_launcher->executable());
    process->setArguments(arguments);
    process->setStandardInputFile(QProcess::nullDevice());
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // the others end in finished()
        const QString reason = tr("The sandbox program %1 could not be started: %2")
                                   .arg(m_launcher->executable(), process->errorString());
        process->deleteLater();
        if (process == m_list) {
            m_list = nullptr;
            m_listAgain = false; // it would not start again either
            Q_EMIT checked({}, reason);
        } else if (process == m_doctor) {
            m_doctor = nullptr;
            m_doctorAgain = false;
            Q_EMIT diagnosed({}, reason);
        } else if (process == m_build) {
            finishBuild(false, false, reason);
        }
    });
    return process;
}

// ---- images list ------------------------------------------------------------------------

void SandboxImages::check()
{
    if (m_list) {
        m_listAgain = true;
        return;
    }
    m_list = startProcess(listArguments());
    connect(m_list, &QProcess::finished, this, &SandboxImages::onListFinished);
    m_list->start();
}

void SandboxImages::onListFinished(int exitCode, QProcess::ExitStatus status)
{
    QProcess *process = m_list;
    m_list = nullptr;
    if (!process)
        return;
    process->deleteLater();
    if (std::exchange(m_listAgain, false))
        return check(); // asked again meanwhile: this answer may be from before a build
    const QString err = stripProgramName(QString::fromUtf8(process->readAllStandardError()));
    const QStringList lines =
        QString::fromUtf8(process->readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    QList<Image> images;
    static const QRegularExpression spaces(u"\\s+"_s);
    for (qsizetype i = 1; i < lines.size(); ++i) { // the first is the header
        const QString &line = lines.at(i);
        if (line.startsWith(u"root image "_s) || line.startsWith(u"images are tagged "_s))
            break;
        const QStringList fields = line.split(spaces, Qt::SkipEmptyParts);
        if (fields.size() < 2)
            continue;
        images.append({fields.at(0), fields.at(1)}); // ID STATUS SIZE BUILT-AT NOTE
    }
    if (status != QProcess::NormalExit || (images.isEmpty() && exitCode != 0)) {
        Q_EMIT checked({},
                       tr("The sandbox could not list its images: %1")
                           .arg(err.isEmpty() ? tr("exit status %1").arg(exitCode) : err));
        return;
    }
    m_images = images;
    Q_EMIT checked(images, {});
}

// ---- images build -----------------------------------------------------------------------

bool SandboxImages::prepare(const QStringList &ids, QString *error)
{
    if (m_build) {
        if (error)
            *error = tr("The images are being prepared already.");
        return false;
    }
    if (ids.isEmpty()) {
        if (error)
            *error = tr("Every image is built already.");
        return false;
    }
    const QStringList args = buildArguments(ids);
    m_buildOrder = args.mid(2, ids.size());
    m_done.clear();
    m_failures.clear();
    m_log.clear();
    m_partial[0].clear();
    m_partial[1].clear();
    m_progress = Progress{};
    m_progress.imagesTotal = int(m_buildOrder.size());
    m_cancelled = false;
    m_clock.start();

    m_build = startProcess(args);
#ifdef Q_OS_UNIX
    // Its own process group: cancel() ends podman and the root script with it.
    m_build->setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
    QProcess *process = m_build;
    connect(process, &QProcess::readyReadStandardOutput, this,
            [this, process] { onBuildOutput(process, QProcess::StandardOutput); });
    connect(process, &QProcess::readyReadStandardError, this,
            [this, process] { onBuildOutput(process, QProcess::StandardError); });
    connect(process, &QProcess::finished, this, &SandboxImages::onBuildFinished);
    const QString commandLine = m_launcher->executable() + u' ' + args.join(u' ');
    m_log.append(u"$ "_s + commandLine);
    Q_EMIT logLine(m_log.last());
    process->start();
    return true;
}

void SandboxImages::cancel()
{
    if (!m_build)
        return;
    m_cancelled = true;
#ifdef Q_OS_UNIX
    if (const qint64 pid = m_build->processId(); pid > 0)
        ::kill(-pid_t(pid), SIGTERM); // the group: cardhour-sim and the podman it runs
#endif
    m_build->kill();
}

void SandboxImages::onBuildOutput(QProcess *process, QProcess::ProcessChannel channel)
{
    process->setReadChannel(channel);
    QByteArray &partial = m_partial[channel == QProcess::StandardError ? 1 : 0];
    partial += process->readAll();
    qsizetype end = 0;
    while ((end = partial.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(partial.left(end)).trimmed();
        partial.remove(0, end + 1);
        if (!line.isEmpty())
            onBuildLine(line);
    }
}

void SandboxImages::onBuildLine(const QString &line)
{
    m_log.append(line);
    if (m_log.size() > kLogLines)
        m_log.removeFirst();
    Q_EMIT logLine(line);

    // The builder's lines: "[id] STEP 3/8: RUN ...", "[id] built in 12.3 s", "[id] FAILED: ...".
    static const QRegularExpression tagged(u"^\\[([^\\]]+)\\] (.*)$"_s);
    static const QRegularExpression stepLine(u"STEP\\s+(\\d+)/(\\d+):"_s);
    const QRegularExpressionMatch match = tagged.match(line);
    if (!match.hasMatch())
        return;
    const QString id = match.captured(1);
    const QString rest = match.captured(2);
    m_progress.image = id;
    m_progress.line = rest;
    if (const QRegularExpressionMatch step = stepLine.match(rest); step.hasMatch()) {
        m_progress.step = step.captured(1).toInt();
        m_progress.totalSteps = step.captured(2).toInt();
    } else if (rest.startsWith(u"built in "_s) || rest.startsWith(u"checked in "_s)
               || rest.endsWith(u"nothing to do"_s)) {
        if (!m_done.contains(id)) {
            m_done.append(id);
            if (m_buildOrder.contains(id))
                ++m_progress.imagesDone;
            Q_EMIT imageReady(id);
        }
        m_progress.step = 0;
        m_progress.totalSteps = 0;
    } else if (rest.startsWith(u"FAILED: "_s)) {
        // An image several requested images are built on can fail more than once.
        const QString failure = u"%1: %2"_s.arg(id, rest.mid(8));
        if (!m_failures.contains(failure))
            m_failures.append(failure);
    }
    const double current = m_progress.totalSteps > 0 && !m_done.contains(id)
        ? double(m_progress.step - 1) / m_progress.totalSteps
        : 0.0;
    m_progress.fraction = m_progress.imagesTotal > 0
        ? std::clamp((m_progress.imagesDone + std::max(0.0, current)) / m_progress.imagesTotal, 0.0,
                     1.0)
        : 0.0;
    // From the pace so far; too early a guess says nothing.
    const double elapsed = double(m_clock.elapsed()) / 1000.0;
    m_progress.secondsLeft = m_progress.fraction >= 0.02
        ? int(std::lround(elapsed * (1.0 - m_progress.fraction) / m_progress.fraction))
        : -1;
    Q_EMIT progress(m_progress);
}

void SandboxImages::onBuildFinished(int exitCode, QProcess::ExitStatus status)
{
    QProcess *process = m_build;
    if (!process)
        return;
    onBuildOutput(process, QProcess::StandardOutput);
    onBuildOutput(process, QProcess::StandardError);
    for (QByteArray &partial : m_partial) {
        if (!partial.trimmed().isEmpty())
            onBuildLine(QString::fromUtf8(partial).trimmed());
        partial.clear();
    }
    if (m_cancelled)
        return finishBuild(false, true, tr("Preparing the images was cancelled."));
    if (status == QProcess::NormalExit && exitCode == 0)
        return finishBuild(true, false, tr("The images are ready."));
    QString reason = m_failures.join(u'\n');
    if (reason.isEmpty())
        reason = status == QProcess::NormalExit ? tr("exit status %1").arg(exitCode)
                                                : tr("the builder stopped unexpectedly");
    finishBuild(false, false, tr("The images could not be built: %1").arg(reason));
}

void SandboxImages::finishBuild(bool ok, bool cancelled, const QString &message)
{
    QProcess *process = m_build;
    m_build = nullptr;
    if (process) {
        process->disconnect(this);
        process->deleteLater();
    }
    m_log.append(message);
    Q_EMIT logLine(message);
    Q_EMIT finished(ok, cancelled, message);
}

// ---- doctor -----------------------------------------------------------------------------

void SandboxImages::diagnose()
{
    if (m_doctor) {
        m_doctorAgain = true;
        return;
    }
    m_doctor = startProcess(doctorArguments());
    connect(m_doctor, &QProcess::finished, this, &SandboxImages::onDoctorFinished);
    m_doctor->start();
}

void SandboxImages::onDoctorFinished(int exitCode, QProcess::ExitStatus status)
{
    QProcess *process = m_doctor;
    m_doctor = nullptr;
    if (!process)
        return;
    process->deleteLater();
    if (std::exchange(m_doctorAgain, false))
        return diagnose(); // asked again meanwhile: "images: present: none" may be stale
    QJsonParseError parseError{};
    const QJsonDocument document =
        QJsonDocument::fromJson(process->readAllStandardOutput(), &parseError);
    if (status != QProcess::NormalExit || !document.isObject()) {
        const QString err = stripProgramName(QString::fromUtf8(process->readAllStandardError()));
        Q_EMIT diagnosed({},
                         tr("The sandbox could not check this computer: %1")
                             .arg(err.isEmpty() ? tr("exit status %1").arg(exitCode) : err));
        return;
    }
    QList<Finding> findings;
    for (const QJsonValue &value : document.object().value(u"checks"_s).toArray()) {
        const QJsonObject check = value.toObject();
        const QString state = check.value(u"status"_s).toString();
        if (state != u"warning"_s && state != u"problem"_s)
            continue;
        findings.append({check.value(u"name"_s).toString(), state,
                         check.value(u"detail"_s).toString(), check.value(u"fix"_s).toString()});
    }
    Q_EMIT diagnosed(findings, {});
}

} // namespace cardhour::core
