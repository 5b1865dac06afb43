#include "pages/KeysPage.h"

#include "EmptyState.h"
#include "Notice.h"
#include "session/ClientSession.h"
#include "ssh/SshKeyStore.h"
#include "theme/Design.h"
#include "ui_KeysPage.h"

#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::SshKeyPair;

KeysPage::KeysPage(core::SshKeyStore *keys, core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::KeysPage>()), m_keys(keys), m_session(session),
      m_homeDir(QDir::homePath())
{
    m_ui->setupUi(this);
    setObjectName(u"keysPage"_s);
    Design::setPrimary(m_ui->generateButton);
    Design::setTextRole(m_ui->introLabel, TextRole::Caption);
    connect(m_ui->generateButton, &QPushButton::clicked, this, &KeysPage::generate);
    connect(m_ui->nameEdit, &QLineEdit::returnPressed, this, &KeysPage::generate);
    connect(m_ui->importButton, &QPushButton::clicked, this, &KeysPage::importKey);
    connect(m_ui->uploadButton, &QPushButton::clicked, this, &KeysPage::upload);
    connect(m_ui->removeButton, &QPushButton::clicked, this, &KeysPage::removeKey);
    connect(m_ui->keyTree, &QTreeWidget::itemSelectionChanged, this, [this] {
        const bool any = selectedKey().isValid();
        m_ui->uploadButton->setEnabled(any);
        m_ui->removeButton->setEnabled(any);
    });
    m_ui->uploadButton->setEnabled(false);
    m_ui->removeButton->setEnabled(false);
    m_ui->emptyPage->setIcon(Icon::Keys);
    // One primary action per screen (Generate): the empty state's Import stays plain.
    Design::setButtonRole(m_ui->emptyPage->button(), ButtonRole::Secondary);
    connect(m_ui->emptyPage, &EmptyState::actionTriggered, this, &KeysPage::importKey);
    connect(m_session, &core::ClientSession::sshKeysChanged, this, [this] {
        if (isVisible())
            reload(); // hidden, it lists afresh when shown again
    });
}

KeysPage::~KeysPage() = default;

QString KeysPage::statusText() const
{
    return m_ui->statusLabel->text();
}

void KeysPage::setStatus(const QString &text)
{
    m_ui->statusLabel->setText(text);
}

void KeysPage::reload()
{
    fill();
    m_session->sshKeys()->onFinished(this, [this](const core::Reply<QList<core::SshKey>> &r) {
        if (!r.ok())
            return setStatus(r.error().userMessage());
        m_providerKeys = r.value();
        fill();
    });
}

void KeysPage::fill()
{
    const QString selected = selectedKey().fingerprintSha256();
    m_ui->keyTree->clear();
    for (const SshKeyPair &key : m_keys->keys()) {
        QString uploaded = tr("not uploaded");
        for (const core::SshKey &remote : std::as_const(m_providerKeys)) {
            if (remote.fingerprintSha256 == key.fingerprintSha256())
                uploaded = tr("uploaded as “%1”").arg(remote.name);
        }
        auto *item = new QTreeWidgetItem(m_ui->keyTree);
        const QString name =
            key.comment().isEmpty() ? QFileInfo(key.privatePath()).fileName() : key.comment();
        item->setText(0, name);
        item->setToolTip(0, QDir::toNativeSeparators(key.privatePath()));
        item->setText(1, key.type());
        item->setText(2, key.fingerprintSha256());
        item->setText(3, uploaded);
        item->setData(0, Qt::UserRole, key.fingerprintSha256());
        if (key.fingerprintSha256() == selected)
            item->setSelected(true);
    }
    for (int column = 0; column < m_ui->keyTree->columnCount(); ++column)
        m_ui->keyTree->resizeColumnToContents(column);
    const bool none = m_keys->keys().isEmpty();
    m_ui->keysStack->setCurrentWidget(none ? static_cast<QWidget *>(m_ui->emptyPage)
                                           : m_ui->listPage);
    m_ui->emptyPage->setTitle(tr("No SSH keys on this computer yet"));
    m_ui->emptyPage->setText(
        tr("The terminal logs in to an instance with a key kept here; the provider only ever "
           "gets its public half. Generate one below (a name is enough), or import a key you "
           "already have."));
    m_ui->emptyPage->setAction(tr("Import from ~/.ssh…"));
}

