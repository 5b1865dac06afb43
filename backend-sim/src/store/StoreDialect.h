#pragma once

#include <QString>

namespace cardhour::sim {

// Where the provider keeps its data: a SQLite file (the default) or a PostgreSQL database
// given as postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME].
struct StoreLocation
{
    enum class Kind {
        Sqlite,
        Postgres
    };
    Kind kind = Kind::Sqlite;
    QString sqlitePath;
    QString host;
    int port = 5432;
    QString user;
    QString password;
    QString database;
    QString schema; // empty: the user's default search_path

    // Parses a --store value; throws DbError with what is wrong.
    static StoreLocation parse(const QString &store);
    static StoreLocation sqlite(const QString &path);
    // The location without its password, for messages.
    QString describe() const;
};

// The one place that knows how SQLite's and PostgreSQL's SQL differ. The code writes its
// statements once, in the SQL both understand where there is such a spelling (ON CONFLICT,
// CAST, COALESCE); what has none (scalar MAX vs GREATEST, rowid, json_each, AUTOINCREMENT,
// sqlite_sequence) is written in SQLite's spelling and turned into PostgreSQL's here.
class StoreDialect
{
public:
    explicit StoreDialect(StoreLocation::Kind kind = StoreLocation::Kind::Sqlite) : m_kind(kind) {}

    bool isPostgres() const { return m_kind == StoreLocation::Kind::Postgres; }
    // A migration's statement: column types (SQLite's INTEGER is 64 bits, PostgreSQL's 32),
    // INTEGER PRIMARY KEY AUTOINCREMENT, COLLATE NOCASE (e-mails are stored lower-cased).
    QString schema(const QString &sqliteDdl) const;
    // A statement run at run time: two-argument MAX, rowid (insertion order), json_each.
    QString statement(const QString &sqliteSql) const;
    // The highest ledger transaction id ever given out (kept after a rollback on SQLite).
    QString highestLedgerTxnId() const;
    // After ids up to `sql`'s value were given by hand: the next generated one comes after.
    QString advanceLedgerTxnIds() const;

private:
    StoreLocation::Kind m_kind;
};

} // namespace cardhour::sim
