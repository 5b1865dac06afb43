#pragma once

#include "DbError.h"
#include "StoreDialect.h"

#include <QAtomicInt>
#include <QHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <vector>

namespace cardhour::sim {

// One SQLite file (WAL, synchronous=FULL, foreign keys on) or one PostgreSQL database, used
// from one thread. On PostgreSQL every write transaction takes one advisory lock first, so
// that writers of every provider process sharing the database queue as SQLite's do, and a
// transaction that begins after another process's commit reloads what is kept in memory.
// write(), scalar() and forEachRow() prepare a statement once per SQL text and keep it (the
// hot paths: reads of one row, postings); exec() prepares afresh, since its caller keeps the
// query and may still be reading it when the same SQL runs again.
class Database
{
public:
    Database() = default;
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating if needed) `path` and applies pending migrations. Throws DbError.
    void open(const QString &path);
    void open(const StoreLocation &location);
    void close();
    const StoreDialect &dialect() const { return m_dialect; }
    bool isPostgres() const { return m_dialect.isPostgres(); }

    // Runs an INSERT and returns the id the database gave the new row (its `id` column).
    qint64 insertReturningId(const QString &sql, std::initializer_list<QVariant> bindings);
    // Tells the provider processes sharing this database (not this one) `payload` on
    // `channel` once the transaction now open commits, or at once outside one. A no-op on
    // SQLite, which has one provider.
    void announce(const QString &channel, const QString &payload);
    // Called with what another process announced (see announce()).
    void onAnnounced(std::function<void(const QString &channel, const QString &payload)> hook);

    // Prepares and runs `sql` with positional `?` bindings; throws DbError on failure.
    QSqlQuery exec(const QString &sql, std::initializer_list<QVariant> bindings = {});
    // Runs an INSERT, UPDATE or DELETE on a kept statement; throws DbError on failure.
    struct Written
    {
        int rowsAffected = 0;
        QVariant lastInsertId;
    };
    Written write(const QString &sql, std::initializer_list<QVariant> bindings = {});
    // The same with the bindings in a list: statements whose rows are built in a loop (one
    // INSERT or UPDATE ... FROM (VALUES ...) for many rows).
    Written writeValues(const QString &sql, const QList<QVariant> &bindings);
    // `rows` rows of `columns` placeholders, "(?,?),(?,?)", for a multi-row VALUES.
    static QString placeholderRows(int rows, int columns);
    // Calls `chunk(first, rows)` over [0, count) in chunks of at most kMaxRowsPerStatement
    // rows, each a power of two long: a multi-row statement has a few texts to keep prepared.
    static constexpr int kMaxRowsPerStatement = 64;
    static void inChunks(qsizetype count, const std::function<void(qsizetype, int)> &chunk);
    // First column of the first row, or an invalid QVariant if there is no row.
    QVariant scalar(const QString &sql, std::initializer_list<QVariant> bindings = {});
    // Runs a SELECT and calls `row` for each row, on a kept statement (reset afterwards, so it
    // holds no read snapshot). `row` may run other statements, the same SQL included.
    void forEachRow(const QString &sql, std::initializer_list<QVariant> bindings,
                    const std::function<void(const QSqlQuery &)> &row);

    // Moves on with every write statement and every rollback: what was read at one value is
    // still what the file holds while it is unchanged (for caches of derived views).
    quint64 writeVersion() const { return m_writeVersion; }
    // Moves on with every rollback: state kept in memory beside a table reloads after one.
    quint64 rollbackCount() const { return m_rollbacks; }

    bool inTransaction() const { return m_depth > 0; }
    // Runs `hook` once the outermost transaction now open has committed, in the order added;
    // a rollback drops it. Hooks run after the commit, so they may open transactions of their own.
    void afterCommit(std::function<void()> hook);
    // Moves on at each outermost BEGIN: tells one transaction from the next.
    quint64 transactionSerial() const { return m_transactions; }
    int schemaVersion();
    QSqlDatabase &handle() { return m_db; }

private:
    friend class Transaction;
    friend class RawStatement; // its writes count in writeVersion() as the Database's own do
    void begin();
    void commit();
    void rollback();
    void rolledBack();
    static void applyMigrations(Database &db);
    bool needsOwnTransaction(const QString &sql) const;
    static QAtomicInt s_connectionCounter;
    void openPostgres(const StoreLocation &location);
    void listenForOtherWriters();
    void beginShared(); // PostgreSQL: the write lock, then what others wrote meanwhile
    bool commitShared(QSqlQuery &query); // PostgreSQL: counts and announces a write
    QString translated(const QString &sql) const { return m_dialect.statement(sql); }

    struct Statement
    {
        QSqlQuery query;
        bool busy = false; // rows are being read from it (forEachRow, scalar)
    };
    // The kept statement for `sql`, prepared on first use; a fresh one while it is busy.
    std::shared_ptr<Statement> statement(const QString &sql);
    static void bind(QSqlQuery &query, std::initializer_list<QVariant> bindings);
    template<typename Values>
    Written writeKept(const QString &sql, const Values &bindings);
    void run(QSqlQuery &query, const QString &sql);

    QHash<QString, std::shared_ptr<Statement>> m_statements;
    quint64 m_writeVersion = 0;
    quint64 m_rollbacks = 0;
    QSqlDatabase m_db;
    QString m_connectionName;
    int m_depth = 0;
    bool m_rollbackOnly = false;
    quint64 m_transactions = 0;
    std::vector<std::function<void()>> m_afterCommit;
    StoreDialect m_dialect;
    // PostgreSQL: the shared write counter as this process last saw it, and this
    // transaction's write version at BEGIN (did it write?).
    qint64 m_sharedWrites = -1;
    quint64 m_writeVersionAtBegin = 0;
    std::vector<std::function<void(const QString &, const QString &)>> m_announcedHooks;
};

// RAII transaction. Nested transactions join the outermost one: only the outermost commit
// writes, and a rollback anywhere makes the whole transaction roll back.
class Transaction
{
public:
    explicit Transaction(Database &db);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    Database &m_db;
    bool m_done = false;
};

} // namespace cardhour::sim
