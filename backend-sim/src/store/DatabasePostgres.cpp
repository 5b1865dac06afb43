// Database's PostgreSQL side: connecting, the write lock shared by every provider process on
// the database, and the notifications that tell one process what the others wrote.
#include "Database.h"

#include <QSqlDriver>
#include <QSqlError>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// Advisory lock keys (any two fixed numbers; "cardhour" in ASCII, then 1 and 2).
constexpr qint64 kWriteLock = 0x6361726468'01;
constexpr qint64 kMigrationLock = 0x6361726468'02;
// The one channel announcements travel on; a payload is "CHANNEL PAYLOAD".
constexpr auto kChannel = "cardhour";
constexpr auto kStoreWritten = "store";

void runOrThrow(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        throw DbError(u"%1 failed: %2"_s.arg(sql, query.lastError().text()).toStdString());
}
} // namespace

void Database::openPostgres(const StoreLocation &location)
{
    m_connectionName = u"cardhour-%1"_s.arg(s_connectionCounter.fetchAndAddRelaxed(1));
    m_db = QSqlDatabase::addDatabase(u"QPSQL"_s, m_connectionName);
    if (!m_db.isValid())
        throw DbError("Qt's PostgreSQL driver (QPSQL) is not installed (Debian: libqt6sql6-psql)");
    m_db.setHostName(location.host);
    m_db.setPort(location.port);
    m_db.setUserName(location.user);
    m_db.setPassword(location.password);
    m_db.setDatabaseName(location.database);
    m_db.setConnectOptions(u"connect_timeout=10;application_name=cardhour-sim"_s);
    if (!m_db.open())
        throw DbError(u"cannot open %1: %2"_s.arg(location.describe(), m_db.lastError().text())
                          .toStdString());
    runOrThrow(m_db, u"SET client_min_messages = warning"_s);
    // Two processes starting on one new database: one creates and migrates, the other waits.
    runOrThrow(m_db, u"SELECT pg_advisory_lock(%1)"_s.arg(kMigrationLock));
    try {
        if (!location.schema.isEmpty()) {
            runOrThrow(m_db, u"CREATE SCHEMA IF NOT EXISTS %1"_s.arg(location.schema));
            runOrThrow(m_db, u"SET search_path TO %1"_s.arg(location.schema));
        }
        // The shared write counter, moved on by every transaction that wrote (the migrations'
        // own included): outside them, since every transaction reads it.
        runOrThrow(m_db, u"CREATE TABLE IF NOT EXISTS store_writes (serial BIGINT NOT NULL)"_s);
        runOrThrow(
            m_db,
            u"INSERT INTO store_writes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM store_writes)"_s);
        applyMigrations(*this);
    } catch (...) {
        QSqlQuery(m_db).exec(u"SELECT pg_advisory_unlock(%1)"_s.arg(kMigrationLock));
        throw;
    }
    runOrThrow(m_db, u"SELECT pg_advisory_unlock(%1)"_s.arg(kMigrationLock));
    listenForOtherWriters();
    // What is read from here on is as new as this: a later write elsewhere makes it reload.
    QSqlQuery counter(m_db);
    if (!counter.exec(u"SELECT serial FROM store_writes"_s) || !counter.next())
        throw DbError(
            u"cannot read store_writes: %1"_s.arg(counter.lastError().text()).toStdString());
    m_sharedWrites = counter.value(0).toLongLong();
}

void Database::listenForOtherWriters()
{
    QSqlDriver *driver = m_db.driver();
    if (!driver->subscribeToNotification(QString::fromLatin1(kChannel)))
        throw DbError(u"LISTEN failed: %1"_s.arg(driver->lastError().text()).toStdString());
    QObject::connect(
        driver, &QSqlDriver::notification, driver,
        [this](const QString &, QSqlDriver::NotificationSource source, const QVariant &payload) {
            if (source == QSqlDriver::SelfSource)
                return;
            const QString text = payload.toString();
            const qsizetype space = text.indexOf(u' ');
            const QString channel = space < 0 ? text : text.first(space);
            const QString rest = space < 0 ? QString() : text.sliced(space + 1);
            if (channel == QLatin1StringView(kStoreWritten)) {
                // What is kept in memory beside the tables reloads, as after a rollback.
                ++m_rollbacks;
                ++m_writeVersion;
            }
            for (const auto &hook : m_announcedHooks)
                hook(channel, rest);
        });
}

void Database::beginShared()
{
    QSqlQuery query(m_db);
    if (!query.exec(u"SELECT pg_advisory_xact_lock(%1)"_s.arg(kWriteLock))
        || !query.exec(u"SELECT serial FROM store_writes"_s) || !query.next()) {
        const QString error = query.lastError().text();
        QSqlQuery(m_db).exec(u"ROLLBACK"_s);
        m_depth = 0;
        throw DbError(u"BEGIN failed: %1"_s.arg(error).toStdString());
    }
    const qint64 shared = query.value(0).toLongLong();
    if (shared != m_sharedWrites) {
        // Another process committed since this one last looked: nothing kept in memory
        // (open segments, known tokens, serialised views) may be trusted any longer.
        ++m_rollbacks;
        ++m_writeVersion;
        m_sharedWrites = shared;
    }
    m_writeVersionAtBegin = m_writeVersion;
}

bool Database::commitShared(QSqlQuery &query)
{
    if (m_writeVersion == m_writeVersionAtBegin)
        return true; // read only
    if (!query.exec(u"UPDATE store_writes SET serial = serial + 1 RETURNING serial"_s)
        || !query.next())
        return false;
    m_sharedWrites = query.value(0).toLongLong();
    return query.exec(u"SELECT pg_notify('%1', '%2')"_s.arg(QLatin1StringView(kChannel),
                                                            QLatin1StringView(kStoreWritten)));
}

void Database::announce(const QString &channel, const QString &payload)
{
    if (!isPostgres())
        return;
    QSqlQuery query(m_db);
    query.prepare(u"SELECT pg_notify(?, ?)"_s);
    query.addBindValue(QString::fromLatin1(kChannel));
    query.addBindValue(channel + u' ' + payload);
    if (!query.exec())
        throw DbError(u"NOTIFY failed: %1"_s.arg(query.lastError().text()).toStdString());
}

void Database::onAnnounced(std::function<void(const QString &, const QString &)> hook)
{
    m_announcedHooks.push_back(std::move(hook));
}

qint64 Database::insertReturningId(const QString &sql, std::initializer_list<QVariant> bindings)
{
    if (!isPostgres())
        return write(sql, bindings).lastInsertId.toLongLong();
    if (m_depth == 0) {
        Transaction tx(*this);
        const qint64 id = insertReturningId(sql, bindings);
        tx.commit();
        return id;
    }
    QVariant id;
    const std::shared_ptr<Statement> kept = statement(sql + u" RETURNING id"_s);
    bind(kept->query, bindings);
    ++m_writeVersion;
    run(kept->query, sql);
    if (kept->query.next())
        id = kept->query.value(0);
    kept->query.finish();
    if (!id.isValid())
        throw DbError(u"no id returned by: %1"_s.arg(sql).toStdString());
    return id.toLongLong();
}

} // namespace cardhour::sim
