// MinuteAverages: the minute averages a sampling pass queues are written at its end, in
// multi-row statements, as the one-row statements before them wrote them: the same gpus text as
// QJsonDocument, NULL for unknown CPU and memory, a minute stored again replaced, every row of
// a pass larger than one statement kept; read back as written; dropped by age.
#include "gpu/MinuteAverages.h"
#include "store/Database.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestMinuteAverages : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void cardsTextIsWhatQJsonDocumentWrote();
    void aPassLargerThanOneStatementIsWrittenWhole();
    void unknownCpuAndMemoryAreNull();
    void aMinuteWrittenAgainIsReplaced();
    void oldMinutesAreDropped();

private:
    static TelemetrySample minute(qint64 atMs, float cpu, float memory, int cards);
    qint64 count();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
};

void TestMinuteAverages::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_db = std::make_unique<Database>();
    m_db->open(m_dir->filePath(u"minutes.db"_s));
}

void TestMinuteAverages::cleanup()
{
    m_db.reset();
    m_dir.reset();
}

TelemetrySample TestMinuteAverages::minute(qint64 atMs, float cpu, float memory, int cards)
{
    TelemetrySample sample{atMs, cpu, memory, {}};
    for (int i = 0; i < cards; ++i)
        sample.cards.append({float(12.3 + i), 4096.5f + float(i), 30.1f, 27.04f * float(i + 1)});
    return sample;
}

qint64 TestMinuteAverages::count()
{
    return m_db->scalar(u"SELECT COUNT(*) FROM telemetry_minutes"_s).toLongLong();
}

void TestMinuteAverages::cardsTextIsWhatQJsonDocumentWrote()
{
    const QList<TelemetryCardSample> cards = minute(0, -1, -1, 3).cards;
    QJsonArray gpus;
    for (const TelemetryCardSample &card : cards)
        gpus.append(
            QJsonArray{card.utilizationPct, card.memoryUsedMib, card.temperatureC, card.powerW});
    QCOMPARE(MinuteAverages::cardsJson(cards), QJsonDocument(gpus).toJson(QJsonDocument::Compact));
    QCOMPARE(MinuteAverages::cardsJson({}), QByteArray("[]"));
}

void TestMinuteAverages::aPassLargerThanOneStatementIsWrittenWhole()
{
    MinuteAverages minutes(*m_db);
    const int instances = Database::kMaxRowsPerStatement * 2 + 5; // chunks of 64, 64, 4, 1
    {
        Transaction tx(*m_db);
        for (int i = 0; i < instances; ++i)
            minutes.add(u"instance-%1"_s.arg(i), minute(120'000, float(i) / 10, 512.5f, 2));
        minutes.write();
        tx.commit();
    }
    QCOMPARE(count(), qint64(instances));
    for (int i : {0, 63, 64, 127, 128, instances - 1}) {
        const QList<TelemetrySample> read = minutes.read(u"instance-%1"_s.arg(i), 60'000, 180'000);
        QCOMPARE(read.size(), 1);
        QCOMPARE(read.first().atMs, qint64(120'000));
        QCOMPARE(read.first().cpuPercent, float(i) / 10);
        QCOMPARE(read.first().memoryMib, 512.5f);
        QCOMPARE(read.first().cards.size(), 2);
        QCOMPARE(read.first().cards.at(1).powerW, 27.04f * 2);
        QCOMPARE(read.first().cards.at(1).utilizationPct, float(12.3 + 1));
    }
    // Written once: a second write() has nothing queued.
    Transaction tx(*m_db);
    minutes.write();
    tx.commit();
    QCOMPARE(count(), qint64(instances));
}

void TestMinuteAverages::unknownCpuAndMemoryAreNull()
{
    MinuteAverages minutes(*m_db);
    Transaction tx(*m_db);
    minutes.add(u"a"_s, minute(60'000, -1, -1, 1));
    minutes.write();
    tx.commit();
    QSqlQuery q = m_db->exec(u"SELECT cpu_percent IS NULL, memory_mib IS NULL, gpus"
                             " FROM telemetry_minutes"_s);
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QCOMPARE(q.value(1).toInt(), 1);
    QCOMPARE(q.value(2).toString(),
             u"[[12.300000190734863,4096.5,30.100000381469727,"
             "27.040000915527344]]"_s);
    const QList<TelemetrySample> read = minutes.read(u"a"_s, 0, 120'000);
    QCOMPARE(read.size(), 1);
    QCOMPARE(read.first().cpuPercent, -1.0f);
    QCOMPARE(read.first().memoryMib, -1.0f);
}

void TestMinuteAverages::aMinuteWrittenAgainIsReplaced()
{
    MinuteAverages minutes(*m_db);
    for (float cpu : {10.0f, 20.5f}) {
        Transaction tx(*m_db);
        minutes.add(u"a"_s, minute(60'000, cpu, 100, 1));
        minutes.write();
        tx.commit();
    }
    QCOMPARE(count(), qint64(1));
    QCOMPARE(minutes.read(u"a"_s, 60'000, 120'000).first().cpuPercent, 20.5f);
}

void TestMinuteAverages::oldMinutesAreDropped()
{
    MinuteAverages minutes(*m_db);
    Transaction tx(*m_db);
    for (qint64 at : {60'000, 120'000, 180'000})
        minutes.add(u"a"_s, minute(at, 1, 1, 1));
    minutes.write();
    minutes.dropBefore(120'000);
    tx.commit();
    const QList<TelemetrySample> left = minutes.read(u"a"_s, 0, 240'000);
    QCOMPARE(left.size(), 2);
    QCOMPARE(left.first().atMs, qint64(120'000));
}

QTEST_GUILESS_MAIN(TestMinuteAverages)
#include "tst_minuteaverages.moc"
