#include "cli/DatasetsCommand.h"

#include "service/Catalog.h"
#include "service/Datasets.h"
#include "service/SampleDatasets.h"

#include <QDir>
#include <QTextStream>

#include <exception>

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
    err << "usage: cardhour-sim datasets list | add NAME DIR | remove NAME | make [--force]"
           "  [--data DIR]\n";
    return 2;
}

} // namespace

int runDatasetsCommand(const QStringList &argsIn, const QString &defaultDataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = argsIn;
    QString dataDir = defaultDataDir;
    const qsizetype dataAt = args.indexOf(u"--data"_s);
    if (dataAt >= 0) {
        if (dataAt + 1 >= args.size())
            return usage(err);
        dataDir = args.at(dataAt + 1);
        args.remove(dataAt, 2);
    }
    if (args.isEmpty())
        return usage(err);
    if (!QDir().mkpath(dataDir)) {
        err << "cardhour-sim: cannot make the data folder " << dataDir << "\n";
        return 1;
    }
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
        if (!datasets.add(args.at(0), args.at(1), &error)) {
            err << "cardhour-sim: " << error << "\n";
            return 1;
        }
        const Datasets::Dataset d = *datasets.find(args.at(0));
        out << "dataset " << d.name << ": " << d.path << ", " << humanSize(d.sizeBytes) << " in "
            << d.files << " files; instances that ask for it see it read-only at /datasets/"
            << d.name << "\n";
        return 0;
    }
    if (verb == u"remove"_s && args.size() == 1) {
        if (!datasets.remove(args.at(0), &error)) {
            err << "cardhour-sim: " << error << "\n";
            return 1;
        }
        out << "dataset " << args.at(0)
            << " removed (its folder is untouched; running instances keep their mount)\n";
        return 0;
    }
    if (verb == u"make"_s && (args.isEmpty() || args == QStringList{u"--force"_s})) {
        SampleDatasets::Options options;
        options.dataDir = dataDir;
        options.program = qEnvironmentVariable("PODMAN", u"podman"_s);
        try {
            bool failed = false;
            const QStringList report =
                SampleDatasets(options, datasets)
                    .ensure(SampleDatasets::declaredBy(Catalog::load()), !args.isEmpty(), &failed);
            for (const QString &line : report)
                out << line << "\n";
            return failed ? 1 : 0;
        } catch (const std::exception &error) {
            err << "cardhour-sim: " << QString::fromUtf8(error.what()) << "\n";
            return 1;
        }
    }
    return usage(err);
}

} // namespace cardhour::sim
