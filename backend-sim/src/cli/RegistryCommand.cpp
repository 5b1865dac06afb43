#include "cli/RegistryCommand.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace cardhour::sim::registry_command {

bool takeOption(QStringList &args, const QString &name, QString *value)
{
    const qsizetype at = args.indexOf(name);
    if (at < 0)
        return true;
    if (at + 1 >= args.size())
        return false;
    *value = args.at(at + 1);
    args.remove(at, 2);
    return true;
}

bool makeDataDir(const QString &dataDir, QTextStream &err)
{
    if (QDir().mkpath(dataDir))
        return true;
    err << "cardhour-sim: cannot make the data folder " << dataDir << "\n";
    return false;
}

QString humanSize(qint64 bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    return unit == 0 ? u"%1 B"_s.arg(bytes)
                     : u"%1 %2"_s.arg(value, 0, 'f', 1).arg(QLatin1StringView(units[unit]));
}

int fail(QTextStream &err, const QString &error)
{
    err << "cardhour-sim: " << error << "\n";
    return 1;
}

} // namespace cardhour::sim::registry_command
