// The money side of the window (BillingController) on its own, against a real cardhour-sim
// (in-process runtime): the bill panel is made once; the Billing page's ledger loads when the
// page is shown and follows each move of the bill; a top-up through its dialog raises the
// session's balance and says so; a stop warning of an idle stop offers "Keep running", which
// asks the provider through the session and says what it answered; the tray's host entry
// reaches the window.
#include "BillPanel.h"
#include "BillingController.h"
#include "CoreTestSupport.h"
#include "LedgerModel.h"
#include "LedgerView.h"
#include "SimProcess.h"
#include "TopUpDialog.h"
#include "TrayNotifier.h"
#include "billing/BillTicker.h"
#include "pages/BillingPage.h"
#include "pages/PageTestSupport.h"
#include "session/ClientSession.h"

#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

class TestBillingController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_sim.kill(); }
    void topUpMovesEveryView();
    void stopWarningOffersKeepRunning();

private:
    bool signUp(core::ClientSession &session, const QString &email);
    static bool saidSomething(const QSignalSpy &messages, const QString &part);

    SimProcess m_sim;
};

void TestBillingController::initTestCase()
{
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(m_sim.lastError()));
}

bool TestBillingController::signUp(core::ClientSession &session, const QString &email)
{
    QSignalSpy loginNeeded(&session, &core::ClientSession::loginNeeded);
    session.connectToUrl(m_sim.baseUrl());
    return signUpWhenAsked(session, loginNeeded, email);
}

bool TestBillingController::saidSomething(const QSignalSpy &messages, const QString &part)
{
    for (const QList<QVariant> &said : messages) {
        if (said.first().toString().contains(part))
            return true;
    }
    return false;
}

void TestBillingController::topUpMovesEveryView()
{
    QWidget window;
    core::ClientSession session(pageSessionOptions());
    ui::BillingController billing(&session, &window);
    QSignalSpy messages(&billing, &ui::BillingController::message);
    QVERIFY(billing.trayNotifier());
    ui::BillPanel *panel = billing.createBillPanel(&window);
    QVERIFY(panel);
    QCOMPARE(billing.createBillPanel(&window), panel); // one panel
    QVERIFY(!billing.ledgerView());
    ui::BillingPage *page = billing.createPage(ui::AppSettings{}, &window);
    QCOMPARE(billing.ledgerView(), page->ledger());
    QVERIFY(signUp(session, u"money@example.com"_s));

    // Shown, the ledger loads: the trial credit.
    billing.setPageShown(true);
    QTRY_COMPARE(page->ledger()->model()->rowCount(), 1);

    billing.openTopUpDialog();
    auto *dialog = window.findChild<ui::TopUpDialog *>();
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit *>(u"amountEdit"_s), u"12.34"_s);
    dialog->findChild<QPushButton *>(u"topUpButton"_s)->click();
    QTRY_VERIFY(saidSomething(messages, u"simulated payment"_s));
    // (A bill the stream sent just before the payment may still pass by: the provider's next
    // one settles it.)
    QTRY_COMPARE(session.ticker()->balanceMicros(), qint64(22'340'000));
    // The bill moved: the ledger shown follows with the top-up's posting.
    QTRY_COMPARE(page->ledger()->model()->rowCount(), 2);

    // Hidden, it no longer reloads with every move.
    billing.setPageShown(false);
    QVERIFY(await(session.topUp(1'000'000)).ok);
    QTest::qWait(300);
    QCOMPARE(page->ledger()->model()->rowCount(), 2);

    QSignalSpy host(&billing, &ui::BillingController::hostRequested);
    Q_EMIT billing.trayNotifier()->hostRequested(u"i-1"_s);
    QCOMPARE(host.count(), 1);
    QCOMPARE(host.first().first().toString(), u"i-1"_s);
}

void TestBillingController::stopWarningOffersKeepRunning()
{
    QWidget window;
    core::ClientSession session(pageSessionOptions());
    ui::BillingController billing(&session, &window);
    QSignalSpy messages(&billing, &ui::BillingController::message);
    QVERIFY(signUp(session, u"warned@example.com"_s));
    const core::NewInstance request{u"idler"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto created = await(session.createInstance(request));
    QVERIFY2(created.ok, created.why());

    // As the stream would say it: an idle stop ahead.
    core::StopWarning warning;
    warning.instanceId = created.value->id;
    warning.reason = u"idle"_s;
    warning.stopAt = QDateTime::currentDateTimeUtc().addSecs(300);
    Q_EMIT session.stopWarning(warning);
    auto *box = window.findChild<QMessageBox *>(u"stopWarningDialog"_s);
    QVERIFY(box);
    QCOMPARE(box->text(), u"A host will stop"_s);
    QVERIFY2(box->informativeText().contains(u"idler"_s), qPrintable(box->informativeText()));
    auto *keep = box->findChild<QPushButton *>(u"keepRunningButton"_s);
    QVERIFY(keep);
    // No idle stop is pending at the provider: it refuses, and the refusal is said.
    keep->click();
    QTRY_VERIFY(saidSomething(messages, u"could not be kept running"_s));
}

QTEST_MAIN(TestBillingController)
#include "tst_billingcontroller.moc"
