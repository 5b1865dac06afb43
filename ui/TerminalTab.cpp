#include "TerminalTab.h"

#include "Format.h"
#include "TerminalWidget.h"
#include "TransferBar.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/SshKeyChoice.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshShell.h"
#include "ssh/SshTarget.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceState;
using core::SshKeyPair;

TerminalTab::TerminalTab(core::ClientSession *session, core::SshKeyStore *keys,
                         const Instance &instance, QWidget *parent)
    : QWidget(parent), m_session(session), m_keys(keys), m_instanceId(instance.id),
      m_instanceName(instance.name.isEmpty() ? instance.id : instance.name),
      m_terminal(new terminal::TerminalWidget(this)), m_banner(new QWidget(this)),
      m_statusLabel(new QLabel(m_banner)), m_reconnectButton(new QPushButton(m_banner)),
      m_transfers(new TransferBar(this))
{
    setObjectName(u"terminalTab"_s);
    m_terminal->setObjectName(u"terminalWidget"_s);
    m_banner->setObjectName(u"terminalBanner"_s);
    m_statusLabel->setObjectName(u"terminalStatus"_s);
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reconnectButton->setObjectName(u"reconnectButton"_s);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_statusLabel, 1);
    bannerLayout->addWidget(m_reconnectButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_terminal, 1);
    layout->addWidget(m_transfers);
    setFocusProxy(m_terminal);
    setAcceptDrops(true); // the terminal itself takes none: drops land here

    connect(m_reconnectButton, &QPushButton::clicked, this, &TerminalTab::reconnect);
    connect(m_terminal, &terminal::TerminalWidget::titleChanged, this,
            [this](const QString &remote) {
                m_remoteTitle = remote;
                Q_EMIT titleChanged(title());
            });
    // The widget lives longer than any one shell: input and size go to whichever is open.
    connect(m_terminal, &terminal::TerminalWidget::inputTyped, this, [this](const QByteArray &b) {
        if (m_shell && m_shell->isOpen())
            m_shell->sendInput(b);
    });
    connect(m_terminal, &terminal::TerminalWidget::sizeChanged, this, [this](int cols, int rows) {
        if (m_shell && m_shell->isOpen())
            m_shell->resize(cols, rows);
    });
    retranslate();
}

TerminalTab::~TerminalTab()
{
    delete m_shell; // closes the connection and joins its thread
}

QString TerminalTab::title() const
{
    return m_remoteTitle.isEmpty() ? m_instanceName
                                   : tr("%1 — %2").arg(m_instanceName, m_remoteTitle);
}

bool TerminalTab::isConnected() const
{
    return m_shell && m_shell->isOpen();
}

QString TerminalTab::statusText() const
{
    return m_banner->isHidden() ? QString() : m_statusLabel->text();
}

void TerminalTab::reconnect()
{
    const int attempt = ++m_attempt;
    delete m_shell;
    m_shell = nullptr;
    m_connectClock.start();
    m_steps = {};
    showStatus(tr("Connecting to “%1”…").arg(m_instanceName), false);
    // The address and host key as the provider says now (a restarted instance may have moved),
    // and the account's keys: both asked for at once, the key chosen once both have answered.
    auto found = std::make_shared<std::optional<Instance>>();
    auto accountKeys = std::make_shared<std::optional<QList<core::SshKey>>>();
    const auto bothKnown = [this, attempt, found, accountKeys] {
        if (attempt == m_attempt && *found && *accountKeys)
            chooseKey(**found, **accountKeys);
    };
    // The first problem is the one said: the other answer of this attempt is then ignored.
    const auto giveUp = [this](const QString &reason) {
        ++m_attempt;
        fail(reason);
    };
    m_session->fetchInstance(m_instanceId)
        ->onFinished(
            this, [this, attempt, found, bothKnown, giveUp](const core::Reply<Instance> &r) {
                if (attempt != m_attempt)
                    return;
                if (!r.ok())
                    return giveUp(r.error().userMessage());
                m_steps.instanceKnown = m_connectClock.elapsed();
                const Instance &instance = r.value();
                m_instanceName = instance.name.isEmpty() ? instance.id : instance.name;
                if (instance.state != InstanceState::Running || !instance.ssh
                    || instance.ssh->port <= 0) {
                    return giveUp(tr("“%1” is not running (%2): start it, then reconnect.")
                                      .arg(m_instanceName,
                                           Format::state(instance.state, instance.stateText)));
                }
                *found = instance;
                bothKnown();
            });
    m_session->sshKeys()->onFinished(
        this,
        [this, attempt, accountKeys, bothKnown, giveUp](const core::Reply<QList<core::SshKey>> &r) {
            if (attempt != m_attempt)
                return;
            if (!r.ok())
                return giveUp(r.error().userMessage());
            *accountKeys = r.value();
            bothKnown();
        });
}

