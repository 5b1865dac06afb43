// Card lending: the host's real cards offered in the catalog, each lent to one instance at a
// time, the same cards again on restart, and what reaches the runtime. Simulated cards are lent
// the same way (numbered within their type).
#include "ServiceFixture.h"
#include "core/Json.h"
#include "service/CardLending.h"

#include <QJsonArray>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
// An 8×H200 node's nvidia-smi indexes with two RTX 4090s beside them.
QList<HostCard> mixedHost()
{
    QList<HostCard> cards;
    for (int i = 0; i < 8; ++i)
        cards.append(HostCard{i, u"h200"_s, u"NVIDIA H200"_s, 143771, 700});
    cards.append(HostCard{8, u"rtx4090"_s, u"NVIDIA GeForce RTX 4090"_s, 24564, 0});
    cards.append(HostCard{9, u"rtx4090"_s, u"NVIDIA GeForce RTX 4090"_s, 24564, 0});
    return cards;
}

QList<int> cardsIn(const QJsonObject &instance)
{
    QList<int> cards;
    for (const QJsonValue &v : instance.value(u"gpu_cards"_s).toArray())
        cards.append(v.toInt());
    return cards;
}

QString errorCode(const std::function<void()> &call)
{
    try {
        call();
    } catch (const ApiError &error) {
        return error.code();
    }
    return u"(no error)"_s;
}
} // namespace

