#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <initializer_list>
#include <stdexcept>

namespace cardhour::sim {

// A failed SQL statement. Not an ApiError: the caller's request was fine, we were not (500).
class DbError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// One SQLite file (WAL, synchronous=FULL, foreign keys on), used from one thread.
class Database
{
public:
    Database() = default;
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating if needed) `path` and applies pending migrations. Throws DbError.
    void open(const QString &path);
    void close();

    // Prepares and runs `sql` with positional `?` bindings; throws DbError on failure.
    QSqlQuery exec(const QString &sql, std::initializer_list<QVariant> bindings = {});
    // First column of the first row, or an invalid QVariant if there is no row.
    QVariant scalar(const QString &sql, std::initializer_list<QVariant> bindings = {});

    bool inTransaction() const { return m_depth > 0; }
    int schemaVersion();
    QSqlDatabase &handle() { return m_db; }

private:
    friend class Transaction;
    void begin();
    void commit();
    void rollback();

    QSqlDatabase m_db;
    QString m_connectionName;
    int m_depth = 0;
    bool m_rollbackOnly = false;
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
