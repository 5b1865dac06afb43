#pragma once

#include "AppSettings.h"
#include "api/SpendingModels.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class BillPanel;
class BillingPage;
class LedgerView;
class TopUpDialog;
class TrayNotifier;

// The money side of the window, with one owner: the bill panel, the Billing page (ledger,
// statements, limits, comparison), the top-up dialog, the tray with its runway warnings, and the
// provider's warnings before it stops a host by itself. Like Konsole's ViewManager it owns a
// group of views and what acts on them; the window puts the views in place, calls in from its
// actions (MainWindow.ui) and shows what it says (message()). It follows the ClientSession's
// bill: whatever moves the balance refreshes every view of it.
class BillingController : public QObject
{
    Q_OBJECT
public:
    // `window`: the parent of the controller, its dialogs and the tray's "show window".
    BillingController(core::ClientSession *session, QWidget *window);

    TrayNotifier *trayNotifier() const { return m_tray; }
    // The bill panel at the top of the dashboard (made once).
    BillPanel *createBillPanel(QWidget *parent);
    // The Billing page; `settings` gives the comparison's remembered figures (remembered()).
    BillingPage *createPage(const AppSettings &settings, QWidget *parent);
    LedgerView *ledgerView() const; // null until the page is built
    // Whether the Billing page is the one shown: its ledger then follows every move of the bill.
    void setPageShown(bool shown);
    // The ledger again (the page shown, Refresh), with the names of every instance seen.
    void reloadLedger();
    void openTopUpDialog();
    void retranslate();

Q_SIGNALS:
    // For the status bar, shown for `timeoutMs`.
    void message(const QString &text, int timeoutMs);
    // The tray's entry of a host: show it.
    void hostRequested(const QString &instanceId);
    void quitRequested();
    // The comparison's figures changed: to be kept with the settings.
    void remembered(const cardhour::core::CostInputs &inputs, const QString &gpuType, int cards,
                    int hours);

private:
    void connectStopWarnings();
    void showStopWarning(const core::StopWarning &warning);
    void showInterruptionNotice(const core::InterruptionNotice &notice);
    void keepRunning(const QString &instanceId);
    void onBillMoved();
    void updateLedgerNames();

    core::ClientSession *m_session;
    QWidget *m_window;
    TrayNotifier *m_tray;
    BillPanel *m_billPanel = nullptr;
    QPointer<LedgerView> m_ledgerView;
    QPointer<TopUpDialog> m_topUpDialog;
    bool m_pageShown = false;
};

} // namespace cardhour::ui
