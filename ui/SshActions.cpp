#include "SshActions.h"

#include "Notice.h"
#include "TerminalTab.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/AppOpener.h"
#include "ssh/SshAccess.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshConnection.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshPortForward.h"

#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QMessageBox>
#include <QProcess>
#include <QStandardPaths>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::SshConfigWriter;
using core::SshTarget;

SshActions::SshActions(core::ClientSession *session, core::SecretStore *secrets, QTabWidget *tabs,
                       const QString &keyFolder, const QString &knownHostsPath,
                       const QString &sshConfigPath, QWidget *window)
    : QObject(window), m_session(session), m_keys(new core::SshKeyStore(secrets, keyFolder, this)),
      m_tabs(tabs),
      m_knownHostsPath(knownHostsPath.isEmpty() ? SshConfigWriter::defaultKnownHostsPath()
                                                : knownHostsPath),
      m_sshConfigPath(sshConfigPath.isEmpty() ? QDir::home().filePath(u".ssh/config"_s)
                                              : sshConfigPath),
      m_opener(new core::AppOpener([](const QUrl &page) { return QDesktopServices::openUrl(page); },
                                   {}, this)),
      m_window(window)
{}

TerminalTab *SshActions::openTerminal(const Instance &instance)
{
    auto *tab = new TerminalTab(m_session, m_keys, instance, m_tabs);
    const int index = m_tabs->addTab(tab, tab->title());
    m_tabs->setTabToolTip(index, tab->title());
    connect(tab, &TerminalTab::titleChanged, this, [this, tab](const QString &title) {
        const int at = m_tabs->indexOf(tab);
        if (at >= 0) {
            m_tabs->setTabText(at, title);
            m_tabs->setTabToolTip(at, title);
        }
    });
    m_tabs->setCurrentWidget(tab);
    tab->reconnect();
    tab->setFocus();
    return tab;
}

void SshActions::resolveTarget(const Instance &instance, TargetCallback done)
{
    m_session->sshKeys()->onFinished(
        this, [this, instance, done](const core::Reply<QList<core::SshKey>> &r) {
            if (!r.ok())
                return done({}, r.error().userMessage());
            const core::SshAccess access =
                core::SshAccess::resolve(instance, r.value(), m_keys->keys(), m_knownHostsPath);
            done(access.target, access.error);
        });
}

QStringList SshActions::systemTerminalCommand(const QStringList &sshArguments)
{
    QStringList ssh{u"ssh"_s};
    ssh << sshArguments;
#if defined(Q_OS_MACOS)
    // Terminal.app runs a .command file; `open -a Terminal` with a script is the plain way.
    QStringList quoted;
    for (const QString &arg : ssh)
        quoted << core::SshConnection::shellQuote(arg);
    const QString script = QDir::temp().filePath(
        u"cardhour-ssh-%1.command"_s.arg(QString::number(qHash(quoted.join(u' ')), 16)));
    QFile file(script);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        file.write((u"#!/bin/sh\nexec "_s + quoted.join(u' ') + u'\n').toUtf8());
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return {u"open"_s, u"-a"_s, u"Terminal"_s, script};
#elif defined(Q_OS_WIN)
    // Never through cmd.exe: it would split the line at `&`, `|` and the like. Windows Terminal
    // takes the argv as it is; otherwise ssh.exe itself, given a console of its own by
    // openSystemTerminal().
    if (!QStandardPaths::findExecutable(u"wt"_s).isEmpty())
        return QStringList{u"wt"_s} + ssh;
    return ssh;
#else
    // Debian's alternative first, then the common desktops' own, then xterm.
    const QList<QStringList> candidates{{u"x-terminal-emulator"_s, u"-e"_s},
                                        {u"gnome-terminal"_s, u"--"_s},
                                        {u"konsole"_s, u"-e"_s},
                                        {u"xfce4-terminal"_s, u"-x"_s},
                                        {u"xterm"_s, u"-e"_s}};
    for (const QStringList &candidate : candidates) {
        if (!QStandardPaths::findExecutable(candidate.constFirst()).isEmpty())
            return candidate + ssh;
    }
    return {};
#endif
}

void SshActions::openSystemTerminal(const Instance &instance)
{
    resolveTarget(instance, [this](const SshTarget &target, const QString &error) {
        if (!error.isEmpty())
            return Q_EMIT message(error, true);
        const QStringList command =
            systemTerminalCommand(SshConfigWriter::sshArguments(target, m_knownHostsPath));
        if (command.isEmpty()) {
            return Q_EMIT message(tr("No terminal program was found. Copy the SSH command "
                                     "instead and paste it into your terminal."),
                                  true);
        }
        QProcess process;
        process.setProgram(command.constFirst());
        process.setArguments(command.mid(1));
#ifdef Q_OS_WIN
        // A console of its own for ssh.exe started from this GUI program (no cmd /c start).
        process.setCreateProcessArgumentsModifier([](QProcess::CreateProcessArguments *arguments) {
            arguments->flags |= 0x00000010; // CREATE_NEW_CONSOLE
        });
#endif
        if (!process.startDetached()) {
            return Q_EMIT message(tr("%1 could not be started.").arg(command.constFirst()), true);
        }
        Q_EMIT message(
            tr("Opened %1 with ssh to “%2”.").arg(command.constFirst(), target.instanceName),
            false);
    });
}

