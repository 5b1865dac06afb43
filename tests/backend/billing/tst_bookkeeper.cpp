// The Bookkeeper: the only writer of postings, and the one source of "this user's bill moved",
// told after the outermost commit and never for a transaction that rolled back.
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "store/Database.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cardhour::sim;
using namespace Qt::StringLiterals;

class TestBookkeeper : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_files = 0;

    struct Books
    {
        explicit Books(const QString &path)
        {
            db.open(path);
            for (const QString &id : {u"a"_s, u"b"_s})
                db.exec(u"INSERT INTO users(id, email, password_hash, created_at)"
                        " VALUES (?,?,'x',0)"_s,
                        {id, id + u"@example.com"_s});
        }
        Database db;
        Ledger ledger{db};
        Bookkeeper books{db, ledger};
    };
    QString nextFile() { return m_dir.filePath(u"books-%1.sqlite"_s.arg(++m_files)); }

    static Ledger::Posting credit(const QString &user, qint64 amount)
    {
        Ledger::Posting p;
        p.kind = Ledger::Kind::Topup;
        p.userId = user;
        p.amountMicros = amount;
        p.description = u"test"_s;
        return p;
    }
    static QStringList users(const QSignalSpy &spy)
    {
        QStringList out;
        for (const QList<QVariant> &call : spy)
            out.append(call.at(0).toString());
        return out;
    }

private Q_SLOTS:
    void postsOnlyInsideATransaction()
    {
        Books b(nextFile());
        QVERIFY_THROWS_EXCEPTION(DbError, b.books.post(credit(u"a"_s, 5), 1));
        QHash<QString, qint64> balances;
        QVERIFY_THROWS_EXCEPTION(DbError, b.books.postAll({credit(u"a"_s, 5)}, 1, balances));
        Transaction tx(b.db);
        QCOMPARE(b.books.post(credit(u"a"_s, 5), 1), 5);
        tx.commit();
        QCOMPARE(b.ledger.balance(u"a"_s), 5);
        QVERIFY2(b.ledger.verify().isEmpty(), qPrintable(b.ledger.verify()));
    }

    void announcesOnlyAfterTheOutermostCommit()
    {
        Books b(nextFile());
        QSignalSpy moved(&b.books, &Bookkeeper::billMoved);
        Transaction outer(b.db);
        {
            Transaction inner(b.db);
            b.books.post(credit(u"a"_s, 100), 1);
            b.books.post(credit(u"a"_s, 50), 2);
            QHash<QString, qint64> balances;
            b.books.postAll({credit(u"b"_s, 7), credit(u"a"_s, 1)}, 3, balances);
            inner.commit();
        }
        QCOMPARE(moved.size(), 0); // written, not committed: nobody is told yet
        outer.commit();
        QCOMPARE(users(moved), (QStringList{u"a"_s, u"b"_s})); // once each, in the order moved
        QCOMPARE(b.ledger.balance(u"a"_s), 151);
    }

    void announcesNothingForARollback()
    {
        Books b(nextFile());
        QSignalSpy moved(&b.books, &Bookkeeper::billMoved);
        {
            Transaction tx(b.db);
            b.books.post(credit(u"a"_s, 100), 1);
            b.books.noteBillMoved(u"b"_s);
        } // rolled back
        QCOMPARE(moved.size(), 0);
        QCOMPARE(b.ledger.balance(u"a"_s), 0);
        {
            Transaction outer(b.db);
            b.books.post(credit(u"a"_s, 100), 1);
            {
                Transaction inner(b.db);
            } // a nested rollback rolls the whole transaction back
            QVERIFY_THROWS_EXCEPTION(DbError, outer.commit());
        }
        QCOMPARE(moved.size(), 0);
        // The next transaction announces only its own moves, not the rolled-back ones.
        Transaction tx(b.db);
        b.books.post(credit(u"b"_s, 3), 2);
        tx.commit();
        QCOMPARE(users(moved), QStringList{u"b"_s});
    }

    void notedMovesWithoutPostings()
    {
        Books b(nextFile());
        QSignalSpy moved(&b.books, &Bookkeeper::billMoved);
        b.books.noteBillMoved(u"a"_s); // outside a transaction: nothing to wait for
        QCOMPARE(users(moved), QStringList{u"a"_s});
        Transaction tx(b.db);
        b.books.noteBillMoved(u"b"_s);
        b.books.noteBillMoved(u"b"_s);
        QCOMPARE(moved.size(), 1);
        tx.commit();
        QCOMPARE(users(moved), (QStringList{u"a"_s, u"b"_s}));
    }

    void afterCommitHooksRunInOrderAndMayWrite()
    {
        Books b(nextFile());
        QStringList ran;
        {
            Transaction tx(b.db);
            b.db.afterCommit([&] { ran.append(u"first"_s); });
            b.db.afterCommit([&] {
                ran.append(u"second"_s);
                Transaction again(b.db); // the commit is over: a transaction of its own
                b.books.post(credit(u"a"_s, 1), 5);
                again.commit();
            });
            QVERIFY(ran.isEmpty());
            tx.commit();
        }
        QCOMPARE(ran, (QStringList{u"first"_s, u"second"_s}));
        QCOMPARE(b.ledger.balance(u"a"_s), 1);
        QVERIFY_THROWS_EXCEPTION(DbError, b.db.afterCommit([] {}));
    }
};

QTEST_GUILESS_MAIN(TestBookkeeper)
#include "tst_bookkeeper.moc"