void TerminalTab::chooseKey(const Instance &instance, const QList<core::SshKey> &accountKeys)
{
    if (!m_keys)
        return fail(tr("There is no SSH key store."));
    const core::SshKeyChoice choice =
        core::SshKeyChoice::choose(instance, accountKeys, m_keys->keys());
    if (!choice.key.isValid())
        return fail(choice.missing);
    m_steps.keyChosen = m_connectClock.elapsed();
    core::SecretReply *secret = m_keys->passphrase(choice.key);
    if (!secret) {
        m_steps.passphraseRead = m_steps.keyChosen;
        return openShell(instance, choice.key, {});
    }
    const int attempt = m_attempt;
    connect(secret, &core::SecretReply::finished, this,
            [this, attempt, secret, instance, key = choice.key] {
                if (attempt != m_attempt)
                    return;
                m_steps.passphraseRead = m_connectClock.elapsed();
                // NotFound: the key has no passphrase. Without a keychain, an encrypted key
                // fails to open and the shell says so.
                openShell(instance, key, secret->ok() ? secret->secret() : QString());
            });
}

void TerminalTab::openShell(const Instance &instance, const SshKeyPair &key,
                            const QString &passphrase)
{
    core::SshTarget target = core::SshTarget::fromInstance(instance, key, passphrase);
    if (m_keys)
        target.unlockedKey = m_keys->unlocked(key);
    m_shell = new core::SshShell(target);
    core::SshShell *shell = m_shell;
    connect(shell, &core::SshShell::output, m_terminal, &terminal::TerminalWidget::feed);
    connect(shell, &core::SshShell::opened, this, [this, shell] {
        if (shell != m_shell)
            return;
        m_steps.shellOpened = m_connectClock.elapsed();
        m_banner->hide();
        // The widget may have changed size while connecting.
        m_shell->resize(m_terminal->columns(), m_terminal->rows());
        m_terminal->setFocus();
        Q_EMIT connected();
    });
    connect(shell, &core::SshShell::closed, this, [this, shell](const QString &reason) {
        if (shell == m_shell)
            fail(reason);
    });
    shell->open(m_terminal->columns(), m_terminal->rows());
}

void TerminalTab::fail(const QString &reason)
{
    showStatus(reason, true);
    Q_EMIT disconnected(reason);
}

void TerminalTab::showStatus(const QString &text, bool canReconnect)
{
    m_statusLabel->setText(text);
    m_reconnectButton->setVisible(canReconnect);
    m_banner->show();
}

bool TerminalTab::uploadFiles(const QStringList &localPaths)
{
    if (!isConnected() || localPaths.isEmpty())
        return false;
    m_transfers->upload(m_shell->target(), localPaths);
    return true;
}

bool TerminalTab::download(const QString &remotePath, const QString &localDir)
{
    if (!isConnected() || remotePath.isEmpty() || localDir.isEmpty())
        return false;
    m_transfers->download(m_shell->target(), remotePath, localDir);
    return true;
}

void TerminalTab::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool files = !urls.isEmpty()
        && std::all_of(urls.cbegin(), urls.cend(),
                       [](const QUrl &url) { return url.isLocalFile(); });
    if (files && isConnected())
        event->acceptProposedAction();
}

void TerminalTab::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (uploadFiles(paths))
        event->acceptProposedAction();
}

void TerminalTab::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void TerminalTab::retranslate()
{
    m_reconnectButton->setText(tr("&Reconnect"));
}

} // namespace cardhour::ui
