#pragma once

#include "AppSettings.h"

#include <QWidget>

class QTabWidget;

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

class CostCalculator;
class LedgerView;
class SpendingLimitsPanel;
class StatementPanel;

// The Billing page: the ledger, the monthly statements built from the postings the ledger
// loaded (in the provider's time zone once the spending limits name it), the spending limits
// and the cost comparison, as four tabs. The calculator's figures come from and go
// back to the settings (remembered()).
class BillingPage : public QWidget
{
    Q_OBJECT
public:
    BillingPage(core::ClientSession *session, const AppSettings &settings,
                QWidget *parent = nullptr);

    LedgerView *ledger() const { return m_ledger; }
    StatementPanel *statements() const { return m_statements; }
    SpendingLimitsPanel *limits() const { return m_limits; }
    CostCalculator *calculator() const { return m_calculator; }
    QTabWidget *tabs() const { return m_tabs; }
    // Loads the ledger and the limits again, and the catalog and instances for the comparison.
    void reload();

Q_SIGNALS:
    // The calculator's figures changed: `settings` with them, to be kept.
    void remembered(const cardhour::core::CostInputs &inputs, const QString &gpuType, int cards,
                    int hours);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QTabWidget *m_tabs;
    LedgerView *m_ledger;
    StatementPanel *m_statements;
    SpendingLimitsPanel *m_limits;
    CostCalculator *m_calculator;
};

} // namespace cardhour::ui
