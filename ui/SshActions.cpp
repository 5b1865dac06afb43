#include "SshActions.h"

#include "Notice.h"
#include "TerminalTab.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/AppOpener.h"
#include "ssh/SshAccess.h"
#include "ssh/SshAgent.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshConnection.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshPortForward.h"

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::SshConfigWriter;
using core::SshTarget;

SshActions::SshActions(core::ClientSession *session, core::SecretStore *secrets, QTabWidget *tabs,
                       const QString &keyFolder, const QString &knownHostsPath,
                       const QString &sshConfigPath, QWidget *window,
                       const core::AppOpener::Launcher &browser)
    : QObject(window), m_session(session), m_keys(new core::SshKeyStore(secrets, keyFolder, this)),
      m_tabs(tabs),
      m_knownHostsPath(knownHostsPath.isEmpty() ? SshConfigWriter::defaultKnownHostsPath()
                                                : knownHostsPath),
      m_sshConfigPath(sshConfigPath.isEmpty() ? QDir::home().filePath(u".ssh/config"_s)
                                              : sshConfigPath),
      m_opener(
          new core::AppOpener(browser ? browser : core::AppOpener::systemLauncher(), {}, this)),
      m_agent(new core::SshAgent(this)), m_window(window)
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
        // The terminal's ssh finds the key in the agent instead of asking its passphrase.
        withKeyInAgent(target, [this, command, name = target.instanceName](const QString &note) {
            startSystemTerminal(command, name, note);
        });
    });
}

void SshActions::startSystemTerminal(const QStringList &command, const QString &instanceName,
                                     const QString &note)
{
    QProcess process;
    process.setProgram(command.constFirst());
    process.setArguments(command.mid(1));
#ifdef Q_OS_WIN
    // A console of its own for ssh.exe started from this GUI program (no cmd /c start).
    process.setCreateProcessArgumentsModifier([](QProcess::CreateProcessArguments *arguments) {
        arguments->flags |= 0x00000010; // CREATE_NEW_CONSOLE
    });
#endif
    if (!process.startDetached())
        return Q_EMIT message(tr("%1 could not be started.").arg(command.constFirst()), true);
    Q_EMIT message(tr("Opened %1 with ssh to “%2”.").arg(command.constFirst(), instanceName) + note,
                   false);
}

void SshActions::addToSshConfig(const Instance &instance)
{
    resolveTarget(instance, [this](const SshTarget &target, const QString &error) {
        if (!error.isEmpty())
            return Q_EMIT message(error, true);
        QString writeError;
        if (!SshConfigWriter::addToConfig(m_sshConfigPath, target, m_knownHostsPath, &writeError))
            return Q_EMIT message(writeError, true);
        const QString done = tr("Added to %1: connect with “ssh %2”.")
                                 .arg(QDir::toNativeSeparators(m_sshConfigPath),
                                      SshConfigWriter::hostAlias(target.instanceName));
        withKeyInAgent(target,
                       [this, done](const QString &note) { Q_EMIT message(done + note, false); });
    });
}

void SshActions::copySshCommand(const Instance &instance)
{
    m_session->sshKeys()->onFinished(
        this, [this, instance](const core::Reply<QList<core::SshKey>> &r) {
            if (!r.ok())
                return Q_EMIT message(r.error().userMessage(), true);
            QString error;
            SshTarget target;
            const QString command = core::SshAccess::copiedCommand(
                instance, r.value(), m_keys->keys(), m_knownHostsPath, &error, &target);
            if (command.isEmpty())
                return Q_EMIT message(error, true);
            QGuiApplication::clipboard()->setText(command);
            withKeyInAgent(target, [this, command](const QString &note) {
                Q_EMIT message(tr("Copied: %1").arg(command) + note, false);
            });
        });
}

