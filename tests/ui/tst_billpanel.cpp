// BillPanel: the balance as BillTicker interpolates it, the spend rate, when it runs out.
#include "BillPanel.h"
#include "billing/BillTicker.h"

#include <QLabel>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;

class TestBillPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTheTicker()
    {
        core::ManualClock clock;
        core::BillTicker ticker(&clock);
        ticker.setTickIntervalMs(0);
        ui::BillPanel panel(&ticker);
        QCOMPARE(panel.balanceText(), u"—"_s);

        QVERIFY(ticker.update(10'000'000, 0));
        panel.refresh();
        QCOMPARE(panel.balanceText(), u"¥10.00"_s);
        QCOMPARE(panel.findChild<QLabel *>(u"spendRateLabel"_s)->text(),
                 u"Nothing is billed now"_s);
        QVERIFY(panel.findChild<QLabel *>(u"runsOutLabel"_s)->text().isEmpty());

        QVERIFY(ticker.update(10'000'000, 3'600'000)); // ¥3.60/h: ¥0.001 a second
        panel.refresh();
        QCOMPARE(panel.findChild<QLabel *>(u"spendRateLabel"_s)->text(), u"Spending ¥3.60/h"_s);
        QVERIFY2(panel.findChild<QLabel *>(u"runsOutLabel"_s)
                     ->text()
                     .startsWith(u"Runs out in 2 h 46 min"_s),
                 qPrintable(panel.findChild<QLabel *>(u"runsOutLabel"_s)->text()));
        clock.advanceMs(5000);
        ticker.tick(); // balanceChanged -> refresh
        QCOMPARE(panel.balanceText(), u"¥9.99"_s);
    }
};

QTEST_MAIN(TestBillPanel)
#include "tst_billpanel.moc"