class TestCardLending : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostCardsBecomeTheCatalog()
    {
        Catalog catalog = Catalog::load();
        const qint64 builtIn4090 = catalog.gpu(u"rtx4090"_s)->pricePerHourMicros;
        catalog.offerHostCards(mixedHost(), false);
        QCOMPARE(catalog.gpus().size(), 2); // real only: nothing simulated beside real cards
        const GpuType h200 = *catalog.gpu(u"h200"_s);
        QVERIFY(!h200.simulated);
        QCOMPARE(h200.capacity, 8);
        QCOMPARE(h200.hostCards, (QList<int>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(h200.vramMib, 143771);
        QCOMPARE(h200.powerLimitW, 700.0);
        QCOMPARE(h200.name, u"NVIDIA H200"_s);
        // Not in the built-in catalog: the catalog's price for unlisted real cards.
        QCOMPARE(h200.pricePerHourMicros, catalog.realCardPricePerHourMicros());
        const GpuType rtx = *catalog.gpu(u"rtx4090"_s);
        QVERIFY(!rtx.simulated);
        QCOMPARE(rtx.cardPool(), (QList<int>{8, 9}));
        QCOMPARE(rtx.pricePerHourMicros, builtIn4090); // priced like the built-in type
        QCOMPARE(rtx.powerLimitW, 450.0); // not reported: the built-in type's
        QVERIFY(rtx.description.contains(u"real card"_s));
    }

    void mixedKeepsSimulatedTypes()
    {
        Catalog catalog = Catalog::load();
        const qsizetype builtIn = catalog.gpus().size();
        catalog.offerHostCards(mixedHost(), true);
        // h200 is new; the real rtx4090 replaces the simulated one of that id.
        QCOMPARE(catalog.gpus().size(), builtIn + 1);
        QVERIFY(!catalog.gpu(u"rtx4090"_s)->simulated);
        QVERIFY(catalog.gpu(u"l40s"_s)->simulated);
        QCOMPARE(catalog.gpu(u"l40s"_s)->cardPool().size(), catalog.gpu(u"l40s"_s)->capacity);
    }

    void noHostCardsChangeNothing()
    {
        Catalog catalog = Catalog::load();
        const qsizetype builtIn = catalog.gpus().size();
        catalog.offerHostCards({}, false);
        QCOMPARE(catalog.gpus().size(), builtIn);
    }

    void realCardsLentOneInstanceAtATime()
    {
        ServiceFixture f;
        // Two H200s at nvidia-smi indexes 3 and 5 (the others belong to someone else).
        f.catalog.offerHostCards({HostCard{3, u"h200"_s, u"NVIDIA H200"_s, 143771, 700},
                                  HostCard{5, u"h200"_s, u"NVIDIA H200"_s, 143771, 700}},
                                 false);
        const QString user = f.signUp(u"cards@example.com"_s);
        const QString a = f.createRunning(user, u"h200"_s);
        const QJsonObject aJson = f.service->get(user, a);
        QCOMPARE(cardsIn(aJson), QList<int>{3});
        QCOMPARE(aJson.value(u"gpu_simulated"_s).toBool(true), false);
        // What the runtime is told to pass through.
        QCOMPARE(f.runtime.lastSpec(a).gpuCards, QList<int>{3});
        QVERIFY(f.runtime.lastSpec(a).realGpus);

        const QString b = f.createRunning(user, u"h200"_s);
        QCOMPARE(cardsIn(f.service->get(user, b)), QList<int>{5});
        QCOMPARE(
            errorCode([&] { f.service->create(user, ServiceFixture::request(u"c"_s, u"h200"_s)); }),
            u"not_enough_gpus"_s);

        // A stopped instance releases its card; a new one may take it.
        f.service->stop(user, a);
        QTRY_COMPARE(f.state(user, a), u"stopped"_s);
        QCOMPARE(cardsIn(f.service->get(user, a)), QList<int>{}); // as retention says
        const QString c = f.createRunning(user, u"h200"_s);
        QCOMPARE(cardsIn(f.service->get(user, c)), QList<int>{3});
        // a's kept container was made with card 3: it cannot run on card 5 or none.
        f.service->terminate(user, b);
        QCOMPARE(errorCode([&] { f.service->start(user, a); }), u"cards_busy"_s);
        QCOMPARE(f.state(user, a), u"stopped"_s); // refused: nothing changed
        // Once card 3 is free again, a gets it back.
        f.service->terminate(user, c);
        f.service->start(user, a);
        QTRY_COMPARE(f.state(user, a), u"running"_s);
        QCOMPARE(cardsIn(f.service->get(user, a)), QList<int>{3});
        QCOMPARE(f.runtime.lastSpec(a).gpuCards, QList<int>{3});
    }

    void simulatedCardsNumberedWithinTheirType()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"sim@example.com"_s);
        const QString two = f.createRunning(user, u"rtx4090"_s, 2);
        const QString one = f.createRunning(user, u"rtx4090"_s, 1);
        QCOMPARE(cardsIn(f.service->get(user, two)), (QList<int>{0, 1}));
        QCOMPARE(cardsIn(f.service->get(user, one)), QList<int>{2});
        QVERIFY(f.service->get(user, one).value(u"gpu_simulated"_s).toBool());
        QVERIFY(!f.runtime.lastSpec(one).realGpus);
        // A simulated card is any free one: after a stop the instance may come back on others.
        f.service->stop(user, two);
        QTRY_COMPARE(f.state(user, two), u"stopped"_s);
        f.createRunning(user, u"rtx4090"_s, 2); // takes 0 and 1
        f.service->start(user, two);
        QTRY_COMPARE(f.state(user, two), u"running"_s);
        QCOMPARE(cardsIn(f.service->get(user, two)), (QList<int>{3, 4}));
    }

    void lendingDirectly()
    {
        ServiceFixture f;
        GpuType type;
        type.id = u"x"_s;
        type.simulated = false;
        type.hostCards = {0, 1};
        type.capacity = 2;
        CardLending lending(f.db);
        // No instance rows are needed to pick cards, but held ones must be in a holding state.
        const CardLending::Result none = lending.lend(u"i1"_s, type, 3, false);
        QCOMPARE(none.outcome, CardLending::Outcome::NotEnoughFree);
        QCOMPARE(none.cards, (QList<int>{0, 1}));
        QVERIFY(lending.cardsOf(u"i1"_s).isEmpty()); // a refusal writes nothing
    }
};

QTEST_GUILESS_MAIN(TestCardLending)
#include "tst_cardlending.moc"
