#include "TopUpDialog.h"

#include "Format.h"
#include "StateStyle.h"
#include "billing/BillTicker.h"
#include "billing/Money.h"
#include "session/ClientSession.h"
#include "theme/Design.h"
#include "ui_TopUpDialog.h"

#include <QEvent>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

TopUpDialog::TopUpDialog(ClientSession *session, BillTicker *ticker, QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::TopUpDialog>()), m_session(session),
      m_ticker(ticker)
{
    m_ui->setupUi(this);
    StateStyle::showAsError(m_ui->errorLabel);
    setObjectName(u"topUpDialog"_s);
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setObjectName(u"topUpButton"_s);
    Design::setPrimary(m_ui->buttonBox->button(QDialogButtonBox::Ok));
    connect(m_ui->amountEdit, &QLineEdit::textChanged, this, &TopUpDialog::validate);
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &TopUpDialog::submit);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
}

TopUpDialog::~TopUpDialog() = default;

std::optional<qint64> TopUpDialog::parseYuan(const QString &text, int maxDecimals)
{
    return Money::parseYuan(text, maxDecimals);
}

void TopUpDialog::setAmountText(const QString &text)
{
    m_ui->amountEdit->setText(text);
}

std::optional<qint64> TopUpDialog::amountMicros() const
{
    const auto micros = parseYuan(m_ui->amountEdit->text());
    if (!micros || *micros < kMinMicros || *micros > kMaxMicros)
        return std::nullopt;
    return micros;
}

void TopUpDialog::validate()
{
    const QString text = m_ui->amountEdit->text().trimmed();
    const auto micros = parseYuan(text);
    QString hint;
    if (text.isEmpty())
        hint = tr("Enter an amount in yuan.");
    else if (!micros)
        hint = tr("Write the amount as a number of yuan with at most two decimals, e.g. 12.50.");
    else if (*micros < kMinMicros)
        hint = tr("The smallest top-up is %1.").arg(Format::money(kMinMicros));
    else if (*micros > kMaxMicros)
        hint = tr("The largest top-up is %1.").arg(Format::money(kMaxMicros, 0));
    else
        hint = tr("%1 will be added to your balance.").arg(Format::money(*micros));
    m_ui->hintLabel->setText(hint);
    if (m_ticker && m_ticker->hasData())
        m_ui->balanceLabel->setText(Format::money(m_ticker->balanceMicros()));
    else
        m_ui->balanceLabel->setText(tr("unknown"));
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setEnabled(!m_busy && amountMicros());
    m_ui->amountEdit->setEnabled(!m_busy);
}

void TopUpDialog::submit()
{
    const auto micros = amountMicros();
    if (!micros || m_busy)
        return;
    m_busy = true;
    m_ui->errorLabel->clear();
    validate();
    // The same amount again after a failure is the same payment: same key.
    const QString key = *micros == m_keyAmountMicros ? m_idempotencyKey : QString();
    m_session->topUp(*micros, key)
        ->onFinished(this, [this, micros](const Reply<TopupResult> &reply) {
            m_busy = false;
            if (reply.ok()) {
                m_idempotencyKey.clear();
                Q_EMIT toppedUp(reply.value());
                accept();
                return;
            }
            m_idempotencyKey = reply.idempotencyKey();
            m_keyAmountMicros = *micros;
            m_ui->errorLabel->setText(
                tr("The provider refused the top-up: %1").arg(reply.error().userMessage()));
            validate();
        });
}

void TopUpDialog::retranslate()
{
    m_ui->retranslateUi(this);
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setText(tr("Top &up"));
    validate();
}

void TopUpDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
