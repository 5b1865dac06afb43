#include "Database.h"

#include "Migrations.h"

#include <QAtomicInt>
#include <QDateTime>
#include <QLoggingCategory>
#include <QSqlError>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// QT_LOGGING_RULES="cardhour.sql.debug=true" prints every statement run (how many a request
// costs, which are prepared afresh).
Q_LOGGING_CATEGORY(lcSql, "cardhour.sql", QtWarningMsg)

} // namespace

QAtomicInt Database::s_connectionCounter;

namespace {

void pragma(QSqlDatabase &db, const QString &statement)
{
    QSqlQuery query(db);
    if (!query.exec(statement))
        throw DbError(u"%1 failed: %2"_s.arg(statement, query.lastError().text()).toStdString());
}

} // namespace

// Creates `schema_version` if needed and applies each missing migration in its own
// transaction, recording it in the same transaction. Throws DbError.
void Database::applyMigrations(Database &db)
{
    db.exec(u"CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)"_s);
    const int current = db.schemaVersion();
    if (current > migrations::all().last().version)
        throw DbError(
            u"the data was written by a newer cardhour-sim (schema %1, this one knows up to %2);"
            " refusing to touch it"_s.arg(current)
                .arg(migrations::all().last().version)
                .toStdString());
    for (const migrations::Migration &migration : migrations::all()) {
        if (migration.version <= current)
            continue;
        Transaction tx(db);
        for (const QString &statement : migration.statements)
            db.exec(db.dialect().schema(statement));
        db.exec(u"INSERT INTO schema_version(version, description, applied_at) VALUES (?, ?, ?)"_s,
                {migration.version, migration.description,
                 QDateTime::currentDateTimeUtc().toString(u"yyyy-MM-dd HH:mm:ss"_s)});
        tx.commit();
    }
}

Database::~Database()
{
    close();
}

void Database::open(const QString &path)
{
    open(StoreLocation::sqlite(path));
}

void Database::open(const StoreLocation &location)
{
    m_dialect = StoreDialect(location.kind);
    if (location.kind == StoreLocation::Kind::Postgres) {
        openPostgres(location);
        return;
    }
    const QString &path = location.sqlitePath;
    m_connectionName = u"cardhour-%1"_s.arg(s_connectionCounter.fetchAndAddRelaxed(1));
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connectionName);
    m_db.setDatabaseName(path);
    m_db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
    if (!m_db.open())
        throw DbError(u"cannot open %1: %2"_s.arg(path, m_db.lastError().text()).toStdString());
    // WAL keeps readers off the writer's back; FULL makes every commit durable across a crash
    // or power loss, which a ledger needs.
    pragma(m_db, u"PRAGMA journal_mode=WAL"_s);
    pragma(m_db, u"PRAGMA synchronous=FULL"_s);
    pragma(m_db, u"PRAGMA foreign_keys=ON"_s);
    // Up to 64 MiB of pages in memory (SQLite's default is 2 000 pages, about 8 MiB): with tens
    // of thousands of instances the tick's passes otherwise re-read pages every second.
    pragma(m_db, u"PRAGMA cache_size=-65536"_s);
    // Statement journals (what a statement that changes several rows keeps to undo itself)
    // in memory: on disk they spill to a file in /var/tmp once one passes 64 KiB, and every
    // later statement of the transaction writes there too (about 115 000 pwrite calls in a
    // posting pass of 10 000 instances).
    pragma(m_db, u"PRAGMA temp_store=MEMORY"_s);
    applyMigrations(*this);
}

void Database::close()
{
    if (m_connectionName.isEmpty())
        return;
    m_statements.clear(); // before the connection they belong to
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
    m_connectionName.clear();
}

namespace {
// SELECT (or WITH … SELECT) statements hand their rows to the caller.
bool isRead(const QString &sql)
{
    const QStringView text = QStringView(sql).trimmed();
    return text.startsWith(u"SELECT", Qt::CaseInsensitive)
        || text.startsWith(u"WITH", Qt::CaseInsensitive);
}
} // namespace

