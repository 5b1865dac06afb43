#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

namespace migrations {

struct Migration
{
    int version;
    QString description;
    QStringList statements;
};

// Every schema change ever made, in order. Append only: never edit a released migration.
const QList<Migration> &all();

} // namespace migrations
} // namespace cardhour::sim
