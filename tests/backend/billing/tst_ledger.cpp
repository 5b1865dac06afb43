#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "store/Database.h"
#include "store/Migrations.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cardhour::sim;
using namespace Qt::StringLiterals;

class TestLedger : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    static void addUser(Database &db, const QString &id)
    {
        db.exec(u"INSERT INTO users(id, email, password_hash, created_at) VALUES (?,?,'x',0)"_s,
                {id, id + u"@example.com"_s});
    }
    static Ledger::Posting posting(Ledger::Kind kind, const QString &user, qint64 amount)
    {
        Ledger::Posting p;
        p.kind = kind;
        p.userId = user;
        p.amountMicros = amount;
        p.description = u"test"_s;
        return p;
    }

private Q_SLOTS:
    void migrationsAreRecorded()
    {
        Database db;
        db.open(m_dir.filePath(u"migrations.sqlite"_s));
        QCOMPARE(db.schemaVersion(), migrations::all().last().version);
        QCOMPARE(db.scalar(u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
        QCOMPARE(db.scalar(u"PRAGMA synchronous"_s).toInt(), 2); // FULL
        db.close();
        Database again; // re-opening applies nothing twice
        again.open(m_dir.filePath(u"migrations.sqlite"_s));
        QCOMPARE(again.scalar(u"SELECT COUNT(*) FROM schema_version"_s).toInt(),
                 migrations::all().size());
    }

    void refusesNewerSchema()
    {
        const QString path = m_dir.filePath(u"newer.sqlite"_s);
        {
            Database db;
            db.open(path);
            db.exec(
                u"INSERT INTO schema_version(version, description, applied_at) VALUES (9999, 'future', 'x')"_s);
        }
        Database db;
        QVERIFY_THROWS_EXCEPTION(DbError, db.open(path));
    }

    void postingsBalanceAndCache()
    {
        Database db;
        db.open(m_dir.filePath(u"ledger.sqlite"_s));
        Ledger ledger(db);
        Bookkeeper books(db, ledger);
        Transaction tx(db);
        addUser(db, u"u1"_s);
        QCOMPARE(books.post(posting(Ledger::Kind::TrialCredit, u"u1"_s, 10'000'000), 1),
                 10'000'000);
        QCOMPARE(books.post(posting(Ledger::Kind::Compute, u"u1"_s, -1583), 2), 9'998'417);
        QCOMPARE(books.post(posting(Ledger::Kind::Topup, u"u1"_s, 5'000'000), 3), 14'998'417);
        tx.commit();
        QCOMPARE(ledger.balance(u"u1"_s), 14'998'417);
        QCOMPARE(ledger.sumOfEntries(u"u1"_s), 14'998'417);
        QVERIFY2(ledger.verify().isEmpty(), qPrintable(ledger.verify()));
        // Every transaction's entries sum to zero across all accounts.
        QCOMPARE(db.scalar(u"SELECT SUM(amount_micros) FROM ledger_entries"_s).toLongLong(), 0);

        const QJsonArray page = ledger.page(u"u1"_s, 0, 2);
        QCOMPARE(page.size(), 2);
        QCOMPARE(page.at(0).toObject().value(u"kind"_s).toString(), u"topup"_s);
        QCOMPARE(page.at(1).toObject().value(u"amount_micros"_s).toInteger(), -1583);
        const qint64 before = page.at(1).toObject().value(u"seq"_s).toInteger();
        const QJsonArray older = ledger.page(u"u1"_s, before, 10);
        QCOMPARE(older.size(), 1);
        QCOMPARE(older.at(0).toObject().value(u"kind"_s).toString(), u"trial_credit"_s);
    }

    void kindsPostToTheirOwnAccounts_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("counter");
        QTest::addColumn<qint64>("amount");
        QTest::newRow("trial credit") << int(Ledger::Kind::TrialCredit) << u"trial_credit"_s
                                      << u"grant:trial"_s << qint64(10'000'000);
        QTest::newRow("top-up") << int(Ledger::Kind::Topup) << u"topup"_s
                                << u"payments:sandbox-topup"_s << qint64(5'000'000);
        QTest::newRow("compute") << int(Ledger::Kind::Compute) << u"compute"_s
                                 << u"revenue:compute"_s << qint64(-1583);
        QTest::newRow("storage") << int(Ledger::Kind::Storage) << u"storage"_s
                                 << u"revenue:storage"_s << qint64(-10'000);
        QTest::newRow("model storage") << int(Ledger::Kind::ModelStorage) << u"model_storage"_s
                                       << u"revenue:model-storage"_s << qint64(-200);
    }
    void kindsPostToTheirOwnAccounts()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QString, counter);
        QFETCH(qint64, amount);
        Database db;
        db.open(m_dir.filePath(u"kind-%1.sqlite"_s.arg(name)));
        Ledger ledger(db);
        Bookkeeper books(db, ledger);
        Transaction tx(db);
        addUser(db, u"k"_s);
        books.post(posting(Ledger::Kind::TrialCredit, u"k"_s, 20'000'000), 1);
        books.post(posting(static_cast<Ledger::Kind>(kind), u"k"_s, amount), 2);
        tx.commit();
        QCOMPARE(Ledger::kindName(static_cast<Ledger::Kind>(kind)), name);
        const QJsonObject newest = ledger.page(u"k"_s, 0, 1).at(0).toObject();
        QCOMPARE(newest.value(u"kind"_s).toString(), name);
        const QJsonArray entries = newest.value(u"entries"_s).toArray();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0).toObject().value(u"account"_s).toString(), u"user"_s);
        QCOMPARE(entries.at(1).toObject().value(u"account"_s).toString(), counter);
        QCOMPARE(entries.at(1).toObject().value(u"amount_micros"_s).toInteger(), -amount);
        QVERIFY2(ledger.verify().isEmpty(), qPrintable(ledger.verify()));
    }

    void refusesNegativeBalanceAndOutsideTransaction()
    {
        Database db;
        db.open(m_dir.filePath(u"negative.sqlite"_s));
        Ledger ledger(db);
        Bookkeeper books(db, ledger);
        {
            Transaction tx(db);
            addUser(db, u"u2"_s);
            books.post(posting(Ledger::Kind::TrialCredit, u"u2"_s, 100), 1);
            tx.commit();
        }
        QVERIFY_THROWS_EXCEPTION(DbError,
                                 books.post(posting(Ledger::Kind::Compute, u"u2"_s, -1), 2));
        {
            Transaction tx(db);
            QVERIFY_THROWS_EXCEPTION(DbError,
                                     books.post(posting(Ledger::Kind::Compute, u"u2"_s, -101), 2));
        } // rolled back
        QCOMPARE(ledger.balance(u"u2"_s), 100);
        QCOMPARE(db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE user_id = 'u2'"_s).toInt(), 1);
        QVERIFY(ledger.verify().isEmpty());
    }

    void verifyDetectsTampering()
    {
        Database db;
        db.open(m_dir.filePath(u"tamper.sqlite"_s));
        Ledger ledger(db);
        Bookkeeper books(db, ledger);
        {
            Transaction tx(db);
            addUser(db, u"u3"_s);
            books.post(posting(Ledger::Kind::TrialCredit, u"u3"_s, 1000), 1);
            tx.commit();
        }
        db.exec(u"UPDATE users SET balance_micros = 999 WHERE id = 'u3'"_s);
        QVERIFY(ledger.verify().contains(u"cached balance"_s));
        db.exec(u"UPDATE users SET balance_micros = 1000 WHERE id = 'u3'"_s);
        QVERIFY(ledger.verify().isEmpty());
        db.exec(u"UPDATE ledger_entries SET amount_micros = -999 WHERE account = 'grant:trial'"_s);
        QVERIFY(ledger.verify().contains(u"does not balance"_s));
    }

    void nestedTransactionRollbackAbortsOuter()
    {
        Database db;
        db.open(m_dir.filePath(u"nested.sqlite"_s));
        {
            Transaction outer(db);
            addUser(db, u"u4"_s);
            {
                Transaction inner(db);
                addUser(db, u"u5"_s);
            } // inner rolls back: the whole transaction must not commit
            QVERIFY_THROWS_EXCEPTION(DbError, outer.commit());
        }
        QCOMPARE(db.scalar(u"SELECT COUNT(*) FROM users"_s).toInt(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "tst_ledger.moc"
