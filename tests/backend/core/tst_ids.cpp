// ids: the random ids of accounts and instances, the time-ordered ones of ledger postings.
#include "core/Ids.h"

#include <QDateTime>
#include <QSet>
#include <QTest>
#include <QUuid>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestIds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void randomIds();
    void timeOrderedIdsSortAsMade();
    void timeOrderedIdsCarryTheirMillisecond();
};

void TestIds::randomIds()
{
    const QString id = ids::newUuid();
    QVERIFY(ids::isUuid(id));
    QCOMPARE(QUuid::fromString(id).version(), QUuid::Random);
    QCOMPARE(id, id.toLower());
    QVERIFY(id != ids::newUuid());
    QVERIFY(!ids::isUuid(u"not-a-uuid"_s));
}

// Many in one millisecond, as a posting pass makes them: each one greater than the last, in
// text as the index compares them, and none twice.
void TestIds::timeOrderedIdsSortAsMade()
{
    constexpr int kCount = 20000;
    QStringList made;
    made.reserve(kCount);
    for (int i = 0; i < kCount; ++i)
        made.append(ids::newTimeOrderedUuid());
    for (int i = 1; i < kCount; ++i)
        QVERIFY2(made.at(i - 1) < made.at(i), qPrintable(made.at(i - 1) + u" !< "_s + made.at(i)));
    QCOMPARE(QSet<QString>(made.cbegin(), made.cend()).size(), kCount);
    for (const QString &id : {made.constFirst(), made.constLast()}) {
        QVERIFY(ids::isUuid(id));
        QCOMPARE(id, id.toLower());
        // Qt 6.4's QUuid::version() knows no version 7: the bits themselves.
        const QByteArray bytes = QUuid::fromString(id).toRfc4122();
        QCOMPARE(uchar(bytes.at(6)) >> 4, 7);
        QCOMPARE(uchar(bytes.at(8)) >> 6, 2); // RFC 9562's variant, bits 10
    }
}

void TestIds::timeOrderedIdsCarryTheirMillisecond()
{
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const QString id = ids::newTimeOrderedUuid();
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    const QByteArray bytes = QUuid::fromString(id).toRfc4122();
    qint64 ms = 0;
    for (int i = 0; i < 6; ++i)
        ms = (ms << 8) | uchar(bytes.at(i));
    // At or after the clock (a counter that ran out borrows the next millisecond), never before.
    QVERIFY2(ms >= before && ms <= after + 1000, qPrintable(QString::number(ms - before)));
    // The random tail differs between two ids of the same millisecond.
    QVERIFY(ids::newTimeOrderedUuid().right(8) != ids::newTimeOrderedUuid().right(8));
}

QTEST_GUILESS_MAIN(TestIds)
#include "tst_ids.moc"
