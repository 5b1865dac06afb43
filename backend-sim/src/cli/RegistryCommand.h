#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace cardhour::sim::registry_command {

// What the operator commands of the folder registries (`cardhour-sim datasets`, `models`)
// share: their options, the data folder they write in, sizes printed alike.

// Removes `--name VALUE` from args into *value (left alone when absent); false if VALUE is
// missing.
bool takeOption(QStringList &args, const QString &name, QString *value);
// Makes the data folder; false with the reason printed on `err`.
bool makeDataDir(const QString &dataDir, QTextStream &err);
QString humanSize(qint64 bytes);
// Prints "cardhour-sim: <error>" and returns 1, the exit code of a failed command.
int fail(QTextStream &err, const QString &error);

} // namespace cardhour::sim::registry_command