void SshActions::addToSshConfig(const Instance &instance)
{
    resolveTarget(instance, [this](const SshTarget &target, const QString &error) {
        if (!error.isEmpty())
            return Q_EMIT message(error, true);
        QString writeError;
        if (!SshConfigWriter::addToConfig(m_sshConfigPath, target, m_knownHostsPath, &writeError))
            return Q_EMIT message(writeError, true);
        Q_EMIT message(tr("Added to %1: connect with “ssh %2”.")
                           .arg(QDir::toNativeSeparators(m_sshConfigPath),
                                SshConfigWriter::hostAlias(target.instanceName)),
                       false);
    });
}

void SshActions::copySshCommand(const Instance &instance)
{
    m_session->sshKeys()->onFinished(
        this, [this, instance](const core::Reply<QList<core::SshKey>> &r) {
            if (!r.ok())
                return Q_EMIT message(r.error().userMessage(), true);
            QString error;
            const QString command = core::SshAccess::copiedCommand(
                instance, r.value(), m_keys->keys(), m_knownHostsPath, &error);
            if (command.isEmpty())
                return Q_EMIT message(error, true);
            QGuiApplication::clipboard()->setText(command);
            Q_EMIT message(tr("Copied: %1").arg(command), false);
        });
}

quint16 SshActions::forwardedPort(const QString &instanceId, int remotePort) const
{
    const QPointer<core::SshPortForward> forward =
        m_forwards.value(u"%1:%2"_s.arg(instanceId).arg(remotePort));
    return forward ? forward->localPort() : 0;
}

void SshActions::closeForwards(const QString &instanceId)
{
    for (auto it = m_forwards.begin(); it != m_forwards.end();) {
        if (it.key().section(u':', 0, 0) == instanceId) {
            if (it.value())
                it.value()->deleteLater();
            it = m_forwards.erase(it);
        } else {
            ++it;
        }
    }
}

void SshActions::openApp(const std::optional<Instance> &instance, const QString &appName)
{
    if (!instance)
        return Q_EMIT message(tr("That instance is no longer there."), true);
    if (instance->state != core::InstanceState::Running || !instance->ssh)
        return Q_EMIT message(tr("“%1” is not running.").arg(instance->name), true);
    for (const core::InstanceApp &app : instance->apps) {
        if (app.name == appName)
            return openApp(*instance, app);
    }
    Q_EMIT message(tr("“%1” has no app called “%2”.").arg(instance->name, appName), true);
}

void SshActions::openApp(const Instance &instance, const core::InstanceApp &app)
{
    const QString key = u"%1:%2"_s.arg(instance.id).arg(app.port);
    if (core::SshPortForward *forward = m_forwards.value(key); forward && forward->localPort()) {
        return handToBrowser(app, core::SshPortForward::appUrl(app, forward->localPort()));
    }
    resolveTarget(instance, [this, app, key](const SshTarget &resolved, const QString &error) {
        if (!error.isEmpty())
            return Q_EMIT message(error, true);
        core::SecretReply *secret = m_keys->passphrase(m_keys->key(resolved.keyFingerprint));
        auto start = [this, app, key](SshTarget target, const QString &passphrase) {
            target.passphrase = passphrase;
            auto *forward = new core::SshPortForward(target, app.port, this);
            m_forwards.insert(key, forward);
            connect(forward, &core::SshPortForward::listening, this, [this, app](quint16 port) {
                handToBrowser(app, core::SshPortForward::appUrl(app, port));
            });
            connect(forward, &core::SshPortForward::failed, this,
                    [this, forward, key](const QString &reason) {
                        if (m_forwards.value(key) == forward)
                            m_forwards.remove(key);
                        forward->deleteLater();
                        Q_EMIT message(reason, true);
                    });
            forward->start();
        };
        if (!secret)
            return start(resolved, {});
        connect(secret, &core::SecretReply::finished, this, [secret, resolved, start] {
            start(resolved, secret->ok() ? secret->secret() : QString());
        });
    });
}

void SshActions::handToBrowser(const core::InstanceApp &app, const QUrl &url)
{
    if (!m_openBrowser) {
        Q_EMIT message(tr("%1 is ready (through SSH).").arg(app.name), false);
        return Q_EMIT appOpened(url);
    }
    // Through a page only this user can read: the browser's command line shows no token.
    const core::AppOpener::Outcome opened = m_opener->open(url);
    if (opened.opened) {
        Q_EMIT message(tr("%1 opened in the browser (through SSH).").arg(app.name), false);
    } else {
        Q_EMIT message(tr("No browser opened for %1: %2").arg(app.name, opened.error), true);
        showAddress(app, url);
    }
    Q_EMIT appOpened(url);
}

void SshActions::showAddress(const core::InstanceApp &app, const QUrl &url)
{
    // In the window, to copy from: never on a command line.
    QMessageBox *box = Notice::create(
        m_window, Notice::Kind::Information, tr("Open %1").arg(app.name),
        tr("No browser could be started: open the address under Show Details yourself."),
        tr("%1\n\nIt holds the app's token; it works while CardHour runs.")
            .arg(url.toString(QUrl::FullyEncoded)),
        QMessageBox::Close);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    box->open();
}

} // namespace cardhour::ui
