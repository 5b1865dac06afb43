// InstanceViews: what a client sees of instances, costs brought to the clock; the list served
// from its serialised bytes is the same as the one built afresh.
#include "ServiceFixture.h"
#include "service/InstanceViews.h"

#include <QJsonArray>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestInstanceViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRunningInstanceShowsItsCostAndWhatIsKept()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"view@example.com"_s);
        const QString id = f.createRunning(user);
        f.clock.advanceMs(3000); // not ticked: the view brings the cost to the clock itself
        InstanceViews &views = f.service->views();
        const QJsonObject view = views.get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"running"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger(), 3 * 1'900'000 / 3600);
        QCOMPARE(view[u"storage_cost_micros"_s].toInteger(), 0);
        QVERIFY(view[u"running_since"_s].isString());
        QCOMPARE(view[u"gpu_cards"_s].toArray().size(), 1);
        QVERIFY(view[u"planned_stop"_s].isNull());
        QCOMPARE(view[u"retention"_s][u"storage_gib"_s].toInteger(), 50);
        QCOMPARE(view[u"resources"_s][u"disk_gib"_s].toInteger(), 50);
        QCOMPARE(views.instanceJson(id, f.clock.nowMs()), view);
        QVERIFY(views.instanceJson(u"no-such-id"_s, f.clock.nowMs()).isEmpty());
    }

    void theSerialisedListIsTheListAtEveryRead()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"list@example.com"_s);
        const QString running = f.createRunning(user);
        const QString stopped = f.createRunning(user);
        f.advanceSeconds(5);
        f.service->stop(user, stopped);
        InstanceViews &views = f.service->views();
        for (int read = 0; read < 3; ++read) {
            const QJsonArray built = views.list(user, false);
            QCOMPARE(built.size(), 2);
            QCOMPARE(views.listJson(user, false),
                     QJsonDocument(built).toJson(QJsonDocument::Compact));
            f.clock.advanceMs(1700); // the costs move, the database does not
        }
        f.service->terminate(user, running);
        QCOMPARE(views.list(user, false).size(), 1);
        QCOMPARE(views.list(user, true).size(), 2);
    }

    void theKeptAnswerIsTheListAtEachMillisecondAndAfterAWrite()
    {
        // The last answer is given again while no amount moved: read at every millisecond
        // (the cost moves every second or third at this price), and after writes made
        // within one millisecond, it is still the list built afresh.
        ServiceFixture f;
        const QString user = f.signUp(u"kept@example.com"_s);
        const QString first = f.createRunning(user);
        const QString second = f.createRunning(user);
        InstanceViews &views = f.service->views();
        const auto built = [&] {
            return QJsonDocument(views.list(user, false)).toJson(QJsonDocument::Compact);
        };
        QByteArray last;
        int moved = 0;
        for (int ms = 0; ms < 12; ++ms) {
            const QByteArray answer = views.listJson(user, false);
            QCOMPARE(answer, built());
            QCOMPARE(views.listJson(user, false), answer);
            moved += answer != last;
            last = answer;
            f.clock.advanceMs(1);
        }
        QVERIFY2(moved > 2, "the costs never moved: the reads compared nothing");
        const QByteArray before = views.listJson(user, false);
        f.service->stop(user, second); // the clock stands still: only the state changes
        QVERIFY(views.listJson(user, false) != before);
        QCOMPARE(views.listJson(user, false), built());
        f.service->terminate(user, first);
        QCOMPARE(views.listJson(user, false), built());
        QCOMPARE(views.list(user, false).size(), 1);
    }

    void theCatalogCountsHeldCards()
    {
        ServiceFixture f;
        const auto available = [&f] {
            for (const QJsonValue &gpu : f.service->views().gpuCatalog())
                if (gpu[u"id"_s] == u"rtx4090"_s)
                    return gpu[u"available"_s].toInt();
            return -1;
        };
        const int before = available();
        QVERIFY(before > 0);
        const QString user = f.signUp(u"cards@example.com"_s);
        f.createRunning(user);
        QCOMPARE(available(), before - 1);
    }
};

QTEST_GUILESS_MAIN(TestInstanceViews)
#include "tst_instanceviews.moc"
