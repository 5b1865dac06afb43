#include "cli/ImagesCommand.h"

#include "cli/EngineOptions.h"
#include "runtime/ImageBuildStatus.h"
#include "runtime/ImageBuilder.h"
#include "service/Catalog.h"
#include "service/Datasets.h"
#include "service/SampleDatasets.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QLocale>
#include <QSet>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <exception>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

QString imageSizeText(qint64 bytes)
{
    if (bytes <= 0)
        return u"-"_s;
    if (bytes >= 1000LL * 1000 * 1000)
        return u"%1 GB"_s.arg(double(bytes) / 1e9, 0, 'f', 2);
    return u"%1 MB"_s.arg(double(bytes) / 1e6, 0, 'f', 0);
}

QString clip(const QString &line, qsizetype width = 200)
{
    return line.size() <= width ? line : line.left(width - 1) + QChar(0x2026);
}

QString seconds(qint64 ms)
{
    return u"%1 s"_s.arg(double(ms) / 1000.0, 0, 'f', 1);
}

QStringList catalogIds(const QString &catalogDir, QTextStream &err)
{
    QStringList ids;
    try {
        const Catalog catalog = catalogDir.isEmpty() ? Catalog::load() : Catalog::load(catalogDir);
        for (const ImageEntry &image : catalog.images())
            ids.append(image.id);
    } catch (const std::exception &error) {
        err << "cardhour-sim images: " << QString::fromUtf8(error.what()) << Qt::endl;
    }
    return ids;
}

// `ids`: the catalog's, then the recipes' (each listed once).
int listImages(const ImageBuilder &builder, const QStringList &ids, QTextStream &out)
{
    struct Row
    {
        QString id, status, size, built, note;
    };
    QList<Row> rows;
    QSet<QString> rootsSeen;
    QStringList roots;
    bool anyError = false;
    QSet<QString> listed;
    for (const QString &id : ids) {
        if (listed.contains(id))
            continue;
        listed.insert(id);
        const ImageInfo info = builder.inspector().inspect(id);
        Row row{id, imageStatusName(info.status), imageSizeText(info.size),
                info.created.isValid() ? info.created.toLocalTime().toString(u"yyyy-MM-dd HH:mm"_s)
                                       : u"-"_s,
                info.error.isEmpty() ? info.reason : info.error};
        if (!info.error.isEmpty()) {
            row.status = u"unknown"_s;
            anyError = true;
        }
        rows.append(row);
        for (const ImageRecipe &step : builder.recipes().chain(id)) {
            const QString root = builder.recipes().rootTag(step);
            if (!root.isEmpty() && !rootsSeen.contains(root)) {
                rootsSeen.insert(root);
                roots.append(root);
            }
        }
    }
    const Row header{u"ID"_s, u"STATUS"_s, u"SIZE"_s, u"BUILT AT"_s, u"NOTE"_s};
    qsizetype w[4] = {header.id.size(), header.status.size(), header.size.size(),
                      header.built.size()};
    for (const Row &row : std::as_const(rows)) {
        w[0] = std::max(w[0], row.id.size());
        w[1] = std::max(w[1], row.status.size());
        w[2] = std::max(w[2], row.size.size());
        w[3] = std::max(w[3], row.built.size());
    }
    auto print = [&](const Row &row) {
        out << row.id.leftJustified(w[0] + 2) << row.status.leftJustified(w[1] + 2)
            << row.size.rightJustified(w[2]) << u"  "_s << row.built.leftJustified(w[3] + 2)
            << row.note;
        out << Qt::endl;
    };
    print(header);
    for (const Row &row : std::as_const(rows))
        print(row);
    for (const QString &root : std::as_const(roots))
        out << "root image " << root << ": "
            << (builder.inspector().imageExists(root) ? "present" : "missing (made when needed)")
            << Qt::endl;
    out << "images are tagged " << builder.recipes().tag(u"ID"_s) << ", recipes in "
        << builder.recipes().imagesDir() << Qt::endl;
    return anyError ? 1 : 0;
}

// One `images build`: what each image did, printed as it goes and summed up at the end.
class BuildRun
{
public:
    BuildRun(const QStringList &ids, ImageBuildStatus &status, bool verbose, QTextStream &out,
             QTextStream &err)
        : m_pending(ids.cbegin(), ids.cend()), m_status(status), m_verbose(verbose), m_out(out),
          m_err(err)
    {}