void SshActions::withKeyInAgent(const SshTarget &target, AgentStep then)
{
    const core::SshKeyPair key = m_keys->key(target.keyFingerprint);
    QString encrypted;
    if (key.isValid() && key.checkPrivateKey({}, &encrypted))
        return then({}); // no passphrase: ssh needs nothing more (nor the keychain)
    core::SecretReply *secret = key.isValid() ? m_keys->passphrase(key) : nullptr;
    if (!secret) // a key kept elsewhere: ssh offers the user's own keys and agent
        return then({});
    connect(secret, &core::SecretReply::finished, this, [this, secret, key, then] {
        if (secret->status() == core::SecretReply::Status::NotFound)
            return then({}); // no passphrase: ssh needs nothing more
        if (!secret->ok()) {
            then({});
            return showAgentProblem(secret->reason(), {});
        }
        const QString passphrase = secret->secret();
        m_agent->addKey(key.privatePath(), passphrase, this,
                        [this, then, passphrase](const core::SshAgent::Outcome &outcome) {
                            if (outcome.result != core::SshAgent::Result::Added) {
                                then({});
                                return showAgentProblem(outcome.error, passphrase);
                            }
                            then(u' '
                                 + tr("Its key is in your ssh-agent now, so ssh in a terminal "
                                      "asks for no passphrase."));
                        });
    });
}

void SshActions::showAgentProblem(const QString &why, const QString &passphrase)
{
    QMessageBox *box = Notice::create(
        m_window, Notice::Kind::Warning, tr("ssh will ask for a passphrase"),
        passphrase.isEmpty()
            ? tr("Start an ssh-agent (eval \"$(ssh-agent)\" in your shell, before CardHour "
                 "starts) and try again.")
            : tr("Start an ssh-agent (eval \"$(ssh-agent)\" in your shell, before CardHour "
                 "starts) and try again, or copy the passphrase and paste it when ssh asks "
                 "for it."),
        tr("The key's passphrase is kept in your keychain, and the key could not be added to an "
           "ssh-agent.")
            + u"\n\n"_s + why,
        QMessageBox::Close);
    box->setObjectName(u"sshAgentProblem"_s);
    if (!passphrase.isEmpty()) {
        QPushButton *copy = box->addButton(tr("Copy passphrase"), QMessageBox::ActionRole);
        copy->setObjectName(u"copyPassphraseButton"_s);
        connect(copy, &QPushButton::clicked, this, [this, passphrase] {
            QGuiApplication::clipboard()->setText(passphrase);
            Q_EMIT message(tr("The key's passphrase is on the clipboard: paste it when ssh asks."),
                           false);
        });
    }
    box->open();
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

void SshActions::closeAllForwards()
{
    for (const QPointer<core::SshPortForward> &forward : std::as_const(m_forwards)) {
        if (forward)
            forward->deleteLater();
    }
    m_forwards.clear();
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
    // Through a page only this user can read: the browser's command line shows no token. The
    // window goes on while the desktop looks for a browser.
    Q_EMIT message(tr("Opening %1 in the browser…").arg(app.name), false);
    m_opener->open(url, [this, app, url](const core::AppOpener::Outcome &opened) {
        if (!opened.opened) {
            Q_EMIT message(tr("No browser opened for %1: %2").arg(app.name, opened.error), true);
            return showAddress(app, url);
        }
        Q_EMIT message(tr("%1 opened in the browser (through SSH).").arg(app.name), false);
        Q_EMIT appOpened(url);
    });
}

void SshActions::showAddress(const core::InstanceApp &app, const QUrl &url)
{
    // In the window, to copy from: never on a command line.
    const QString address = url.toString(QUrl::FullyEncoded);
    QMessageBox *box = Notice::create(
        m_window, Notice::Kind::Information, tr("No browser could open %1").arg(app.name), address,
        tr("Open this address yourself: it holds the app's token, and it works while CardHour "
           "runs."),
        QMessageBox::Close);
    box->setObjectName(u"appAddressDialog"_s);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QPushButton *copy = box->addButton(tr("Copy address"), QMessageBox::ActionRole);
    copy->setObjectName(u"copyAddressButton"_s);
    connect(copy, &QPushButton::clicked, this, [this, address, name = app.name] {
        QGuiApplication::clipboard()->setText(address);
        Q_EMIT message(tr("The address of %1 is on the clipboard.").arg(name), false);
    });
    box->open();
}

} // namespace cardhour::ui
