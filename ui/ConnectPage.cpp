#include "ConnectPage.h"

#include "AfterPaint.h"
#include "Icons.h"
#include "ImagePreparation.h"
#include "StateStyle.h"
#include "api/ProviderUrl.h"
#include "sandbox/SandboxImages.h"
#include "theme/Design.h"
#include "ui_ConnectPage.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

ConnectPage::ConnectPage(QWidget *parent) : ConnectPage(nullptr, parent) {}

ConnectPage::ConnectPage(const core::SandboxLauncher *launcher, QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::ConnectPage>())
{
    m_ui->setupUi(this);
    // The content scrolls in a small window instead of squeezing its wrapped lines.
    m_ui->content->setBackgroundRole(QPalette::Window);
    StateStyle::showAsError(m_ui->urlHint);
    // A column of readable width in the middle of the window, under the application's icon,
    // with a button of button size rather than a bar across the screen.
    auto *icon = new QLabel(this);
    icon->setObjectName(u"appIcon"_s);
    icon->setPixmap(Icons::application().pixmap(QSize(96, 96)));
    icon->setAlignment(Qt::AlignCenter);
    m_ui->outerLayout->insertWidget(1, icon);
    m_ui->choiceBox->setMinimumWidth(460);
    m_ui->choiceBox->setMaximumWidth(620);
    // Centred by stretches, not by alignment: an aligned item gets its size hint's height, which
    // cut a wrapped problem (a malformed URL's) after its first line.
    const int choiceIndex = m_ui->outerLayout->indexOf(m_ui->choiceBox);
    m_ui->outerLayout->removeWidget(m_ui->choiceBox);
    auto *choiceRow = new QHBoxLayout;
    choiceRow->addStretch(1);
    choiceRow->addWidget(m_ui->choiceBox, 100);
    choiceRow->addStretch(1);
    m_ui->outerLayout->insertLayout(choiceIndex, choiceRow);
    m_ui->choiceLayout->removeWidget(m_ui->connectButton);
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addStretch(1);
    m_ui->connectButton->setMinimumWidth(140);
    Design::setPrimary(m_ui->connectButton);
    Design::setTextRole(m_ui->titleLabel, TextRole::PageTitle);
    buttonRow->addWidget(m_ui->connectButton);
    m_ui->choiceLayout->insertLayout(m_ui->choiceLayout->indexOf(m_ui->progressBar), buttonRow);
    connect(m_ui->urlRadio, &QRadioButton::toggled, m_ui->urlEdit, &QLineEdit::setEnabled);
    connect(m_ui->urlRadio, &QRadioButton::toggled, this, &ConnectPage::validate);
    connect(m_ui->urlEdit, &QLineEdit::textChanged, this, &ConnectPage::validate);
    connect(m_ui->urlEdit, &QLineEdit::returnPressed, this, &ConnectPage::onConnect);
    connect(m_ui->connectButton, &QPushButton::clicked, this, &ConnectPage::onConnect);
    if (launcher) {
        m_images = new core::SandboxImages(launcher, this);
        m_ui->choiceBox->installEventFilter(this); // the panel as wide as the choice above it
        // In a row of its own (not an aligned item): its wrapped lines get the height they
        // need for the width they have. The panel itself is built at the first look, after
        // the first frame (it is hidden until the look finds something to say); the row,
        // with nothing shown in it, takes no room until then.
        m_preparationRow = new QHBoxLayout;
        m_preparationRow->addStretch(1);
        m_preparationRow->addStretch(1);
        m_ui->outerLayout->insertLayout(choiceIndex + 1, m_preparationRow);
        connect(m_ui->sandboxRadio, &QRadioButton::toggled, this, &ConnectPage::updatePreparation);
        // The image check runs cardhour-sim (and podman): after the page's frame, not before.
        // The content paints (it covers the page in its scroll area), so it is the one watched.
        m_afterPaint = new AfterPaint(m_ui->content, [this] {
            m_looked = true;
            updatePreparation();
        });
        // Back from a terminal where a fix was pasted (an image built by hand): look again.
        connect(qApp, &QGuiApplication::applicationStateChanged, this,
                [this](Qt::ApplicationState state) {
                    if (state == Qt::ApplicationActive && m_looked && isVisible())
                        updatePreparation();
                });
    }
    validate();
}

ConnectPage::~ConnectPage() = default;

bool ConnectPage::eventFilter(QObject *watched, QEvent *event)
{
    if (m_preparation && watched == m_ui->choiceBox && event->type() == QEvent::Resize)
        m_preparation->setFixedWidth(m_ui->choiceBox->width());
    return QWidget::eventFilter(watched, event);
}

void ConnectPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_afterPaint)
        m_afterPaint->arm();
}

ImagePreparation *ConnectPage::ensurePreparation()
{
    if (!m_preparation) {
        m_preparation = new ImagePreparation(m_images, this);
        // As wide as the choice (kept so by eventFilter once it is laid out).
        m_preparation->setFixedWidth(m_ui->choiceBox->isVisible()
                                         ? m_ui->choiceBox->width()
                                         : m_ui->choiceBox->minimumWidth());
        m_preparationRow->insertWidget(1, m_preparation, 0);
    }
    return m_preparation;
}

void ConnectPage::updatePreparation()
{
    if (!m_images)
        return;
    const bool sandbox = m_ui->sandboxRadio->isChecked() && m_images->usesContainers();
    if (!sandbox && !m_preparation)
        return; // nothing to show, nor to hide
    ensurePreparation()->setActive(sandbox);
    if (sandbox)
        m_preparation->refresh();
}

QUrl ConnectPage::enteredUrl(QString *problem) const
{
    const QString text = m_ui->urlEdit->text().trimmed();
    return core::ProviderUrl::parse(text.isEmpty() ? m_ui->urlEdit->placeholderText() : text,
                                    problem);
}

void ConnectPage::validate()
{
    QString problem;
    if (m_ui->urlRadio->isChecked())
        enteredUrl(&problem);
    m_ui->urlHint->setText(problem);
    m_ui->urlHint->setVisible(!problem.isEmpty());
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

void ConnectPage::setUrl(const QUrl &url, bool choose)
{
    if (choose)
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
