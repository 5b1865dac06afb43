#include "pages/BillingPage.h"

#include "CostCalculator.h"
#include "LedgerView.h"
#include "SpendingLimitsPanel.h"
#include "StatementPanel.h"
#include "session/ClientSession.h"

#include <QEvent>
#include <QTabWidget>
#include <QTimeZone>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

BillingPage::BillingPage(core::ClientSession *session, const AppSettings &settings, QWidget *parent)
    : QWidget(parent), m_tabs(new QTabWidget(this)), m_ledger(new LedgerView(session, this)),
      m_statements(new StatementPanel(this)), m_limits(new SpendingLimitsPanel(session, this)),
      m_calculator(new CostCalculator(
          session, settings.costInputs,
          CostCalculator::Job{settings.costGpuType, settings.costCards, settings.costHours}, this))
{
    setObjectName(u"billingPage"_s);
    m_tabs->setObjectName(u"billingTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_ledger, QString());
    m_tabs->addTab(m_statements, QString());
    m_tabs->addTab(m_limits, QString());
    m_tabs->addTab(m_calculator, QString());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_ledger, &LedgerView::postingsChanged, m_statements, &StatementPanel::setPostings);
    connect(m_ledger, &LedgerView::postingsChanged, m_calculator, &CostCalculator::setPostings);
    connect(m_ledger, &LedgerView::instanceNamesChanged, m_statements,
            &StatementPanel::setInstanceNames);
    // Statements count months where the provider does (its /v1/health says where).
    if (session) {
        m_statements->setTimeZone(session->timeZone(), session->timeZoneStated());
        connect(session, &core::ClientSession::timeZoneChanged, m_statements,
                &StatementPanel::setTimeZone);
    }
    connect(m_calculator, &CostCalculator::inputsEdited, this,
            [this](const core::CostInputs &inputs, const CostCalculator::Job &job) {
                Q_EMIT remembered(inputs, job.gpuType, job.cards, job.hours);
            });
    retranslate();
}

void BillingPage::reload()
{
    m_ledger->reload();
    m_limits->reload();
    m_calculator->reload();
}

void BillingPage::retranslate()
{
    m_tabs->setTabText(0, tr("Ledger"));
    m_tabs->setTabText(1, tr("Statements"));
    m_tabs->setTabText(2, tr("Spending limits"));
    m_tabs->setTabText(3, tr("Cost comparison"));
}

void BillingPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
