#include "RawStatement.h"

#include "Database.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

#include <bit>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// Qt's SQLite driver hands out its connection as a QVariant holding the sqlite3*.
sqlite3 *connectionOf(Database &db)
{
    const QVariant handle = db.handle().driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        throw DbError("the database connection is not Qt's SQLite driver");
    sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData());
    if (!connection)
        throw DbError("the database connection is not open");
    return connection;
}
} // namespace

RawStatement::RawStatement(Database &db, QString sql) : m_db(db), m_sql(std::move(sql)) {}

QSqlQuery &RawStatement::query()
{
    if (!m_query) {
        m_query = std::make_unique<QSqlQuery>(m_db.handle());
        // Not forward-only: QPSQL would read it a row at a time (see Database::statement).
        if (!m_query->prepare(m_db.translated(m_sql))) {
            const QString error = m_query->lastError().text();
            m_query.reset();
            throw DbError(u"prepare failed: %1 in: %2"_s.arg(error, m_sql).toStdString());
        }
    }
    return *m_query;
}

void RawStatement::runQuery()
{
    QSqlQuery &kept = query();
    if (!kept.exec()) {
        const QString error = kept.lastError().text();
        kept.finish();
        throw DbError(u"query failed: %1 in: %2"_s.arg(error, m_sql).toStdString());
    }
}

RawStatement::~RawStatement()
{
    // Safe after Qt closed the connection: SQLite keeps it until its last statement goes.
    sqlite3_finalize(m_statement);
}

sqlite3_stmt *RawStatement::statement()
{
    if (m_rowStarted)
        return m_statement;
    sqlite3 *connection = connectionOf(m_db);
    if (connection != m_connection || !m_statement) {
        sqlite3_finalize(m_statement);
        m_statement = nullptr;
        m_connection = connection;
        const QByteArray sql = m_sql.toUtf8();
        const int code = sqlite3_prepare_v3(m_connection, sql.constData(), int(sql.size()),
                                            SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr);
        if (code != SQLITE_OK)
            fail("prepare failed", code);
    }
    m_rowStarted = true;
    return m_statement;
}

void RawStatement::fail(const char *what, int code)
{
    const QString message = m_connection ? QString::fromUtf8(sqlite3_errmsg(m_connection))
                                         : QString::fromUtf8(sqlite3_errstr(code));
    if (m_statement) {
        sqlite3_reset(m_statement);
        sqlite3_clear_bindings(m_statement);
    }
    m_rowStarted = false;
    throw DbError(u"%1: %2 in: %3"_s.arg(QLatin1StringView(what), message, m_sql).toStdString());
}

void RawStatement::bind(int position, qint64 value)
{
    if (m_db.isPostgres())
        return query().bindValue(position - 1, value);
    const int code = sqlite3_bind_int64(statement(), position, value);
    if (code != SQLITE_OK)
        fail("bind failed", code);
}

void RawStatement::bindReal(int position, double value)
{
    if (m_db.isPostgres())
        return query().bindValue(position - 1, value);
    const int code = sqlite3_bind_double(statement(), position, value);
    if (code != SQLITE_OK)
        fail("bind failed", code);
}

void RawStatement::bind(int position, const QString &value)
{
    if (m_db.isPostgres())
        return query().bindValue(position - 1, value);
    const QByteArray text = value.toUtf8();
    const int code = sqlite3_bind_text(statement(), position, text.constData(), int(text.size()),
                                       SQLITE_TRANSIENT);
    if (code != SQLITE_OK)
        fail("bind failed", code);
}

void RawStatement::bindNull(int position)
{
    if (m_db.isPostgres())
        return query().bindValue(position - 1, QVariant(QMetaType(QMetaType::QString)));
    const int code = sqlite3_bind_null(statement(), position);
    if (code != SQLITE_OK)
        fail("bind failed", code);
}

void RawStatement::run()
{
    if (m_db.isPostgres()) {
        ++m_db.m_writeVersion;
        runQuery();
        m_query->finish();
        return;
    }
    sqlite3_stmt *stmt = statement();
    ++m_db.m_writeVersion; // before running: a failed write may still have changed rows
    int code = sqlite3_step(stmt);
    while (code == SQLITE_ROW)
        code = sqlite3_step(stmt);
    if (code != SQLITE_DONE)
        fail("query failed", code);
    // Reset at once: a statement left active would make the transaction's COMMIT fail.
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    m_rowStarted = false;
}

void RawStatement::forEachRow(const std::function<void(const RawStatement &)> &row)
{
    if (m_db.isPostgres()) {
        runQuery();
        try {
            while (m_query->next())
                row(*this);
        } catch (...) {
            m_query->finish();
            throw;
        }
        m_query->finish();
        return;
    }
    sqlite3_stmt *stmt = statement();
    int code = SQLITE_OK;
    try {
        while ((code = sqlite3_step(stmt)) == SQLITE_ROW)
            row(*this);
    } catch (...) {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
        m_rowStarted = false;
        throw;
    }
    if (code != SQLITE_DONE)
        fail("query failed", code);
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    m_rowStarted = false;
}

qint64 RawStatement::integer(int column) const
{
    if (m_query)
        return m_query->value(column).toLongLong();
    return sqlite3_column_int64(m_statement, column);
}

QByteArrayView RawStatement::utf8(int column) const
{
    if (m_query) {
        m_utf8 = m_query->value(column).toString().toUtf8();
        return m_utf8;
    }
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    return QByteArrayView(bytes, sqlite3_column_bytes(m_statement, column));
}

QString RawStatement::text(int column) const
{
    if (m_query)
        return m_query->value(column).toString();
    const auto *bytes = reinterpret_cast<const char *>(sqlite3_column_text(m_statement, column));
    return QString::fromUtf8(bytes, sqlite3_column_bytes(m_statement, column));
}

RawChunkedStatement::RawChunkedStatement(Database &db, std::function<QString(int rows)> sqlFor)
    : m_db(db), m_sqlFor(std::move(sqlFor))
{}

RawChunkedStatement::~RawChunkedStatement() = default;

RawStatement &RawChunkedStatement::forRows(int rows)
{
    static_assert(Database::kMaxRowsPerStatement == 1 << 6, "one kept statement per size");
    const unsigned size = unsigned(rows);
    if (!std::has_single_bit(size) || rows > Database::kMaxRowsPerStatement)
        throw DbError("a chunked statement's rows are a power of two up to the chunk size");
    std::unique_ptr<RawStatement> &kept = m_bySize[std::countr_zero(size)];
    if (!kept)
        kept = std::make_unique<RawStatement>(m_db, m_sqlFor(rows));
    return *kept;
}

} // namespace cardhour::sim
