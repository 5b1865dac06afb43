#include "BillingController.h"

#include "BillPanel.h"
#include "CostCalculator.h"
#include "Format.h"
#include "LedgerView.h"
#include "Notice.h"
#include "SpendingLimitsPanel.h"
#include "StopText.h"
#include "TopUpDialog.h"
#include "TrayNotifier.h"
#include "api/ProviderCodes.h"
#include "billing/BillTicker.h"
#include "pages/BillingPage.h"
#include "session/ClientSession.h"

#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

BillingController::BillingController(ClientSession *session, QWidget *window)
    : QObject(window), m_session(session), m_window(window),
      m_tray(new TrayNotifier(session->ticker(), session->alerts(), window))
{
    connect(m_tray, &TrayNotifier::quitRequested, this, &BillingController::quitRequested);
    // Without a tray the same sentence goes to the status bar, so it is never lost.
    connect(m_tray, &TrayNotifier::notified, this,
            [this](const QString &title, const QString &text) {
                Q_EMIT message(title + u": "_s + text, 30000);
            });
    connect(m_tray, &TrayNotifier::hostRequested, this, &BillingController::hostRequested);
    connect(session->ticker(), &BillTicker::balanceChanged, m_tray, &TrayNotifier::refresh);
    connect(session, &ClientSession::billMoved, this, &BillingController::onBillMoved);
    connect(session, &ClientSession::resetForUser, this, [this] {
        if (m_ledgerView)
            m_ledgerView->clear();
    });
    // Terminated instances leave the list but stay in the ledger: the session keeps their names.
    connect(session, &ClientSession::instancesLoaded, this, &BillingController::updateLedgerNames);
    connect(session, &ClientSession::instanceChanged, this, &BillingController::updateLedgerNames);
    connectStopWarnings();
}

BillPanel *BillingController::createBillPanel(QWidget *parent)
{
    if (!m_billPanel) {
        m_billPanel = new BillPanel(m_session->ticker(), parent);
        m_billPanel->setTimeZone(m_session->timeZone());
        connect(m_session, &ClientSession::timeZoneChanged, m_billPanel, &BillPanel::setTimeZone);
    }
    return m_billPanel;
}

void BillingController::connectStopWarnings()
{
    // The provider warns before it stops a host by itself; an idle stop can be put off once,
    // from the warning's dialog or the tray's menu.
    connect(m_tray, &TrayNotifier::keepRunningRequested, this, &BillingController::keepRunning);
    // A warning ends when the host no longer runs toward a warned stop.
    connect(m_session, &ClientSession::instanceChanged, this, [this](const Instance &i) {
        if (i.state != InstanceState::Running || !i.plannedStop || !i.plannedStop->warning)
            m_tray->endStopWarning(i.id);
    });
    connect(m_session, &ClientSession::stopWarning, this, &BillingController::showStopWarning);
    connect(m_session, &ClientSession::interruptionNotice, this,
            &BillingController::showInterruptionNotice);
    connect(m_session, &ClientSession::autoRestarted, this, [this](const QString &instanceId) {
        const QString name = m_session->instanceNames().value(instanceId, instanceId);
        Q_EMIT message(tr("Cards are free again: %1 is starting again.").arg(name), 10000);
    });
}

void BillingController::showInterruptionNotice(const InterruptionNotice &notice)
{
    const QString name = m_session->instanceNames().value(notice.instanceId, notice.instanceId);
    const QString at = Format::time(notice.interruptionAt, m_session->timeZone());
    const QString text = notice.noticeSeconds > 0
        ? tr("The provider interrupts %1 at %2 (in %3); /workspace is kept.")
              .arg(name, at, Format::duration(qint64(notice.noticeSeconds) * 1000))
        : tr("The provider interrupted %1 at %2 to free its cards; /workspace is kept.")
              .arg(name, at);
    // A desktop message (the tray's, or the status bar where there is no tray); clicking it
    // opens the host, whose card counts down to the stop.
    m_tray->showStopWarning(notice.instanceId, name, text, false);
    Q_EMIT message(text, 15000);
}

