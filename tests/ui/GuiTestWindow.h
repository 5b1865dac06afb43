#pragma once

// What the GUI tests that run a whole main window share: its options, kept inside the test's
// folder (keychain service named per test, known_hosts, key folder, ssh config; no QSettings),
// and the screenshots they save for people to look at.
#include "MainWindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

namespace cardhour::test {

using namespace Qt::StringLiterals;

// A main window's options with everything it writes under `dir` (app/known_hosts, app/ssh,
// home/.ssh/config), its keychain entries under "CardHourTest-<tag>-<pid>".
inline ui::MainWindow::Options isolatedWindowOptions(const QDir &dir, const QString &tag,
                                                     int keychainTimeoutMs = 3000)
{
    ui::MainWindow::Options o;
    o.keychainService = u"CardHourTest-%1-%2"_s.arg(tag).arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = keychainTimeoutMs;
    o.knownHostsFile = dir.filePath(u"app/known_hosts"_s);
    o.sshKeyFolder = dir.filePath(u"app/ssh"_s);
    o.sshConfigFile = dir.filePath(u"home/.ssh/config"_s);
    o.useSettings = false;
    return o;
}

// Saves `widget` as <screenshot dir>/<name>.png once pending events have painted it; false (and
// a warning) when it cannot be written.
inline bool saveScreenshot(QWidget *widget, const QString &screenshotDir, const QString &name)
{
    QCoreApplication::processEvents();
    QDir().mkpath(screenshotDir);
    const QString path = screenshotDir + u'/' + name + u".png"_s;
    if (widget->grab().save(path))
        return true;
    qWarning("could not write %s", qPrintable(path));
    return false;
}

} // namespace cardhour::test
