#pragma once

#include "api/Models.h"

#include <QDialog>

#include <memory>
#include <optional>

namespace Ui {
class TopUpDialog;
}

namespace cardhour::core {
class BillTicker;
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

// Sandbox top-up (POST /v1/billing/topup): a simulated payment, said so on the form. The amount
// is checked as it is typed (yuan with at most two decimals, 0.01 to 100 000) and read into
// micro-yuan without a float; the provider's refusal (e.g. the balance limit) is shown in words
// and the typed amount stays. A retry after a failure reuses the idempotency key, so a payment
// that went through but whose answer was lost is not made twice.
class TopUpDialog : public QDialog
{
    Q_OBJECT
public:
    // Neither is owned; `ticker` (may be null) shows the balance now.
    TopUpDialog(core::ClientSession *session, core::BillTicker *ticker, QWidget *parent = nullptr);
    ~TopUpDialog() override;

    void setAmountText(const QString &text);
    // The typed amount in micro-yuan; unset when it is not a valid amount.
    std::optional<qint64> amountMicros() const;
    bool isBusy() const { return m_busy; }

    // "12.5" → 12 500 000; unset for anything but plain digits with an optional point and at
    // most `maxDecimals` decimals (a comma also counts as the point).
    static std::optional<qint64> parseYuan(const QString &text, int maxDecimals = 2);
    static constexpr qint64 kMinMicros = 10'000; // 0.01 yuan (the provider's minimum)
    static constexpr qint64 kMaxMicros = 100'000'000'000; // 100 000 yuan (its maximum)

Q_SIGNALS:
    // The provider took it; the dialog closes.
    void toppedUp(const cardhour::core::TopupResult &result);

protected:
    void changeEvent(QEvent *event) override;

private:
    void validate();
    void submit();
    void retranslate();

    std::unique_ptr<Ui::TopUpDialog> m_ui;
    core::ClientSession *m_session;
    core::BillTicker *m_ticker;
    QString m_idempotencyKey; // of the last failed attempt, for the same amount
    qint64 m_keyAmountMicros = 0;
    bool m_busy = false;
};

} // namespace cardhour::ui