void BillingController::keepRunning(const QString &instanceId)
{
    m_session->keepRunning(instanceId)->onFinished(this, [this](const Reply<Instance> &reply) {
        Q_EMIT message(
            reply.ok() ? tr("The idle stop of %1 was put off.").arg(reply.value().name)
                       : tr("It could not be kept running: %1").arg(reply.error().userMessage()),
            10000);
    });
}

void BillingController::showStopWarning(const StopWarning &w)
{
    const QString name = m_session->instanceNames().value(w.instanceId, w.instanceId);
    const QString why =
        StopText::reason(w.reason).isEmpty() ? w.reason : StopText::reason(w.reason);
    const QString text =
        tr("%1 will stop at %2: %3.").arg(name, Format::time(w.stopAt, m_session->timeZone()), why);
    const bool idle = w.reason == StopReason::Idle;
    m_tray->showStopWarning(w.instanceId, name, text, idle);
    QMessageBox *box =
        Notice::create(m_window, Notice::Kind::Warning, tr("A host will stop"), text);
    box->setObjectName(u"stopWarningDialog"_s);
    if (idle) {
        QPushButton *keep = Notice::addAction(box, tr("Keep running"));
        keep->setObjectName(u"keepRunningButton"_s);
        const QString id = w.instanceId;
        connect(keep, &QPushButton::clicked, this, [this, id] {
            m_tray->endStopWarning(id);
            keepRunning(id);
        });
    }
    box->addButton(QMessageBox::Ok);
    box->open();
}

BillingPage *BillingController::createPage(const AppSettings &settings, QWidget *parent)
{
    auto *page = new BillingPage(m_session, settings, parent);
    m_ledgerView = page->ledger();
    updateLedgerNames();
    connect(page, &BillingPage::remembered, this, &BillingController::remembered);
    // The limits follow the provider's event; the first answer comes with the page.
    connect(m_session, &ClientSession::spendingLimitsChanged, page->limits(),
            &SpendingLimitsPanel::setLimits);
    if (m_session->isLoggedIn())
        page->limits()->reload();
    connect(m_session, &ClientSession::loggedIn, page->limits(), &SpendingLimitsPanel::reload);
    // The comparison needs the catalog and every instance's size: fetched when it is looked at,
    // not with every balance move.
    connect(page->tabs(), &QTabWidget::currentChanged, page, [this, page](int index) {
        if (m_session->isLoggedIn() && page->tabs()->widget(index) == page->calculator())
            page->calculator()->reload();
    });
    return page;
}

LedgerView *BillingController::ledgerView() const
{
    return m_ledgerView;
}

void BillingController::setPageShown(bool shown)
{
    m_pageShown = shown;
    if (shown)
        reloadLedger();
}

void BillingController::reloadLedger()
{
    if (!m_session->isLoggedIn() || !m_ledgerView)
        return;
    updateLedgerNames();
    m_ledgerView->reload();
}

void BillingController::updateLedgerNames()
{
    if (m_ledgerView)
        m_ledgerView->setInstanceNames(m_session->instanceNames());
}

void BillingController::onBillMoved()
{
    if (m_billPanel)
        m_billPanel->refresh();
    m_tray->refresh();
    if (m_pageShown)
        reloadLedger(); // the balance moved: there are new postings to show
}

void BillingController::openTopUpDialog()
{
    if (!m_session->isLoggedIn())
        return;
    if (m_topUpDialog) {
        m_topUpDialog->raise();
        return;
    }
    m_topUpDialog = new TopUpDialog(m_session, m_session->ticker(), m_window);
    m_topUpDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_topUpDialog, &TopUpDialog::toppedUp, this, [this](const TopupResult &result) {
        // The session has shown the new balance already.
        Q_EMIT message(tr("Added %1 (simulated payment). Balance: %2")
                           .arg(Format::money(result.posting.amountMicros),
                                Format::money(result.balanceMicros)),
                       8000);
    });
    m_topUpDialog->open();
}

void BillingController::retranslate()
{
    m_tray->retranslate();
}

} // namespace cardhour::ui
