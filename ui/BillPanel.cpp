#include "BillPanel.h"

#include "Format.h"
#include "billing/BillTicker.h"
#include "theme/Design.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

BillPanel::BillPanel(core::BillTicker *ticker, QWidget *parent)
    : QFrame(parent), m_ticker(ticker), m_balanceTitle(new QLabel(this)),
      m_balance(new QLabel(this)), m_rate(new QLabel(this)), m_runsOut(new QLabel(this))
{
    setObjectName(u"billPanel"_s);
    m_balance->setObjectName(u"balanceLabel"_s);
    m_rate->setObjectName(u"spendRateLabel"_s);
    m_runsOut->setObjectName(u"runsOutLabel"_s);
    setFrameShape(QFrame::StyledPanel);
    Design::setCard(this);
    Design::setTextRole(m_balance, TextRole::PageTitle);
    // Tabular digits keep the ticking figure from jittering sideways.
    m_balance->setMinimumWidth(m_balance->fontMetrics().horizontalAdvance(u"¥00,000.00"_s));
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_balanceTitle);
    layout->addWidget(m_balance);
    layout->addSpacing(24);
    layout->addWidget(m_rate);
    layout->addSpacing(24);
    layout->addWidget(m_runsOut, 1);
    connect(m_ticker, &core::BillTicker::balanceChanged, this, &BillPanel::refresh);
    refresh();
}

QString BillPanel::balanceText() const
{
    return m_balance->text();
}

void BillPanel::setTimeZone(const QTimeZone &zone)
{
    m_zone = zone;
    refresh();
}

void BillPanel::refresh()
{
    m_balanceTitle->setText(tr("Balance:"));
    if (!m_ticker->hasData()) {
        m_balance->setText(u"—"_s);
        m_rate->clear();
        m_runsOut->clear();
        return;
    }
    m_balance->setText(Format::money(m_ticker->balanceMicros()));
    const qint64 rate = m_ticker->spendRateMicrosPerHour();
    m_rate->setText(rate > 0 ? tr("Spending %1").arg(Format::ratePerHour(rate))
                             : tr("Nothing is billed now"));
    const QDateTime runsOut = m_ticker->runsOutAt();
    if (rate > 0 && runsOut.isValid()) {
        m_runsOut->setText(
            tr("Runs out in %1 (at %2)")
                .arg(Format::duration(m_ticker->msLeft()), Format::dateTime(runsOut, m_zone)));
    } else {
        m_runsOut->clear();
    }
}

void BillPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        refresh();
    QFrame::changeEvent(event);
}

} // namespace cardhour::ui
