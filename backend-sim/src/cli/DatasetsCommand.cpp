#include "cli/DatasetsCommand.h"

#include "cli/EngineOptions.h"
#include "cli/RegistryCommand.h"
#include "service/Catalog.h"
#include "service/Datasets.h"
#include "service/SampleDatasets.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <exception>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

using namespace registry_command;

namespace {

int datasetsUsage(QTextStream &err)
{
    err << "usage: cardhour-sim datasets list | add NAME DIR | remove NAME\n"
           "       cardhour-sim datasets make [--force] [--podman PATH] [--containers-conf FILE]"
           " [--tag-prefix PREFIX]\n"
           "  every verb takes [--data DIR]\n";
    return 2;
}

} // namespace

int runDatasetsCommand(const QStringList &argsIn, const QString &defaultDataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = argsIn;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        datasetsUsage(out); // asked for: on stdout, and a success
        return 0;
    }
    QString dataDir = defaultDataDir;
    if (!takeOption(args, u"--data"_s, &dataDir) || args.isEmpty())
        return datasetsUsage(err);
    if (!makeDataDir(dataDir, err))
        return 1;
    Datasets datasets(dataDir);
    const QString verb = args.takeFirst();
    QString error;
    if (verb == u"list"_s && args.isEmpty()) {
        const QList<Datasets::Dataset> all = datasets.list();
        if (all.isEmpty())
            out << "no datasets (add one with: cardhour-sim datasets add NAME DIR)\n";
        for (const Datasets::Dataset &d : all)
            out << qSetFieldWidth(20) << Qt::left << d.name << qSetFieldWidth(12)
                << humanSize(d.sizeBytes) << qSetFieldWidth(10) << u"%1 files"_s.arg(d.files)
                << qSetFieldWidth(0) << "  " << d.path << "\n";
        return 0;
    }
    if (verb == u"add"_s && args.size() == 2) {
        if (!datasets.add(args.at(0), args.at(1), &error))
            return fail(err, error);
        const Datasets::Dataset d = *datasets.find(args.at(0));
        out << "dataset " << d.name << ": " << d.path << ", " << humanSize(d.sizeBytes) << " in "
            << d.files << " files; instances that ask for it see it read-only at /datasets/"
            << d.name << "\n";
        return 0;
    }
    if (verb == u"remove"_s && args.size() == 1) {
        if (!datasets.remove(args.at(0), &error))
            return fail(err, error);
        out << "dataset " << args.at(0)
            << " removed (its folder is untouched; running instances keep their mount)\n";
        return 0;
    }
    if (verb == u"make"_s) {
        // The same engine options as `images` and `doctor`, so a sandbox whose images carry
        // another tag prefix, or need a containers.conf, is made for in the same words.
        QCommandLineParser parser;
        const EngineOptions engine;
        engine.addTo(&parser);
        const QCommandLineOption forceOption(u"force"_s, u"Make them again."_s);
        parser.addOption(forceOption);
        if (!parser.parse(QStringList{u"cardhour-sim datasets make"_s} + args)
            || !parser.positionalArguments().isEmpty()) {
            err << "cardhour-sim datasets make: "
                << (parser.errorText().isEmpty() ? u"unexpected "_s + args.join(u' ')
                                                 : parser.errorText())
                << "\n";
            return datasetsUsage(err);
        }
        SampleDatasets::Options options;
        options.dataDir = dataDir;
        options.program = engine.podman(parser);
        options.containersConf =
            engine.containersConf(parser, qEnvironmentVariable("CONTAINERS_CONF"));
        options.tagPrefix = engine.tagPrefix(parser);
        try {
            bool failed = false;
            const QStringList report = SampleDatasets(options, datasets)
                                           .ensure(SampleDatasets::declaredBy(Catalog::load()),
                                                   parser.isSet(forceOption), &failed);
            for (const QString &line : report)
                out << line << "\n";
            return failed ? 1 : 0;
        } catch (const std::exception &e) {
            return fail(err, QString::fromUtf8(e.what()));
        }
    }
    return datasetsUsage(err);
}

} // namespace cardhour::sim
