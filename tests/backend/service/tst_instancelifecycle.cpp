// InstanceLifecycle: what a user asks of an instance, each move allowed only from its states and
// together with its billing change; refusals name what is wrong.
#include "ServiceFixture.h"
#include "core/ApiError.h"

#include <functional>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestInstanceLifecycle : public QObject
{
    Q_OBJECT
private:
    static QString refusal(const std::function<void()> &call)
    {
        try {
            call();
        } catch (const ApiError &error) {
            return u"%1 %2"_s.arg(error.status()).arg(error.code());
        }
        return {};
    }

private Q_SLOTS:
    void stopStartTerminate()
    {
        ServiceFixture f;
        InstanceLifecycle &life = f.service->lifecycle();
        const QString user = f.signUp(u"life@example.com"_s);
        const QString id = f.createRunning(user);
        QCOMPARE(refusal([&] { life.start(user, id); }), u"409 illegal_transition"_s);
        f.advanceSeconds(60);
        QCOMPARE(life.stop(user, id)[u"state"_s].toString(), u"stopping"_s);
        QCOMPARE(f.cost(user, id), 60 * 1'900'000 / 3600); // compute ends at the request
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        QCOMPARE(refusal([&] { life.stop(user, id); }), u"409 illegal_transition"_s);
        QCOMPARE(life.start(user, id)[u"state"_s].toString(), u"starting"_s);
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        QCOMPARE(life.terminate(user, id)[u"state"_s].toString(), u"terminated"_s);
        QCOMPARE(refusal([&] { life.terminate(user, id); }), u"409 illegal_transition"_s);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void aLaunchIsCheckedBeforeARowIsWritten()
    {
        ServiceFixture f;
        InstanceLifecycle &life = f.service->lifecycle();
        const QString user = f.signUp(u"checks@example.com"_s);
        InstanceLifecycle::CreateRequest request = ServiceFixture::request(u"box"_s);
        request.gpuType = u"no-such-gpu"_s;
        QCOMPARE(refusal([&] { life.create(user, request); }), u"400 unknown_gpu_type"_s);
        request = ServiceFixture::request(u"box"_s);
        request.gpuCount = 3;
        QCOMPARE(refusal([&] { life.create(user, request); }), u"400 invalid_gpu_count"_s);
        request = ServiceFixture::request(u"box"_s);
        request.datasets = {u"no-such-dataset"_s};
        QCOMPARE(refusal([&] { life.create(user, request); }), u"400 unknown_dataset"_s);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM instances"_s).toInt(), 0);
        // All eight H100s lent: one more is refused, and no row is left of it.
        QCOMPARE(f.catalog.gpu(u"h100-80g"_s)->capacity, 8);
        life.create(user, ServiceFixture::request(u"eight"_s, u"h100-80g"_s, 8));
        QCOMPARE(
            refusal([&] { life.create(user, ServiceFixture::request(u"one"_s, u"h100-80g"_s)); }),
            u"409 not_enough_gpus"_s);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM instances"_s).toInt(), 1);
    }

    void keysFollowTheInstance()
    {
        ServiceFixture f;
        InstanceLifecycle &life = f.service->lifecycle();
        const QString user = f.signUp(u"keys@example.com"_s);
        const QString id = f.createRunning(user);
        QCOMPARE(refusal([&] { life.removeKey(user, id, u"no-such-key"_s); }), u"404 not_found"_s);
        life.terminate(user, id);
        QCOMPARE(refusal([&] { life.removeKey(user, id, u"any"_s); }), u"409 illegal_transition"_s);
    }
};

QTEST_GUILESS_MAIN(TestInstanceLifecycle)
#include "tst_instancelifecycle.moc"
