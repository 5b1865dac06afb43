#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QtGlobal>

#include <array>
#include <functional>
#include <memory>

struct sqlite3;
struct sqlite3_stmt;
class QSqlQuery;

namespace cardhour::sim {

class Database;

// One write statement run through SQLite's own API on a Database's connection, for statements
// run for thousands of rows at a time (the posting pass): binding costs no QVariant and no
// placeholder lookup. Prepared on first use and kept (prepared again if the connection was
// reopened); it runs inside the caller's Transaction like the Database's own statements, and
// each run() counts as a write in Database::writeVersion() as theirs do. On PostgreSQL (no
// SQLite API underneath) the same calls run through a kept QSqlQuery.
class RawStatement
{
public:
    RawStatement(Database &db, QString sql);
    ~RawStatement();
    RawStatement(const RawStatement &) = delete;
    RawStatement &operator=(const RawStatement &) = delete;

    // Positions count from 1, as in SQLite. Text is copied when bound.
    void bind(int position, qint64 value);
    void bindReal(int position, double value); // not bind(): an int literal would be ambiguous
    void bind(int position, const QString &value);
    void bindNull(int position);
    // Runs the statement to its end, then clears it for the next row. Throws DbError with
    // SQLite's message on failure (the caller's Transaction then rolls the pass back).
    void run();
    // A read run the same way: `row` is called for each row of the result, which it reads
    // through integer() and text() (columns count from 0, as in SQLite). A read of every
    // running instance each second costs no QVariant per value this way.
    void forEachRow(const std::function<void(const RawStatement &)> &row);
    qint64 integer(int column) const;
    QString text(int column) const;
    QByteArrayView utf8(int column) const; // valid until the next row

private:
    sqlite3_stmt *statement();
    [[noreturn]] void fail(const char *what, int code);
    QSqlQuery &query(); // PostgreSQL
    void runQuery(); // PostgreSQL

    std::unique_ptr<QSqlQuery> m_query; // PostgreSQL: the kept statement
    mutable QByteArray m_utf8; // PostgreSQL: the column utf8() returned last

    Database &m_db;
    QString m_sql;
    sqlite3 *m_connection = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    bool m_rowStarted = false; // a value of the next row was bound
};

// A multi-row statement (one row of placeholders per row) kept prepared for each chunk size
// Database::inChunks gives: a statement opens its table's and indexes' cursors once for all
// of its rows.
class RawChunkedStatement
{
public:
    // `sqlFor(rows)`: the statement's text for `rows` rows.
    RawChunkedStatement(Database &db, std::function<QString(int rows)> sqlFor);
    ~RawChunkedStatement();
    // `rows`: a power of two of at most Database::kMaxRowsPerStatement.
    RawStatement &forRows(int rows);

private:
    Database &m_db;
    std::function<QString(int)> m_sqlFor;
    std::array<std::unique_ptr<RawStatement>, 7> m_bySize; // by log2(rows)
};

} // namespace cardhour::sim
