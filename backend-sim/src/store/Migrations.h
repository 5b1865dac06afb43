#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class Database;

namespace migrations {

struct Migration
{
    int version;
    QString description;
    QStringList statements;
};

// Every schema change ever made, in order. Append only: never edit a released migration.
const QList<Migration> &all();

// Creates `schema_version` if needed and applies each missing migration in its own
// transaction, recording it in the same transaction. Throws DbError.
void apply(Database &db);

} // namespace migrations
} // namespace cardhour::sim
