#pragma once

#include <QFrame>
#include <QTimeZone>

class QLabel;

namespace cardhour::core {
class BillTicker;
}

namespace cardhour::ui {

// The bill, always in view: the balance as it runs down (BillTicker interpolates it every
// second between the provider's updates), the spend rate of what runs now, and when the balance
// runs out at that rate.
class BillPanel : public QFrame
{
    Q_OBJECT
public:
    // `ticker` must outlive the panel.
    explicit BillPanel(core::BillTicker *ticker, QWidget *parent = nullptr);

    QString balanceText() const;
    // The zone the run-out time is written in (the provider's).
    void setTimeZone(const QTimeZone &zone);

public Q_SLOTS:
    void refresh();

protected:
    void changeEvent(QEvent *event) override;

private:
    core::BillTicker *m_ticker;
    QLabel *m_balanceTitle;
    QLabel *m_balance;
    QLabel *m_rate;
    QLabel *m_runsOut;
    QTimeZone m_zone = QTimeZone::utc();
};

} // namespace cardhour::ui
