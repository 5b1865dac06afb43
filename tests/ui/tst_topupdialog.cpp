// The top-up dialog: amounts read into micro-yuan without a float, checked as typed; against a
// real cardhour-sim it raises the balance shown and the provider's balance, says the payment is
// simulated, and shows a refusal (the balance limit) in words with the amount kept.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "TopUpDialog.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "session/ClientSession.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestTopUpDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void parseYuan_data();
    void parseYuan();
    void validatesAsTyped();
    void raisesTheBalance();
    void refusalShownInWords();

private:
    SimProcess m_sim;
};

void TestTopUpDialog::initTestCase()
{
    QVERIFY2(m_sim.start(), qPrintable(m_sim.lastError()));
}

void TestTopUpDialog::cleanupTestCase()
{
    m_sim.kill();
}

void TestTopUpDialog::parseYuan_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("micros"); // -1: refused
    QTest::newRow("whole") << u"50"_s << qint64(50'000'000);
    QTest::newRow("two decimals") << u"12.50"_s << qint64(12'500'000);
    QTest::newRow("one decimal") << u"0.1"_s << qint64(100'000);
    QTest::newRow("cent") << u"0.01"_s << qint64(10'000);
    QTest::newRow("leading point") << u".5"_s << qint64(500'000);
    QTest::newRow("trailing point") << u"7."_s << qint64(7'000'000);
    QTest::newRow("comma as point") << u"3,25"_s << qint64(3'250'000);
    QTest::newRow("full-width comma") << u"3，25"_s << qint64(3'250'000);
    QTest::newRow("yuan sign and spaces") << u" ¥ 20 "_s << qint64(20'000'000);
    QTest::newRow("no float drift") << u"0.29"_s << qint64(290'000);
    QTest::newRow("three decimals") << u"1.005"_s << qint64(-1);
    QTest::newRow("negative") << u"-5"_s << qint64(-1);
    QTest::newRow("exponent") << u"1e3"_s << qint64(-1);
    QTest::newRow("two points") << u"1.2.3"_s << qint64(-1);
    QTest::newRow("thousands") << u"1 000"_s << qint64(-1);
    QTest::newRow("empty") << u""_s << qint64(-1);
    QTest::newRow("point only") << u"."_s << qint64(-1);
    QTest::newRow("huge") << u"9999999999999"_s << qint64(-1);
    QTest::newRow("arabic-indic digits") << u"٥"_s << qint64(-1);
}

void TestTopUpDialog::parseYuan()
{
    QFETCH(QString, text);
    QFETCH(qint64, micros);
    const auto parsed = ui::TopUpDialog::parseYuan(text);
    QCOMPARE(parsed.value_or(-1), micros);
}

void TestTopUpDialog::validatesAsTyped()
{
    core::ClientSession session{core::ClientSession::Options{}};
    ui::TopUpDialog dialog(&session, nullptr);
    dialog.show();
    auto *edit = dialog.findChild<QLineEdit *>(u"amountEdit"_s);
    auto *ok = dialog.findChild<QPushButton *>(u"topUpButton"_s);
    auto *hint = dialog.findChild<QLabel *>(u"hintLabel"_s);
    QVERIFY(!ok->isEnabled());
    QTest::keyClicks(edit, u"0.001"_s);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(hint->text().contains(u"two decimals"_s), qPrintable(hint->text()));
    edit->clear();
    QTest::keyClicks(edit, u"0"_s);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(hint->text().contains(u"smallest"_s), qPrintable(hint->text()));
    edit->clear();
    QTest::keyClicks(edit, u"100000.01"_s);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(hint->text().contains(u"largest"_s), qPrintable(hint->text()));
    edit->clear();
    QTest::keyClicks(edit, u"25"_s);
    QVERIFY(ok->isEnabled());
    QCOMPARE(dialog.amountMicros().value_or(-1), qint64(25'000'000));
    QCOMPARE(hint->text(), u"¥25.00 will be added to your balance."_s);
    QVERIFY(dialog.findChild<QLabel *>(u"simulatedLabel"_s)->text().contains(u"simulated"_s));
}

void TestTopUpDialog::raisesTheBalance()
{
    const QString token = m_sim.signUp(u"topup@example.com"_s);
    QVERIFY(!token.isEmpty());
    // The widget's commands go through a session; the test points its client at the sim.
    core::ClientSession session{core::ClientSession::Options{}};
    core::ProviderClient &client = *session.client();
    client.setBaseUrl(m_sim.baseUrl());
    client.setToken(token);
    core::BillTicker ticker;
    const auto summary = test::await(client.billingSummary());
    QVERIFY2(summary.ok, summary.why());
    ticker.update(*summary.value);
    QCOMPARE(ticker.balanceMicros(), qint64(10'000'000));

    ui::TopUpDialog dialog(&session, &ticker);
    QSignalSpy done(&dialog, &ui::TopUpDialog::toppedUp);
    QObject::connect(&dialog, &ui::TopUpDialog::toppedUp, &ticker,
                     [&ticker](const core::TopupResult &result) {
                         ticker.update(result.balanceMicros, ticker.spendRateMicrosPerHour());
                     });
    dialog.open();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.findChild<QLabel *>(u"balanceLabel"_s)->text(), u"¥10.00"_s);
    QTest::keyClicks(dialog.findChild<QLineEdit *>(u"amountEdit"_s), u"12.34"_s);
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY(dialog.grab().save(QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/topup.png"_s));
    QTest::mouseClick(dialog.findChild<QPushButton *>(u"topUpButton"_s), Qt::LeftButton);
    QTRY_COMPARE(done.size(), 1);
    QVERIFY(!dialog.isVisible());
    const auto result = done.at(0).at(0).value<core::TopupResult>();
    QCOMPARE(result.posting.amountMicros, qint64(12'340'000));
    QCOMPARE(result.posting.kind, u"topup"_s);
    QCOMPARE(ticker.balanceMicros(), qint64(22'340'000));
    // The session took the answer's balance in itself: nobody handed it back.
    QCOMPARE(session.ticker()->balanceMicros(), qint64(22'340'000));
    // The provider agrees.
    const auto me = m_sim.authedGet(token, u"/v1/billing/summary"_s);
    QCOMPARE(me.value(u"balance_micros"_s).toInteger(), qint64(22'340'000));
}

void TestTopUpDialog::refusalShownInWords()
{
    const QString token = m_sim.signUp(u"rich@example.com"_s);
    QVERIFY(!token.isEmpty());
    // Up to just under the sandbox's limit of 1 000 000 yuan.
    for (int i = 0; i < 9; ++i)
        QCOMPARE(m_sim
                     .authedPost(token, u"/v1/billing/topup"_s,
                                 {{u"amount_micros"_s, qint64(100'000'000'000)}})
                     .status,
                 201);
    // The widget's commands go through a session; the test points its client at the sim.
    core::ClientSession session{core::ClientSession::Options{}};
    core::ProviderClient &client = *session.client();
    client.setBaseUrl(m_sim.baseUrl());
    client.setToken(token);
    ui::TopUpDialog dialog(&session, nullptr);
    QSignalSpy done(&dialog, &ui::TopUpDialog::toppedUp);
    dialog.open();
    auto *edit = dialog.findChild<QLineEdit *>(u"amountEdit"_s);
    QTest::keyClicks(edit, u"100000"_s);
    QTest::mouseClick(dialog.findChild<QPushButton *>(u"topUpButton"_s), Qt::LeftButton);
    auto *error = dialog.findChild<QLabel *>(u"errorLabel"_s);
    QTRY_VERIFY(!error->text().isEmpty());
    QCOMPARE(error->text(),
             u"The provider refused the top-up: A balance may not exceed "
             "1,000,000 yuan."_s);
    QVERIFY(dialog.isVisible());
    QCOMPARE(edit->text(), u"100000"_s); // nothing typed is lost
    QCOMPARE(done.size(), 0);
    QVERIFY(dialog.findChild<QPushButton *>(u"topUpButton"_s)->isEnabled());
}

QTEST_MAIN(TestTopUpDialog)
#include "tst_topupdialog.moc"
