// RuntimeReports: billing starts when the runtime reports an instance ready, a failed launch
// costs nothing, and reconcile fails a launch a restart cut short and stops what no longer runs.
#include "ServiceFixture.h"
#include "service/RuntimeReports.h"

#include <QJsonArray>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestRuntimeReports : public QObject
{
    Q_OBJECT
private:
    static qint64 openSegments(ServiceFixture &f, const QString &id)
    {
        return f.db
            .scalar(u"SELECT COUNT(*) FROM segments WHERE instance_id = ? AND ended_at IS NULL"_s,
                    {id})
            .toLongLong();
    }

private Q_SLOTS:
    void readinessStartsBillingAndRecordsTheStages()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"ready@example.com"_s);
        const QString id = f.create(user, u"box"_s);
        QCOMPARE(openSegments(f, id), 0); // creating costs nothing
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        QCOMPARE(openSegments(f, id), 1);
        const QJsonObject view = f.service->get(user, id);
        QVERIFY(!view[u"launch"_s][u"stages"_s].toArray().isEmpty());
        QVERIFY(view[u"launch"_s][u"ready_ms"_s].isDouble());
    }

    void reconcileFailsALaunchARestartCutShort()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"restart@example.com"_s);
        const QString id = f.create(user, u"box"_s); // the runtime has not been asked yet
        f.service->runtimeReports().reconcile(true);
        const QJsonObject view = f.service->get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"failed"_s);
        QCOMPARE(view[u"state_reason"_s].toString(), u"provider_restarted"_s);
        QCoreApplication::processEvents(); // the queued create finds no `creating` row
        QCOMPARE(f.state(user, id), u"failed"_s);
        QCOMPARE(openSegments(f, id), 0);
        QCOMPARE(f.cost(user, id), 0);
    }

    void reconcileStopsARunWhoseProviderRestarted()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"gone@example.com"_s);
        const QString id = f.createRunning(user);
        f.advanceSeconds(60);
        // An in-process instance does not outlive the provider: at startup it is stopped,
        // billed up to the last moment it was seen, and its disk billed from now.
        f.service->runtimeReports().reconcile(true);
        const QJsonObject view = f.service->get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"stopped"_s);
        QCOMPARE(view[u"state_reason"_s].toString(), u"provider_restarted"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger(), 60 * 1'900'000 / 3600);
        QVERIFY(view[u"storage_rate_micros_per_hour"_s].toInteger() > 0);
    }
};

QTEST_GUILESS_MAIN(TestRuntimeReports)
#include "tst_runtimereports.moc"
