#include "cli/ModelsCommand.h"

#include "service/Catalog.h"
#include "service/Models.h"

#include <QDir>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

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

int usage(QTextStream &err)
{
    err << "usage: cardhour-sim models list | add NAME DIR [--task T] [--languages a,b]"
           " [--licence L] [--description TEXT] | rm NAME  [--data DIR] [--catalog DIR]\n";
    return 2;
}

// Removes `--name VALUE` from args; false if the value is missing.
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

} // namespace

int runModelsCommand(const QStringList &argsIn, const QString &defaultDataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = argsIn;
    QString dataDir = defaultDataDir;
    QString catalogDir = u":/catalog"_s;
    QString task = u"custom"_s;
    QString languages;
    QString licence;
    QString description;
    if (!takeOption(args, u"--data"_s, &dataDir) || !takeOption(args, u"--catalog"_s, &catalogDir)
        || !takeOption(args, u"--task"_s, &task) || !takeOption(args, u"--languages"_s, &languages)
        || !takeOption(args, u"--licence"_s, &licence)
        || !takeOption(args, u"--description"_s, &description) || args.isEmpty())
        return usage(err);
    if (!QDir().mkpath(dataDir)) {
        err << "cardhour-sim: cannot make the data folder " << dataDir << "\n";
        return 1;
    }
    try {
        Catalog::load(catalogDir); // registers the built-in catalog's resources too
    } catch (const std::exception &e) {
        err << "cardhour-sim: " << e.what() << "\n";
        return 1;
    }
    Models models(dataDir, Models::catalogFileIn(catalogDir));
    const QString verb = args.takeFirst();
    QString error;
    if (verb == u"list"_s && args.isEmpty()) {
        if (!models.refreshInstalled(&error)) {
            err << "cardhour-sim: " << error << "\n";
            return 1;
        }
        const QList<Models::Model> all = models.list();
        if (all.isEmpty())
            out << "no models (install a model package, or: cardhour-sim models add NAME DIR)\n";
        for (const Models::Model &m : all)
            out << qSetFieldWidth(22) << Qt::left << m.name << qSetFieldWidth(18) << m.task
                << qSetFieldWidth(12) << humanSize(m.sizeBytes) << qSetFieldWidth(0)
                << m.sha256.left(16) << "  "
                << (m.licence.isEmpty() ? u"licence unknown"_s : m.licence) << "  "
                << (m.sourcePackage.isEmpty() ? m.path : u"package "_s + m.sourcePackage) << "\n";
        return 0;
    }
    if (verb == u"add"_s && args.size() == 2) {
        Models::Model m;
        m.name = args.at(0);
        m.path = args.at(1);
        m.task = task;
        m.languages = languages.split(u',', Qt::SkipEmptyParts);
        m.licence = licence;
        m.description = description;
        if (!models.add(m, &error)) {
            err << "cardhour-sim: " << error << "\n";
            return 1;
        }
        const Models::Model added = *models.find(m.name);
        out << "model " << added.name << ": " << added.path << ", " << humanSize(added.sizeBytes)
            << " in " << added.files << " files, sha256 " << added.sha256
            << "; instances that ask for it see it read-only at /models/" << added.name << "\n";
        return 0;
    }
    if ((verb == u"rm"_s || verb == u"remove"_s) && args.size() == 1) {
        if (!models.remove(args.at(0), &error)) {
            err << "cardhour-sim: " << error << "\n";
            return 1;
        }
        out << "model " << args.at(0)
            << " removed (its folder is untouched; running instances keep their mount)\n";
        return 0;
    }
    return usage(err);
}

} // namespace cardhour::sim
