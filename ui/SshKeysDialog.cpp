#include "SshKeysDialog.h"

#include "pages/KeysPage.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

SshKeysDialog::SshKeysDialog(core::SshKeyStore *keys, core::ClientSession *session, QWidget *parent)
    : QDialog(parent), m_page(new KeysPage(keys, session, this))
{
    setObjectName(u"sshKeysDialog"_s);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_page);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->setObjectName(u"buttonBox"_s);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_page, &KeysPage::keysChanged, this, &SshKeysDialog::keysChanged);
    resize(720, 420);
    setWindowTitle(tr("SSH keys"));
}

void SshKeysDialog::reload()
{
    m_page->reload();
}

QString SshKeysDialog::statusText() const
{
    return m_page->statusText();
}

void SshKeysDialog::setHomeDir(const QString &dir)
{
    m_page->setHomeDir(dir);
}

void SshKeysDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        setWindowTitle(tr("SSH keys"));
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