std::shared_ptr<Database::Statement> Database::statement(const QString &sql)
{
    // Statements are written in the code, so there are few; the cap only guards a future
    // caller that builds SQL from data.
    constexpr qsizetype kMaxKept = 1024;
    if (m_statements.size() >= kMaxKept && !m_statements.contains(sql))
        m_statements.clear();
    std::shared_ptr<Statement> &kept = m_statements[sql];
    if (kept && !kept->busy)
        return kept;
    qCDebug(lcSql).noquote() << "prepare (kept):" << sql;
    auto fresh = std::make_shared<Statement>(Statement{QSqlQuery(m_db)});
    // QPSQL reads a forward-only result a row at a time, and the next statement on the
    // connection discards the rest: `row` callbacks run statements, so it reads results whole.
    fresh->query.setForwardOnly(!isPostgres());
    if (!fresh->query.prepare(translated(sql)))
        throw DbError(
            u"prepare failed: %1 in: %2"_s.arg(fresh->query.lastError().text(), sql).toStdString());
    if (!kept)
        kept = fresh;
    return fresh;
}

void Database::bind(QSqlQuery &query, std::initializer_list<QVariant> bindings)
{
    int position = 0;
    for (const QVariant &value : bindings)
        query.bindValue(position++, value);
}

void Database::run(QSqlQuery &query, const QString &sql)
{
    qCDebug(lcSql).noquote() << sql;
    if (!query.exec())
        throw DbError(
            u"query failed: %1 in: %2"_s.arg(query.lastError().text(), sql).toStdString());
}

QSqlQuery Database::exec(const QString &sql, std::initializer_list<QVariant> bindings)
{
    if (needsOwnTransaction(sql)) {
        Transaction tx(*this);
        QSqlQuery query = exec(sql, bindings);
        tx.commit();
        return query;
    }
    qCDebug(lcSql).noquote() << "prepare:" << sql;
    QSqlQuery query(m_db);
    if (isPostgres() && bindings.size() == 0) {
        // PostgreSQL prepares only SELECT, INSERT, UPDATE, DELETE and VALUES (not DDL).
        if (!isRead(sql))
            ++m_writeVersion;
        if (!query.exec(translated(sql)))
            throw DbError(
                u"query failed: %1 in: %2"_s.arg(query.lastError().text(), sql).toStdString());
        return query;
    }
    if (!query.prepare(translated(sql)))
        throw DbError(
            u"prepare failed: %1 in: %2"_s.arg(query.lastError().text(), sql).toStdString());
    for (const QVariant &value : bindings)
        query.addBindValue(value);
    if (!isRead(sql))
        ++m_writeVersion; // before running: a failed write may still have changed rows
    run(query, sql);
    return query;
}

bool Database::needsOwnTransaction(const QString &sql) const
{
    // PostgreSQL: a write outside a transaction takes the shared write lock and tells the
    // other processes too (SQLite's autocommit writes queue behind its one writer by themselves).
    return isPostgres() && m_depth == 0 && !isRead(sql);
}

template<typename Values>
Database::Written Database::writeKept(const QString &sql, const Values &bindings)
{
    if (needsOwnTransaction(sql)) {
        Transaction tx(*this);
        const Written written = writeKept(sql, bindings);
        tx.commit();
        return written;
    }
    const std::shared_ptr<Statement> kept = statement(sql);
    int position = 0;
    for (const QVariant &value : bindings)
        kept->query.bindValue(position++, value);
    ++m_writeVersion;
    run(kept->query, sql);
    // QPSQL asks the server for lastval(), which fails (and aborts the transaction) where no
    // sequence was used: ids come from insertReturningId() there.
    Written written{kept->query.numRowsAffected(),
                    isPostgres() ? QVariant() : kept->query.lastInsertId()};
    kept->query.finish();
    return written;
}

Database::Written Database::write(const QString &sql, std::initializer_list<QVariant> bindings)
{
    return writeKept(sql, bindings);
}

QString Database::placeholderRows(int rows, int columns)
{
    QString row = u"(?"_s;
    for (int c = 1; c < columns; ++c)
        row += u",?"_s;
    row += u')';
    QString all;
    all.reserve(rows * (row.size() + 1));
    for (int r = 0; r < rows; ++r) {
        if (r > 0)
            all += u',';
        all += row;
    }
    return all;
}