    void progress(const QString &id, const QString &stage, const QString &line);
    // true once every image asked for has finished.
    bool finished(const QString &id, bool ok, const QString &error);
    int summary(qint64 totalMs) const;

private:
    using State = ImageBuildStatus::State;
    struct Result
    {
        QString id;
        bool ok = false;
        bool built = false;
        qint64 ms = 0;
        qint64 bootstrapMs = -1;
        QString error;
    };

    void bootstrapLine(const QString &id, const QString &line);
    void current(const QString &id, const QString &line);

    QSet<QString> m_pending;
    QHash<QString, QElapsedTimer> m_started; // per image, since its first progress
    QHash<QString, QElapsedTimer> m_bootstrap; // while the root image is being made
    QHash<QString, qint64> m_bootstrapMs;
    QHash<QString, bool> m_built;
    QList<Result> m_results;
    ImageBuildStatus &m_status;
    bool m_verbose;
    QTextStream &m_out;
    QTextStream &m_err;
};

void BuildRun::bootstrapLine(const QString &id, const QString &line)
{
    if (!m_bootstrap.contains(id))
        m_bootstrap[id].start();
    // The script's own lines, errors and warnings; debootstrap's chatter only with -v.
    if (m_verbose || line.startsWith(u"bootstrap-debian:"_s)
        || line.startsWith(u"making the root"_s) || line.startsWith(u"E:"_s)
        || line.startsWith(u"W:"_s))
        m_out << '[' << id << "] " << clip(line) << Qt::endl;
}

void BuildRun::current(const QString &id, const QString &line)
{
    m_status.set(id, State::Built);
    m_out << '[' << id << "] " << line << ", nothing to do" << Qt::endl;
    // An image something requested is built on: no finished of its own, but a summary row.
    const bool listed = std::any_of(m_results.cbegin(), m_results.cend(),
                                    [&](const Result &r) { return r.id == id; });
    if (!m_pending.contains(id) && !listed) {
        m_results.append({id, true, false, m_started.value(id).elapsed(), -1, {}});
        m_started.remove(id);
    }
}

void BuildRun::progress(const QString &id, const QString &stage, const QString &line)
{
    if (!m_started.contains(id))
        m_started[id].start();
    if (stage == u"bootstrap"_s)
        return bootstrapLine(id, line);
    if (m_bootstrap.contains(id) && !m_bootstrapMs.contains(id))
        m_bootstrapMs.insert(id, m_bootstrap.value(id).elapsed());
    if (stage == u"start"_s) {
        m_built[id] = true;
        m_status.set(id, State::Building);
        m_out << '[' << id << "] " << line << Qt::endl;
    } else if (stage == u"step"_s) {
        m_out << '[' << id << "] " << clip(line) << Qt::endl;
    } else if (stage == u"current"_s) {
        current(id, line);
    } else if (m_verbose && (stage == u"output"_s || stage == u"commit"_s)) {
        m_out << '[' << id << "]   " << line << Qt::endl;
    }
}

bool BuildRun::finished(const QString &id, bool ok, const QString &error)
{
    Result result;
    result.id = id;
    result.ok = ok;
    result.built = m_built.value(id);
    result.ms = m_started.contains(id) ? m_started.value(id).elapsed() : 0;
    result.bootstrapMs =
        m_bootstrapMs.value(id, m_bootstrap.contains(id) ? m_bootstrap.value(id).elapsed() : -1);
    result.error = error;
    m_results.append(result);
    m_status.set(id, ok ? State::Built : State::Failed, error);
    m_started.remove(id);
    m_bootstrap.remove(id);
    m_bootstrapMs.remove(id);
    m_built.remove(id);
    if (ok)
        m_out << '[' << id << "] " << (result.built ? "built in " : "checked in ")
              << seconds(result.ms) << Qt::endl;
    else
        m_err << '[' << id << "] FAILED: " << error << Qt::endl;
    m_pending.remove(id);
    return m_pending.isEmpty();
}

