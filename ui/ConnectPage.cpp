#include "ConnectPage.h"

#include "ui_ConnectPage.h"

#include <QEvent>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

ConnectPage::ConnectPage(QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::ConnectPage>())
{
    m_ui->setupUi(this);
    connect(m_ui->urlRadio, &QRadioButton::toggled, m_ui->urlEdit, &QLineEdit::setEnabled);
    connect(m_ui->urlRadio, &QRadioButton::toggled, this, &ConnectPage::validate);
    connect(m_ui->urlEdit, &QLineEdit::textChanged, this, &ConnectPage::validate);
    connect(m_ui->urlEdit, &QLineEdit::returnPressed, this, &ConnectPage::onConnect);
    connect(m_ui->connectButton, &QPushButton::clicked, this, &ConnectPage::onConnect);
    validate();
}

ConnectPage::~ConnectPage() = default;

QUrl ConnectPage::enteredUrl() const
{
    const QString text = m_ui->urlEdit->text().trimmed();
    return QUrl::fromUserInput(text.isEmpty() ? m_ui->urlEdit->placeholderText() : text);
}

void ConnectPage::validate()
{
    QString problem;
    if (m_ui->urlRadio->isChecked()) {
        const QUrl url = enteredUrl();
        if (!url.isValid() || (url.scheme() != u"http"_s && url.scheme() != u"https"_s)
            || url.host().isEmpty())
            problem = tr("Enter an http:// or https:// address.");
    }
    m_ui->urlHint->setText(problem);
    m_ui->connectButton->setEnabled(problem.isEmpty() && !m_ui->progressBar->isVisible());
}

void ConnectPage::onConnect()
{
    if (!m_ui->connectButton->isEnabled())
        return;
    if (m_ui->sandboxRadio->isChecked())
        Q_EMIT sandboxRequested();
    else
        Q_EMIT urlRequested(enteredUrl());
}

void ConnectPage::setBusy(bool busy, const QString &message)
{
    m_ui->progressBar->setVisible(busy);
    m_ui->progressLabel->setText(message);
    m_ui->choiceBox->setEnabled(true);
    m_ui->sandboxRadio->setEnabled(!busy);
    m_ui->urlRadio->setEnabled(!busy);
    m_ui->urlEdit->setEnabled(!busy && m_ui->urlRadio->isChecked());
    validate();
}

void ConnectPage::setProblem(const QString &message)
{
    setBusy(false, message);
}

void ConnectPage::setUrl(const QUrl &url)
{
    m_ui->urlRadio->setChecked(true);
    m_ui->urlEdit->setText(url.toString());
}

void ConnectPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        validate();
    }
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
