#include "ssh/AppOpener.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTimer>

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
    return [](const QUrl &page) {
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
        process->start();
        if (!process->waitForStarted(5000)) {
            delete process;
            return false;
        }
        // xdg-open ends once the browser has the page, and says whether it found one; where it
        // goes on running it has become the browser, which has the page too.
        if (process->waitForFinished(5000)) {
            const bool ok = process->exitStatus() == QProcess::NormalExit
#ifndef Q_OS_WIN // explorer's exit code means nothing
                && process->exitCode() == 0
#endif
                ;
            delete process;
            return ok;
        }
        QObject::connect(process, &QProcess::finished, process, &QObject::deleteLater);
        return true;
    };
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

AppOpener::Outcome AppOpener::open(const QUrl &appUrl)
{
    Outcome outcome;
    if (!ensureFolder(&outcome.error))
        return outcome;
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
        return outcome;
    }
    file.close();
    if (!m_launcher || !m_launcher(QUrl::fromLocalFile(outcome.page))) {
        outcome.error = tr("Could not start a browser.");
        QFile::remove(outcome.page);
        return outcome;
    }
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, page = outcome.page] { removePage(page); });
    timer->start(m_lifetimeMs);
    m_pages.insert(outcome.page, timer);
    outcome.opened = true;
    return outcome;
}

} // namespace cardhour::core
