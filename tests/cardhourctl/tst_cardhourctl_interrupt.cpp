// cardhourctl and interruptible hosts, against a real cardhour-sim (in-process runtime, test
// clock): `gpus` shows both prices, `launch --interruptible --wait --json` launches the cheaper
// class and says so, `--restart-when-available` alone is a usage error, and a wait for a host
// the provider interrupted ends with exit status 7 and a sentence that says what happened.
#include "CtlProcess.h"
#include "SimProcess.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::test::CtlRun;
using cardhour::test::SimProcess;

class TestCardhourctlInterrupt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void interruptibleLaunchAndWait();

private:
    CtlRun ctl(const QStringList &arguments, const QByteArray &input = {})
    {
        return cardhour::test::runCtl(arguments,
                                      {{u"CARDHOUR_PROVIDER_URL"_s, m_sim.baseUrl().toString()},
                                       {u"CARDHOUR_KEYCHAIN_SERVICE"_s, m_service},
                                       {u"XDG_DATA_HOME"_s, m_data.path()}},
                                      input);
    }

    SimProcess m_sim;
    QTemporaryDir m_data;
    QString m_service;
};

void TestCardhourctlInterrupt::initTestCase()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    QVERIFY(m_data.isValid());
    QVERIFY2(m_sim.start({u"--test-clock"_s, u"--runtime"_s, u"inprocess"_s}),
             qPrintable(m_sim.lastError()));
    m_service = u"cardhourctl-interrupt-%1"_s.arg(QCoreApplication::applicationPid());
    QVERIFY(!m_sim.signUp(u"ctl-spot@example.com"_s).isEmpty());
    const CtlRun login =
        ctl({u"login"_s, u"--email"_s, u"ctl-spot@example.com"_s}, "correct horse battery\n");
    QVERIFY2(login.code == 0, login.describe());
}

void TestCardhourctlInterrupt::interruptibleLaunchAndWait()
{
    // Both prices, as the provider's catalog has them.
    const CtlRun gpusJson = ctl({u"gpus"_s, u"--json"_s});
    QVERIFY2(gpusJson.code == 0, gpusJson.describe());
    qint64 cheaper = -1;
    for (const QJsonValue &gpu : gpusJson.json().array())
        if (gpu[u"id"_s] == u"rtx4090"_s)
            cheaper = gpu[u"interruptible_price_per_hour_micros"_s].toInteger(-1);
    QVERIFY(cheaper > 0);
    const CtlRun table = ctl({u"gpus"_s});
    QVERIFY2(table.code == 0 && table.out.contains(u"INTERRUPTIBLE"_s), table.describe());

    const CtlRun alone =
        ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--restart-when-available"_s});
    QCOMPARE(alone.code, 2);
    QVERIFY2(alone.err.contains(u"--interruptible"_s), alone.describe());

    const CtlRun launched = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--name"_s, u"spot"_s,
                                 u"--interruptible"_s, u"--wait"_s, u"--json"_s});
    QVERIFY2(launched.code == 0, launched.describe());
    const QJsonObject host = launched.json().object();
    QCOMPARE(host[u"price_class"_s].toString(), u"interruptible"_s);
    QCOMPARE(host[u"price_per_hour_micros"_s].toInteger(), cheaper);
    QCOMPARE(host[u"state"_s].toString(), u"running"_s);
    const QString id = host[u"id"_s].toString();

    // The provider takes it back; a wait for it to run says so and ends with status 7.
    const auto given = m_sim.request("POST", u"/v1/_test/instances/%1/interrupt"_s.arg(id),
                                     QJsonObject{{u"notice_seconds"_s, 0}});
    QVERIFY2(given.status == 200, given.describe().constData());
    const CtlRun waited =
        ctl({u"wait"_s, u"spot"_s, u"--state"_s, u"running"_s, u"--timeout"_s, u"20"_s});
    QCOMPARE(waited.code, 7);
    QVERIFY2(waited.err.contains(u"interrupted spot"_s), waited.describe());
    const CtlRun shown = ctl({u"show"_s, u"spot"_s, u"--json"_s});
    QVERIFY2(shown.code == 0, shown.describe());
    QCOMPARE(shown.json()[u"state_reason"_s].toString(), u"interrupted"_s);
}

QTEST_GUILESS_MAIN(TestCardhourctlInterrupt)
#include "tst_cardhourctl_interrupt.moc"
