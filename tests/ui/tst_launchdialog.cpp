// LaunchDialog against a real cardhour-sim (--test-clock, in-process runtime): the catalog,
// images and keys it lists, the cost preview, the "no keys yet" note, and a 402 refusal said in
// words with the dialog left open.
#include "CoreTestSupport.h"
#include "LaunchDialog.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "ssh/SshKeyPair.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestLaunchDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    }

    void previewAndRefusal()
    {
        const QString token = m_sim.signUp(u"launch@example.com"_s);
        QVERIFY2(!token.isEmpty(), qPrintable(m_sim.lastError()));
        core::ProviderClient client;
        client.setBaseUrl(m_sim.baseUrl());
        client.setToken(token);
        core::ManualClock clock;
        core::BillTicker ticker(&clock);
        ticker.setTickIntervalMs(0);
        ticker.update(10'000'000, 0);

        ui::LaunchDialog dialog(&client, &ticker);
        dialog.load();
        dialog.show();
        auto *gpuList = dialog.findChild<QListWidget *>(u"gpuList"_s);
        QTRY_VERIFY(gpuList->count() >= 6);
        // The sandbox under test lends simulated cards, and every card says which it is.
        for (int row = 0; row < gpuList->count(); ++row)
            QVERIFY2(gpuList->item(row)->text().endsWith(u"simulated"_s),
                     qPrintable(gpuList->item(row)->text()));
        QTRY_VERIFY(dialog.findChild<QListWidget *>(u"imageList"_s)->count() > 0);
        // No keys yet: the dialog says so and offers the SSH keys dialog.
        QTRY_VERIFY(dialog.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
        QVERIFY(dialog.findChild<QLabel *>(u"noKeysLabel"_s)->text().contains(u"upload"_s));
        auto *manageKeys = dialog.findChild<QPushButton *>(u"manageKeysButton"_s);
        QVERIFY(manageKeys && manageKeys->isVisible());
        QSignalSpy manageRequested(&dialog, &ui::LaunchDialog::manageKeysRequested);
        QTest::mouseClick(manageKeys, Qt::LeftButton);
        QCOMPARE(manageRequested.size(), 1);
        // A key uploaded meanwhile (the SSH keys dialog does this) shows after reloadKeys().
        core::SshKeyPair key;
        QString keyError;
        QTemporaryDir keyDir;
        QVERIFY2(core::SshKeyPair::generate(keyDir.filePath(u"id"_s), {}, u"t"_s, &key, &keyError),
                 qPrintable(keyError));
        QVERIFY(test::await(client.addSshKey(u"fresh"_s, key.publicKeyLine())).ok);
        dialog.reloadKeys();
        QTRY_COMPARE(dialog.findChild<QListWidget *>(u"keyList"_s)->count(), 1);
        QVERIFY(!dialog.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
        QCOMPARE(dialog.request().sshKeyIds.size(), 1);

        // 8 × H100: per hour, per day, and how long ¥10 lasts at that rate.
        for (int row = 0; row < gpuList->count(); ++row) {
            if (gpuList->item(row)->text().contains(u"H100"_s))
                gpuList->setCurrentRow(row);
        }
        auto *count = dialog.findChild<QComboBox *>(u"countCombo"_s);
        count->setCurrentIndex(count->findData(8));
        QCOMPARE(dialog.request().gpuCount, 8);
        QCOMPARE(dialog.pricePerHourMicros(), 8 * 15'000'000LL);
        const QString cost = dialog.findChild<QLabel *>(u"costLabel"_s)->text();
        QVERIFY2(cost.contains(u"¥120.00 per hour"_s) && cost.contains(u"¥2880.00 per day"_s),
                 qPrintable(cost));
        QVERIFY2(cost.contains(u"lasts 5 min"_s), qPrintable(cost));

        // Spend the trial credit elsewhere, then ask: 402, said in words, dialog still open.
        const QString id = m_sim.createRunning(token,
                                               {{u"gpu_type"_s, u"h100-80g"_s},
                                                {u"gpu_count"_s, 8},
                                                {u"image"_s, u"base"_s},
                                                {u"name"_s, u"hog"_s}});
        QVERIFY2(!id.isEmpty(), qPrintable(m_sim.lastError()));
        QVERIFY(m_sim.advance(3600));
        m_sim.waitForState(token, id, u"stopped"_s);
        gpuList->setCurrentRow(0);
        count->setCurrentIndex(count->findData(1));
        QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
        auto *launch =
            dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
        QVERIFY(launch->isEnabled());
        QTest::mouseClick(launch, Qt::LeftButton);
        auto *error = dialog.findChild<QLabel *>(u"errorLabel"_s);
        QTRY_VERIFY2(
            error->text().startsWith(u"Not launched: your balance does not cover this instance."_s),
            qPrintable(error->text()));
        QVERIFY(dialog.isVisible());
        QCOMPARE(launched.size(), 0);
        QVERIFY(launch->isEnabled()); // the user may change the choice and try again
    }

private:
    SimProcess m_sim;
};

QTEST_MAIN(TestLaunchDialog)
#include "tst_launchdialog.moc"