SshKeyPair KeysPage::selectedKey() const
{
    const QList<QTreeWidgetItem *> items = m_ui->keyTree->selectedItems();
    if (items.isEmpty())
        return {};
    return m_keys->key(items.constFirst()->data(0, Qt::UserRole).toString());
}

void KeysPage::generate()
{
    QString name = m_ui->nameEdit->text().trimmed();
    if (name.isEmpty())
        name = u"cardhour"_s;
    m_ui->generateButton->setEnabled(false);
    setStatus(tr("Generating an ed25519 key…"));
    core::SshKeyReply *reply = m_keys->generate(name, m_ui->passphraseEdit->text());
    connect(reply, &core::SshKeyReply::finished, this, [this, reply] {
        m_ui->generateButton->setEnabled(true);
        if (!reply->ok())
            return setStatus(reply->error());
        m_ui->nameEdit->clear();
        m_ui->passphraseEdit->clear();
        setStatus(tr("Generated %1. Upload it to launch instances with it.")
                      .arg(reply->key().fingerprintSha256()));
        fill();
        Q_EMIT keysChanged();
    });
}

void KeysPage::importKey()
{
    const QStringList candidates = core::SshKeyStore::importCandidates(m_homeDir);
    const QString start =
        candidates.isEmpty() ? QDir(m_homeDir).filePath(u".ssh"_s) : candidates.constFirst();
    auto *dialog =
        new QFileDialog(this, tr("Import a public key"), start, tr("Public keys (*.pub)"));
    dialog->setObjectName(u"importKeyDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        // The passphrase field doubles as the one of the imported key.
        core::SshKeyReply *reply = m_keys->importPublicKey(path, m_ui->passphraseEdit->text());
        connect(reply, &core::SshKeyReply::finished, this, [this, reply] {
            if (!reply->ok())
                return setStatus(reply->error());
            m_ui->passphraseEdit->clear();
            setStatus(tr("Imported %1.").arg(reply->key().fingerprintSha256()));
            fill();
            Q_EMIT keysChanged();
        });
    });
    dialog->open();
}

void KeysPage::upload()
{
    const SshKeyPair key = selectedKey();
    if (!key.isValid())
        return;
    const QString name =
        key.comment().isEmpty() ? QFileInfo(key.privatePath()).fileName() : key.comment();
    setStatus(tr("Uploading…"));
    m_session->uploadSshKey(key, name)->onFinished(
        this, [this](const core::Reply<core::SshKey> &r) {
            if (!r.ok())
                return setStatus(r.error().userMessage());
            // The session's sshKeysChanged() has asked for the provider's list again.
            setStatus(
                tr("Uploaded as “%1”: new instances can be launched with it.").arg(r.value().name));
            Q_EMIT keysChanged();
        });
}

void KeysPage::removeKey()
{
    const SshKeyPair key = selectedKey();
    if (!key.isValid())
        return;
    // A generated key's files go too, and instances launched with it cannot be reached without
    // it: ask first.
    QMessageBox *box = Notice::create(
        this, Notice::Kind::Warning, tr("Remove key"),
        tr("Instances that accept only this key can no longer be reached from here."),
        tr("Key: %1\n\nA key CardHour generated is deleted for good; an imported key stays in "
           "~/.ssh.")
            .arg(key.fingerprintSha256()),
        QMessageBox::Cancel);
    box->setObjectName(u"confirmRemoveKey"_s);
    QPushButton *yes = Notice::addAction(box, tr("Remove"), ButtonRole::Destructive);
    connect(box, &QMessageBox::buttonClicked, this, [this, yes, key](QAbstractButton *button) {
        if (button != yes)
            return;
        QString error;
        if (!m_keys->remove(key, &error))
            return setStatus(error);
        setStatus(tr("Removed %1 from this computer (the provider keeps its copy).")
                      .arg(key.fingerprintSha256()));
        fill();
        Q_EMIT keysChanged();
    });
    box->open();
}

void KeysPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_session->isLoggedIn())
        reload();
}

void KeysPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        fill();
    }
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
