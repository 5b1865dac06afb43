#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cardhour::core {

class SandboxLauncher;

// The local sandbox's container images, through the sandbox's own commands (run with the
// executable, data folder and --tag-prefix / --containers-conf of the launcher):
//   check()    `cardhour-sim images list`: which catalog images are missing
//   prepare()  `cardhour-sim images build base ...`: builds them, `base` first (a launch of it
//              can start while the others build; a launch of one still building waits for it),
//              reporting each step of the builder's output and an estimate of the time left
//   cancel()   kills the build
//   diagnose() `cardhour-sim doctor --json`: what keeps this host from running containers,
//              with the fix for each finding
// All asynchronous; one build at a time, and one check of each kind: a check asked for while
// one runs (a build ended meanwhile) drops the running one's answer and runs again after it.
class SandboxImages : public QObject
{
    Q_OBJECT
public:
    struct Image
    {
        QString id;
        QString status; // missing, stale, current, unknown (images list's words)
        bool needsBuild() const { return status != QStringLiteral("current"); }
    };
    struct Progress
    {
        QString image; // the image being worked on
        QString line; // the builder's line
        int step = 0; // podman's "STEP n/m" of that image
        int totalSteps = 0;
        int imagesDone = 0;
        int imagesTotal = 0;
        double fraction = 0; // 0..1 of the whole build
        int secondsLeft = -1; // estimate from the time so far; -1 while unknown
    };
    struct Finding
    {
        QString name; // doctor's stable key
        QString status; // warning or problem
        QString detail;
        QString fix; // the command or file to copy
    };

    // `launcher` is not owned and must outlive this object.
    explicit SandboxImages(const SandboxLauncher *launcher, QObject *parent = nullptr);
    ~SandboxImages() override; // kills a build still running

    // False when the sandbox runs no containers (--runtime inprocess): no images to prepare.
    bool usesContainers() const;
    void check();
    // Builds `ids` (in that order after `base`); false with *error while a build runs.
    bool prepare(const QStringList &ids, QString *error = nullptr);
    void cancel();
    bool isBuilding() const { return m_build != nullptr; }
    void diagnose();

    // The arguments of each command (tests, the log's first line).
    QStringList listArguments() const;
    QStringList buildArguments(const QStringList &ids) const;
    QStringList doctorArguments() const;
    // Everything the build wrote so far, stdout and stderr as they came.
    QString log() const { return m_log.join(u'\n'); }
    QStringList missing() const; // of the last check, base first

Q_SIGNALS:
    void checked(const QList<cardhour::core::SandboxImages::Image> &images, const QString &error);
    void progress(const cardhour::core::SandboxImages::Progress &progress);
    void logLine(const QString &line);
    void imageReady(const QString &id);
    // ok false: `message` is the reason (a translated sentence with the builder's words);
    // cancelled: cancel() ended it.
    void finished(bool ok, bool cancelled, const QString &message);
    void diagnosed(const QList<cardhour::core::SandboxImages::Finding> &findings,
                   const QString &error);

private:
    QStringList engineArguments() const;
    QProcess *startProcess(const QStringList &arguments);
    void onListFinished(int exitCode, QProcess::ExitStatus status);
    void onDoctorFinished(int exitCode, QProcess::ExitStatus status);
    void onBuildOutput(QProcess *process, QProcess::ProcessChannel channel);
    void onBuildLine(const QString &line);
    void onBuildFinished(int exitCode, QProcess::ExitStatus status);
    void finishBuild(bool ok, bool cancelled, const QString &message);

    const SandboxLauncher *m_launcher;
    QPointer<QProcess> m_list;
    QPointer<QProcess> m_doctor;
    QPointer<QProcess> m_build;
    QList<Image> m_images;
    QStringList m_log;
    QByteArray m_partial[2]; // an unfinished line of stdout, stderr
    QStringList m_buildOrder;
    QStringList m_done;
    QStringList m_failures;
    Progress m_progress;
    QElapsedTimer m_clock;
    bool m_cancelled = false;
    bool m_listAgain = false; // check() while a list ran: its answer may predate a build
    bool m_doctorAgain = false; // the same for diagnose()
};

} // namespace cardhour::core