void Database::inChunks(qsizetype count, const std::function<void(qsizetype, int)> &chunk)
{
    qsizetype first = 0;
    while (first < count) {
        int rows = kMaxRowsPerStatement;
        while (rows > count - first)
            rows /= 2;
        chunk(first, rows);
        first += rows;
    }
}

Database::Written Database::writeValues(const QString &sql, const QList<QVariant> &bindings)
{
    return writeKept(sql, bindings);
}

QVariant Database::scalar(const QString &sql, std::initializer_list<QVariant> bindings)
{
    if (!isRead(sql)) {
        QSqlQuery query = exec(sql, bindings);
        return query.next() ? query.value(0) : QVariant();
    }
    QVariant value;
    forEachRow(sql, bindings, [&value](const QSqlQuery &row) {
        if (!value.isValid())
            value = row.value(0);
    });
    return value;
}

void Database::forEachRow(const QString &sql, std::initializer_list<QVariant> bindings,
                          const std::function<void(const QSqlQuery &)> &row)
{
    const std::shared_ptr<Statement> kept = statement(sql);
    QSqlQuery &query = kept->query;
    bind(query, bindings);
    run(query, sql);
    kept->busy = true;
    try {
        while (query.next())
            row(query);
    } catch (...) {
        kept->busy = false;
        query.finish();
        throw;
    }
    kept->busy = false;
    query.finish();
}

int Database::schemaVersion()
{
    return scalar(u"SELECT COALESCE(MAX(version), 0) FROM schema_version"_s).toInt();
}

void Database::begin()
{
    if (m_depth++ == 0) {
        m_rollbackOnly = false;
        ++m_transactions;
        m_afterCommit.clear();
        // IMMEDIATE takes the write lock now, so a transaction never fails half-way on busy.
        // PostgreSQL: the same lock, shared by every process on the database (see beginShared).
        QSqlQuery query(m_db);
        if (!query.exec(isPostgres() ? u"BEGIN"_s : u"BEGIN IMMEDIATE"_s)) {
            m_depth = 0;
            throw DbError(u"BEGIN failed: %1"_s.arg(query.lastError().text()).toStdString());
        }
        if (isPostgres())
            beginShared();
    }
}

void Database::commit()
{
    if (--m_depth > 0)
        return;
    QSqlQuery query(m_db);
    if (m_rollbackOnly) {
        query.exec(u"ROLLBACK"_s);
        rolledBack();
        throw DbError("transaction was marked for rollback by a nested transaction");
    }
    if (isPostgres() && !commitShared(query)) {
        QSqlQuery(m_db).exec(u"ROLLBACK"_s);
        rolledBack();
        throw DbError(u"COMMIT failed: %1"_s.arg(query.lastError().text()).toStdString());
    }
    if (!query.exec(u"COMMIT"_s)) {
        QSqlQuery(m_db).exec(u"ROLLBACK"_s);
        rolledBack();
        throw DbError(u"COMMIT failed: %1"_s.arg(query.lastError().text()).toStdString());
    }
    std::vector<std::function<void()>> hooks;
    hooks.swap(m_afterCommit);
    for (const std::function<void()> &hook : hooks)
        hook();
}

void Database::afterCommit(std::function<void()> hook)
{
    if (m_depth == 0)
        throw DbError("afterCommit outside a transaction");
    m_afterCommit.push_back(std::move(hook));
}

void Database::rollback()
{
    if (--m_depth > 0) {
        m_rollbackOnly = true;
        return;
    }
    QSqlQuery(m_db).exec(u"ROLLBACK"_s);
    rolledBack();
}

void Database::rolledBack()
{
    m_afterCommit.clear();
    ++m_rollbacks;
    ++m_writeVersion;
}

Transaction::Transaction(Database &db) : m_db(db)
{
    m_db.begin();
}

Transaction::~Transaction()
{
    if (!m_done)
        m_db.rollback();
}

void Transaction::commit()
{
    m_done = true;
    m_db.commit();
}

} // namespace cardhour::sim
