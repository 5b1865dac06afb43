#include "cli/ModelsCommand.h"

#include "cli/RegistryCommand.h"
#include "service/Catalog.h"
#include "service/Models.h"

#include <QTextStream>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

using namespace registry_command;

namespace {

int modelsUsage(QTextStream &err)
{
    err << "usage: cardhour-sim models list | add NAME DIR [--task T] [--languages a,b]"
           " [--licence L] [--description TEXT] | rm NAME  [--data DIR] [--catalog DIR]\n";
    return 2;
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
        return modelsUsage(err);
    if (!makeDataDir(dataDir, err))
        return 1;
    try {
        Catalog::load(catalogDir); // registers the built-in catalog's resources too
    } catch (const std::exception &e) {
        return fail(err, QString::fromUtf8(e.what()));
    }
    Models models(dataDir, Models::catalogFileIn(catalogDir));
    const QString verb = args.takeFirst();
    QString error;
    if (verb == u"list"_s && args.isEmpty()) {
        if (!models.refreshInstalled(&error))
            return fail(err, error);
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
        if (!models.add(m, &error))
            return fail(err, error);
        const Models::Model added = *models.find(m.name);
        out << "model " << added.name << ": " << added.path << ", " << humanSize(added.sizeBytes)
            << " in " << added.files << " files, sha256 " << added.sha256
            << "; instances that ask for it see it read-only at /models/" << added.name << "\n";
        return 0;
    }
    if ((verb == u"rm"_s || verb == u"remove"_s) && args.size() == 1) {
        if (!models.remove(args.at(0), &error))
            return fail(err, error);
        out << "model " << args.at(0)
            << " removed (its folder is untouched; running instances keep their mount)\n";
        return 0;
    }
    return modelsUsage(err);
}

} // namespace cardhour::sim
