// RawStatement: writes and reads through SQLite's own API on a Database's connection, inside
// the Database's transactions; a failure throws and leaves the statement usable.
#include "store/Database.h"
#include "store/RawStatement.h"

#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestRawStatement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void writesAndReadsBack();
    void chunkedRows();
    void failureThrowsAndStatementGoesOn();
    void readStopsCleanlyWhenTheCallerThrows();
    void rolledBackWithTheTransaction();

private:
    struct Row
    {
        qint64 id;
        QString name;
    };
    QList<Row> rows();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
};

void TestRawStatement::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_db = std::make_unique<Database>();
    m_db->open(m_dir->filePath(u"raw.db"_s));
    m_db->exec(u"CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, note TEXT)"_s);
}

void TestRawStatement::cleanup()
{
    m_db.reset();
    m_dir.reset();
}

QList<TestRawStatement::Row> TestRawStatement::rows()
{
    QList<Row> out;
    RawStatement read(*m_db, u"SELECT id, name FROM t ORDER BY id"_s);
    read.forEachRow([&out](const RawStatement &row) { out.append({row.integer(0), row.text(1)}); });
    return out;
}

void TestRawStatement::writesAndReadsBack()
{
    RawStatement insert(*m_db, u"INSERT INTO t(id, name, note) VALUES (?, ?, ?)"_s);
    insert.bind(1, 7);
    insert.bind(2, u"café 卡时"_s); // UTF-8 both ways
    insert.bindNull(3);
    const quint64 before = m_db->writeVersion();
    insert.run();
    // Caches kept per write version (account views, lists) see the raw write; a read is none.
    QVERIFY(m_db->writeVersion() > before);
    const quint64 afterWrite = m_db->writeVersion();
    rows();
    QCOMPARE(m_db->writeVersion(), afterWrite);
    insert.bind(1, 8);
    insert.bind(2, u"second"_s);
    insert.bind(3, u"n"_s);
    insert.run(); // the statement is reused after each run
    const QList<Row> read = rows();
    QCOMPARE(read.size(), 2);
    QCOMPARE(read.at(0).id, 7);
    QCOMPARE(read.at(0).name, u"café 卡时"_s);
    QCOMPARE(read.at(1).name, u"second"_s);
    QVERIFY(m_db->scalar(u"SELECT note FROM t WHERE id = 7"_s).isNull());
    // The same read twice: reset after its last row.
    QCOMPARE(rows().size(), 2);
}

void TestRawStatement::chunkedRows()
{
    RawChunkedStatement insert(*m_db, [](int rows) {
        return u"INSERT INTO t(id, name) VALUES "_s + Database::placeholderRows(rows, 2);
    });
    constexpr qsizetype kCount = 100; // 64 + 32 + 4 rows a statement
    Transaction tx(*m_db);
    Database::inChunks(kCount, [&](qsizetype first, int count) {
        RawStatement &statement = insert.forRows(count);
        for (int i = 0; i < count; ++i) {
            statement.bind(2 * i + 1, first + i);
            statement.bind(2 * i + 2, u"row %1"_s.arg(first + i));
        }
        statement.run();
    });
    tx.commit();
    const QList<Row> read = rows();
    QCOMPARE(read.size(), kCount);
    QCOMPARE(read.last().name, u"row 99"_s);
    QVERIFY_THROWS_EXCEPTION(DbError, insert.forRows(3)); // not a power of two
    QVERIFY_THROWS_EXCEPTION(DbError, insert.forRows(128)); // above the chunk size
}

void TestRawStatement::failureThrowsAndStatementGoesOn()
{
    RawStatement insert(*m_db, u"INSERT INTO t(id, name) VALUES (?, ?)"_s);
    insert.bind(1, 1);
    insert.bind(2, u"same"_s);
    insert.run();
    insert.bind(1, 2);
    insert.bind(2, u"same"_s); // UNIQUE
    try {
        insert.run();
        QFAIL("a duplicate went in");
    } catch (const DbError &error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(u"UNIQUE"_s), error.what());
    }
    insert.bind(1, 3);
    insert.bind(2, u"other"_s);
    insert.run();
    QCOMPARE(rows().size(), 2);
    RawStatement broken(*m_db, u"SELECT nothing FROM nowhere"_s);
    QVERIFY_THROWS_EXCEPTION(DbError, broken.forEachRow([](const RawStatement &) {}));
}

void TestRawStatement::readStopsCleanlyWhenTheCallerThrows()
{
    m_db->exec(u"INSERT INTO t(id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')"_s);
    RawStatement read(*m_db, u"SELECT id FROM t ORDER BY id"_s);
    int seen = 0;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, read.forEachRow([&seen](const RawStatement &) {
        if (++seen == 2)
            throw std::runtime_error("stop");
    }));
    // Reset: a later transaction commits (an active statement would make COMMIT fail), and the
    // read starts again from its first row.
    Transaction tx(*m_db);
    m_db->exec(u"INSERT INTO t(id, name) VALUES (4, 'd')"_s);
    tx.commit();
    QList<qint64> ids;
    read.forEachRow([&ids](const RawStatement &row) { ids.append(row.integer(0)); });
    QCOMPARE(ids, (QList<qint64>{1, 2, 3, 4}));
}

void TestRawStatement::rolledBackWithTheTransaction()
{
    RawStatement insert(*m_db, u"INSERT INTO t(id, name) VALUES (?, ?)"_s);
    {
        Transaction tx(*m_db);
        insert.bind(1, 1);
        insert.bind(2, u"gone"_s);
        insert.run();
        QCOMPARE(rows().size(), 1); // seen inside its transaction
    } // no commit
    QCOMPARE(rows().size(), 0);
}

QTEST_GUILESS_MAIN(TestRawStatement)
#include "tst_rawstatement.moc"
