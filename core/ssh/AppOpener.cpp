#include "ssh/AppOpener.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTimer>

#include <memory>
#include <utility>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
const QString kPagePrefix = u"app-"_s;
const QString kPageSuffix = u".html"_s;
constexpr QFileDevice::Permissions kOwnerOnlyFolder =
    QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
constexpr QFileDevice::Permissions kOthersBits = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
    | QFileDevice::ExeOther;
} // namespace

AppOpener::AppOpener(Launcher launcher, const QString &folder, QObject *parent)
    : QObject(parent), m_launcher(std::move(launcher)),
      m_folder(folder.isEmpty()
                   ? QDir(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation))
                         .filePath(u"cardhour-apps"_s)
                   : folder)
{}

AppOpener::~AppOpener()
{
    const QStringList pages = m_pages.keys();
    for (const QString &page : pages)
        QFile::remove(page);
}

AppOpener::Launcher AppOpener::systemLauncher()
{
    return [](const QUrl &page, Done done) {
#if defined(Q_OS_MACOS)
        const QString program = u"open"_s;
#elif defined(Q_OS_WIN)
        const QString program = u"explorer"_s;
#else
        const QString program = u"xdg-open"_s;
#endif
        auto *process = new QProcess;
        process->setProgram(program);
        process->setArguments({page.toString(QUrl::FullyEncoded)});
        process->setStandardInputFile(QProcess::nullDevice());
        process->setStandardOutputFile(QProcess::nullDevice());
        // One answer: the first of failing to start, ending, or still running after a while.
        auto answer = std::make_shared<Done>(std::move(done));
        const auto say = [answer](bool opened) {
            if (*answer)
                std::exchange(*answer, nullptr)(opened);
        };
        QObject::connect(process, &QProcess::errorOccurred, process,
                         [process, say](QProcess::ProcessError error) {
                             if (error != QProcess::FailedToStart)
                                 return;
                             say(false);
                             process->deleteLater();
                         });
        // xdg-open ends once the browser has the page, and says whether it found one.
        QObject::connect(process, &QProcess::finished, process,
                         [process, say](int code, QProcess::ExitStatus status) {
                             say(status == QProcess::NormalExit
#ifndef Q_OS_WIN // explorer's exit code means nothing
                                 && code == 0
#endif
                             );
                             Q_UNUSED(code);
                             process->deleteLater();
                         });
        // Where it goes on running it has become the browser, which has the page too.
        QTimer::singleShot(kLauncherAnswerMs, process, [say] { say(true); });
        process->start();
    };
}

AppOpener::Launcher AppOpener::immediate(std::function<bool(const QUrl &page)> start)
{
    return [start = std::move(start)](const QUrl &page, Done done) { done(start(page)); };
}

QByteArray AppOpener::pageFor(const QUrl &appUrl)
{
    const QString address = appUrl.toString(QUrl::FullyEncoded);
    // FullyEncoded leaves no quote, angle bracket or backslash: safe in the attribute and in
    // the script's string alike.
    const QString escaped = address.toHtmlEscaped();
    return u"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
           "<meta name=\"referrer\" content=\"no-referrer\">"
           "<meta http-equiv=\"refresh\" content=\"0;url=%1\"><title>CardHour</title>"
           "<script>location.replace(\"%2\");</script></head>"
           "<body><a href=\"%1\">%3</a></body></html>\n"_s
               .arg(escaped, address, tr("Open the app").toHtmlEscaped())
               .toUtf8();
}

bool AppOpener::ensureFolder(QString *error) const
{
    const QFileInfo parent(QFileInfo(m_folder).absolutePath());
    if (!QDir().mkpath(parent.absoluteFilePath())
        || (!QFileInfo::exists(m_folder) && !QDir().mkdir(m_folder, kOwnerOnlyFolder))) {
        *error = tr("Could not make the folder %1.").arg(m_folder);
        return false;
    }
    const QFileInfo info(m_folder);
    bool ours = info.isDir() && !info.isSymLink();
#ifdef Q_OS_UNIX
    ours = ours && info.ownerId() == uint(getuid());
#endif
    if (ours && (info.permissions() & kOthersBits))
        ours = QFile::setPermissions(m_folder, kOwnerOnlyFolder);
    if (!ours)
        *error = tr("The folder %1 is not this user's alone.").arg(m_folder);
    return ours;
}

void AppOpener::removeStalePages() const
{
    const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-m_lifetimeMs);
    const QFileInfoList pages = QDir(m_folder).entryInfoList({kPagePrefix + u'*' + kPageSuffix},
                                                             QDir::Files | QDir::Hidden);
    for (const QFileInfo &page : pages) {
        if (!m_pages.contains(page.absoluteFilePath()) && page.lastModified() < before)
            QFile::remove(page.absoluteFilePath());
    }
}

void AppOpener::removePage(const QString &path)
{
    if (QTimer *timer = m_pages.take(path))
        timer->deleteLater();
    QFile::remove(path);
}

void AppOpener::open(const QUrl &appUrl, std::function<void(const Outcome &)> done)
{
    Outcome outcome;
    if (!ensureFolder(&outcome.error))
        return done(outcome);
    removeStalePages();
    const QString name =
        kPagePrefix + QString::number(QRandomGenerator::system()->generate64(), 16) + kPageSuffix;
    outcome.page = QDir(m_folder).absoluteFilePath(name);
    QFile file(outcome.page);
    // NewOnly: never into a file someone else placed there; 0600 from the start.
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                   QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || file.write(pageFor(appUrl)) < 0 || !file.flush()) {
        outcome.error = tr("Could not write %1: %2").arg(outcome.page, file.errorString());
        file.close();
        QFile::remove(outcome.page);
        return done(outcome);
    }
    file.close();
    // The page lives its lifetime from now, whatever the launcher answers later.
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, page = outcome.page] { removePage(page); });
    timer->start(m_lifetimeMs);
    m_pages.insert(outcome.page, timer);
    if (!m_launcher) {
        outcome.error = tr("Could not start a browser.");
        removePage(outcome.page);
        return done(outcome);
    }
    QPointer<AppOpener> self(this);
    m_launcher(QUrl::fromLocalFile(outcome.page),
               [self, outcome, done = std::move(done)](bool opened) mutable {
                   if (!self)
                       return;
                   outcome.opened = opened;
                   if (!opened) {
                       outcome.error = tr("Could not start a browser.");
                       self->removePage(outcome.page);
                   }
                   done(outcome);
               });
}

} // namespace cardhour::core