int BuildRun::summary(qint64 totalMs) const
{
    bool allOk = true;
    m_out << Qt::endl << "summary:" << Qt::endl;
    qsizetype width = 2;
    for (const Result &result : std::as_const(m_results))
        width = std::max(width, result.id.size() + 2);
    for (const Result &result : std::as_const(m_results)) {
        allOk = allOk && result.ok;
        const QString state = !result.ok ? u"FAILED"_s : result.built ? u"built"_s : u"current"_s;
        m_out << "  " << result.id.leftJustified(width) << state.leftJustified(9)
              << seconds(result.ms).rightJustified(9);
        if (result.bootstrapMs >= 0)
            m_out << "  (root image made in " << seconds(result.bootstrapMs) << ')';
        if (!result.ok)
            m_out << "  " << clip(result.error.section(u'\n', 0, 0), 120);
        m_out << Qt::endl;
    }
    m_out << "  total " << seconds(totalMs) << Qt::endl;
    return allOk ? 0 : 1;
}

int buildImages(ImageBuilder &builder, const QStringList &ids, ImageBuildStatus &status,
                bool verbose, QTextStream &out, QTextStream &err)
{
    QEventLoop loop;
    QElapsedTimer total;
    total.start();
    BuildRun run(ids, status, verbose, out, err);
    QStringList chainIds; // what the requested images are built on, too: a launch may want those
    for (const QString &id : ids) {
        for (const ImageRecipe &step : builder.recipes().chain(id)) {
            if (!chainIds.contains(step.id))
                chainIds.append(step.id);
        }
    }
    status.begin(chainIds);
    QTimer heartbeat;
    heartbeat.setInterval(ImageBuildStatus::refreshIntervalMs());
    QObject::connect(&heartbeat, &QTimer::timeout, &loop, [&status] { status.refresh(); });
    heartbeat.start();
    QObject::connect(&builder, &ImageBuilder::progress, &loop,
                     [&run](const QString &id, const QString &stage, int, int,
                            const QString &line) { run.progress(id, stage, line); });
    QObject::connect(&builder, &ImageBuilder::finished, &loop,
                     [&run, &loop](const QString &id, bool ok, const QString &error) {
                         if (run.finished(id, ok, error))
                             loop.quit();
                     });
    for (const QString &id : ids)
        builder.build(id);
    loop.exec();
    heartbeat.stop();
    status.end();
    return run.summary(total.elapsed());
}

// The apps' sample datasets, made as soon as their images exist, into the sandbox's own data
// folder: a sandbox that is running meanwhile (a first run) sees them without a restart.
// false when one could not be made.
bool makeSampleDatasets(const ImageBuilder::Options &options, const QString &dataDir,
                        const QString &catalogDir, QTextStream &out, QTextStream &err)
{
    SampleDatasets::Options sampleOptions;
    sampleOptions.program = options.podman;
    sampleOptions.containersConf = options.containersConf;
    sampleOptions.tagPrefix = options.tagPrefix;
    sampleOptions.dataDir = dataDir;
    Datasets datasets(sampleOptions.dataDir);
    bool failed = false;
    try {
        const Catalog catalog = catalogDir.isEmpty() ? Catalog::load() : Catalog::load(catalogDir);
        const QStringList made = SampleDatasets(sampleOptions, datasets)
                                     .ensure(SampleDatasets::declaredBy(catalog), false, &failed);
        for (const QString &line : made)
            out << line << Qt::endl;
    } catch (const std::exception &e) {
        err << "cardhour-sim images: sample datasets: " << e.what() << Qt::endl;
        failed = true;
    }
    return !failed;
}

// The help, asked for (on stdout: 0) or because no command was given (on stderr: 2).
int usage(const QCommandLineParser &parser, bool asked, QTextStream &out, QTextStream &err)
{
    QString help = parser.helpText();
    help.replace(0, help.indexOf(u'\n'),
                 u"Usage: cardhour-sim images [options] list | build ID... | build --all"_s);
    (asked ? out : err) << help;
    return asked ? 0 : 2;
}

ImageBuilder::Options builderOptions(const EngineOptions &engine, const QCommandLineParser &parser,
                                     const QString &containersConf, const QString &imagesDir)
{
    ImageBuilder::Options options;
    options.podman = engine.podman(parser);
    options.containersConf = engine.containersConf(parser, containersConf);
    options.imagesDir = imagesDir;
    options.tagPrefix = engine.tagPrefix(parser);
    return options;
}

