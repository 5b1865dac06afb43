// SampleHistory: the last hour of an instance's samples in flat rings. Checked against the
// plain model it replaced (a deque of samples, each with its own list of cards): the same
// samples, oldest first, through growth, wrap-around, more cards than before, a smaller cap.
#include "gpu/SampleHistory.h"

#include <QRandomGenerator>
#include <QTest>

#include <deque>

using namespace cardhour::sim;

Q_DECLARE_METATYPE(QList<int>)

class TestSampleHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesModel_data();
    void matchesModel();
    void emptyAndFind();
    void randomAgainstModel();
};

namespace {
TelemetrySample sampleAt(qint64 atMs, int cards)
{
    TelemetrySample s;
    s.atMs = atMs;
    s.cpuPercent = atMs % 7 == 0 ? -1.0f : float(atMs % 400) / 2;
    s.memoryMib = float(atMs % 1000);
    for (int c = 0; c < cards; ++c)
        s.cards.append(
            TelemetryCardSample{float(c), float(atMs + c), float(30 + c), float(atMs % 450)});
    return s;
}

void compare(const SampleHistory &history, const std::deque<TelemetrySample> &model)
{
    QCOMPARE(history.size(), qsizetype(model.size()));
    QCOMPARE(history.empty(), model.empty());
    for (qsizetype i = 0; i < history.size(); ++i) {
        const TelemetrySample &want = model[size_t(i)];
        QCOMPARE(history.atMs(i), want.atMs);
        QCOMPARE(history.cpuPercent(i), want.cpuPercent);
        QCOMPARE(history.memoryMib(i), want.memoryMib);
        QCOMPARE(history.cardCount(i), int(want.cards.size()));
        const TelemetrySample got = history.at(i);
        QCOMPARE(got.cards.size(), want.cards.size());
        for (qsizetype c = 0; c < want.cards.size(); ++c) {
            QCOMPARE(history.cards(i)[c].memoryUsedMib, want.cards.at(c).memoryUsedMib);
            QCOMPARE(got.cards.at(c).powerW, want.cards.at(c).powerW);
            QCOMPARE(got.cards.at(c).temperatureC, want.cards.at(c).temperatureC);
        }
    }
}

void pushBoth(SampleHistory &history, std::deque<TelemetrySample> &model, const TelemetrySample &s,
              qsizetype capacity)
{
    history.push(s, capacity);
    model.push_back(s);
    while (qsizetype(model.size()) > capacity)
        model.pop_front();
}
} // namespace

void TestSampleHistory::matchesModel_data()
{
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("pushes");
    QTest::addColumn<QList<int>>("cardsByPush"); // cycled through
    QTest::newRow("growing, one card") << 3600 << 100 << QList<int>{1};
    QTest::newRow("wraps, one card") << 10 << 37 << QList<int>{1};
    QTest::newRow("wraps, eight cards") << 5 << 23 << QList<int>{8};
    QTest::newRow("no cards") << 4 << 9 << QList<int>{0};
    QTest::newRow("more cards after wrapping") << 6 << 20 << QList<int>{1, 1, 1, 1, 1, 1, 1, 1, 4};
    QTest::newRow("card counts vary") << 7 << 40 << QList<int>{2, 0, 3, 1};
    QTest::newRow("capacity one") << 1 << 5 << QList<int>{2};
}

void TestSampleHistory::matchesModel()
{
    QFETCH(int, capacity);
    QFETCH(int, pushes);
    QFETCH(QList<int>, cardsByPush);
    SampleHistory history;
    std::deque<TelemetrySample> model;
    for (int i = 0; i < pushes; ++i) {
        pushBoth(history, model, sampleAt(1000LL * i, cardsByPush.at(i % cardsByPush.size())),
                 capacity);
        compare(history, model);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after push %1").arg(i)));
    }
}

void TestSampleHistory::emptyAndFind()
{
    SampleHistory history;
    QVERIFY(history.empty());
    QCOMPARE(history.firstAtOrAfter(0), 0);
    history.push(sampleAt(5000, 1), 0); // no room at all: nothing kept
    QVERIFY(history.empty());
    for (int i = 0; i < 12; ++i)
        history.push(sampleAt(1000LL * i, 1), 8); // keeps 4000 .. 11000
    QCOMPARE(history.size(), 8);
    QCOMPARE(history.atMs(0), 4000);
    QCOMPARE(history.firstAtOrAfter(0), 0);
    QCOMPARE(history.firstAtOrAfter(4000), 0);
    QCOMPARE(history.firstAtOrAfter(4001), 1);
    QCOMPARE(history.firstAtOrAfter(11000), 7);
    QCOMPARE(history.firstAtOrAfter(11001), 8);
}

void TestSampleHistory::randomAgainstModel()
{
    // Random card counts and a cap that shrinks and grows again now and then.
    QRandomGenerator random(20261203);
    SampleHistory history;
    std::deque<TelemetrySample> model;
    qsizetype capacity = 16;
    for (int i = 0; i < 2000; ++i) {
        if (random.bounded(50) == 0)
            capacity = 1 + random.bounded(40);
        pushBoth(history, model, sampleAt(1000LL * i, int(random.bounded(5))), capacity);
        compare(history, model);
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("after push %1 (capacity %2)").arg(i).arg(capacity)));
    }
}

QTEST_GUILESS_MAIN(TestSampleHistory)
#include "tst_samplehistory.moc"