// Whether every image asked for has a recipe (and so does what it is built on).
bool recipesFound(const ImageBuilder &builder, const QStringList &ids, QTextStream &err)
{
    for (const QString &id : ids) {
        QString error;
        if (builder.recipes().chain(id, &error).isEmpty()) {
            err << "cardhour-sim images: " << error << Qt::endl;
            return false;
        }
    }
    return true;
}

// The ids `build` was given (or every recipe's with --all), each once; empty after a message
// when there are none or they conflict.
QStringList idsToBuild(const QStringList &positional, bool all, const QStringList &recipes,
                       QTextStream &err)
{
    QStringList ids;
    if (all) {
        if (positional.size() > 1) {
            err << "cardhour-sim images: give image ids or --all, not both" << Qt::endl;
            return {};
        }
        ids = recipes;
    } else {
        for (const QString &id : positional.mid(1)) {
            if (!ids.contains(id))
                ids.append(id);
        }
    }
    if (ids.isEmpty())
        err << "cardhour-sim images: build what? Give image ids (" << recipes.join(u", "_s)
            << ") or --all" << Qt::endl;
    return ids;
}

} // namespace

int runImagesCommand(const QStringList &args, const QString &containersConf,
                     const QString &defaultDataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Build and list the container images behind the catalog's image ids."_s);
    const QCommandLineOption imagesOption(
        u"images"_s,
        u"Directory of image recipes (default: %1)."_s.arg(ImageRecipes::defaultImagesDir()),
        u"DIR"_s);
    const EngineOptions engine;
    const QCommandLineOption catalogOption(
        u"catalog"_s, u"Directory with images.json (default: built in)."_s, u"DIR"_s);
    const QCommandLineOption allOption(u"all"_s, u"build: every image that has a recipe."_s);
    const QCommandLineOption verboseOption({u"v"_s, u"verbose"_s},
                                           u"build: show all build output."_s);
    const QCommandLineOption dataOption(
        u"data"_s,
        u"build: the sandbox's data folder, where progress is written for launches that wait "
        "(default: %1)."_s.arg(defaultDataDir),
        u"DIR"_s, defaultDataDir);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({imagesOption, dataOption});
    engine.addTo(&parser);
    parser.addOptions({catalogOption, allOption, verboseOption, helpOption});
    parser.addPositionalArgument(u"command"_s, u"list | build"_s);
    parser.addPositionalArgument(u"ids"_s, u"build: image ids (or --all)"_s, u"[ID...]"_s);

    if (!parser.parse(QStringList{u"cardhour-sim images"_s} + args)) {
        err << "cardhour-sim images: " << parser.errorText() << Qt::endl;
        return 2;
    }
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(helpOption) || positional.isEmpty())
        return usage(parser, parser.isSet(helpOption), out, err);

    const ImageBuilder::Options options =
        builderOptions(engine, parser, containersConf, parser.value(imagesOption));
    ImageBuilder builder(options);

    const QString command = positional.first();
    if (command != u"list"_s && command != u"build"_s) {
        err << "cardhour-sim images: unknown command \"" << command << "\" (list or build)"
            << Qt::endl;
        return 2;
    }
    if (const QString problem = builder.inspector().podmanProblem(); !problem.isEmpty()) {
        err << "cardhour-sim images: podman does not work here: " << problem << Qt::endl;
        return 1;
    }

    const QStringList recipes = builder.recipes().recipeIds();
    if (command == u"list"_s) {
        if (positional.size() > 1 || parser.isSet(allOption)) {
            err << "cardhour-sim images: list takes no ids" << Qt::endl;
            return 2;
        }
        return listImages(builder, catalogIds(parser.value(catalogOption), err) + recipes, out);
    }

    const QStringList ids = idsToBuild(positional, parser.isSet(allOption), recipes, err);
    if (ids.isEmpty())
        return 2;
    if (!recipesFound(builder, ids, err))
        return 2;
    ImageBuildStatus status(parser.value(dataOption), options.tagPrefix);
    const int result = buildImages(builder, ids, status, parser.isSet(verboseOption), out, err);
    if (!parser.isSet(dataOption))
        return result;
    const bool samplesMade = makeSampleDatasets(options, parser.value(dataOption),
                                                parser.value(catalogOption), out, err);
    return result != 0 ? result : samplesMade ? 0 : 1;
}

} // namespace cardhour::sim
