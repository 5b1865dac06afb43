#include "cli/DoctorCommand.h"

#include "cli/EngineOptions.h"
#include "runtime/Doctor.h"
#include "runtime/Process.h"
#include "service/Catalog.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTextStream>

#include <algorithm>
#include <exception>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

QString tagOf(DoctorCheck::Status status)
{
    switch (status) {
    case DoctorCheck::Ok:
        return u"[ ok ]"_s;
    case DoctorCheck::Warning:
        return u"[warn]"_s;
    case DoctorCheck::Problem:
        return u"[FAIL]"_s;
    case DoctorCheck::Skipped:
        return u"[skip]"_s;
    }
    return u"[ ?? ]"_s;
}

// Containers and volumes the data directory's provider made whose instance its database does
// not know (an older database restored, say): reconcile stops them and keeps them, and here
// the user learns of them.
DoctorCheck quarantineCheck(const QString &dataDir, const Doctor::Options &options)
{
    DoctorCheck check;
    check.name = u"quarantine"_s;
    QFile idFile(QDir(dataDir).filePath(u"provider-id"_s));
    const QString dbPath = QDir(dataDir).filePath(u"cardhour-sim.sqlite"_s);
    if (dataDir.isEmpty() || !idFile.open(QIODevice::ReadOnly) || !QFile::exists(dbPath)) {
        check.status = DoctorCheck::Skipped;
        check.detail = u"no provider has run with %1"_s.arg(QDir::toNativeSeparators(dataDir));
        return check;
    }
    const QString providerId = QString::fromLatin1(idFile.readAll()).trimmed();
    QSet<QString> known;
    bool readable = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"doctor-quarantine"_s);
        db.setDatabaseName(dbPath);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
        if (db.open()) {
            QSqlQuery q(db);
            readable = q.exec(u"SELECT id FROM instances"_s);
            while (readable && q.next())
                known.insert(q.value(0).toString());
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(u"doctor-quarantine"_s);
    if (!readable) {
        check.status = DoctorCheck::Skipped;
        check.detail = u"cannot read %1"_s.arg(QDir::toNativeSeparators(dbPath));
        return check;
    }
    Process::Options run;
    run.environment = containersEnvironment(options.containersConf, InheritedConf::Drop);
    run.timeoutMs = options.timeoutMs;
    const QString filter = u"label=cardhour.provider="_s + providerId;
    const ProcessResult containers =
        Process::run(options.podman,
                     {u"ps"_s, u"-a"_s, u"--filter"_s, filter, u"--format"_s,
                      u"{{index .Labels \"cardhour.instance\"}}"_s},
                     run);
    const ProcessResult volumes = Process::run(
        options.podman,
        {u"volume"_s, u"ls"_s, u"--filter"_s, filter, u"--format"_s, u"{{.Name}}"_s}, run);
    if (!containers.ok() || !volumes.ok()) {
        check.status = DoctorCheck::Skipped;
        check.detail = u"podman cannot list the containers and volumes"_s;
        return check;
    }
    QStringList unknown;
    for (const QByteArray &line : containers.out.split('\n')) {
        const QString id = QString::fromUtf8(line.trimmed());
        if (!id.isEmpty() && !known.contains(id) && !unknown.contains(id))
            unknown.append(id);
    }
    for (const QByteArray &line : volumes.out.split('\n')) {
        const QString name = QString::fromUtf8(line.trimmed());
        const QString id = name.startsWith(u"cardhour-ws-"_s) ? name.mid(12) : QString();
        if (!id.isEmpty() && !known.contains(id) && !unknown.contains(id))
            unknown.append(id);
    }
    if (unknown.isEmpty()) {
        check.detail = u"every container and volume of this provider has its instance"_s;
        return check;
    }
    check.status = DoctorCheck::Warning;
    check.detail = u"quarantined (no row in the database; stopped, data kept): %1"_s.arg(
        unknown.join(u", "_s));
    check.fix = u"They hold instances this database does not know (an older database restored?)."
                "\nRestore the newer database to get them back, or if their data is not needed:"_s;
    for (const QString &id : std::as_const(unknown))
        check.fix += u"\n  podman rm -f cardhour-%1; podman volume rm cardhour-ws-%1"_s.arg(id);
    return check;
}

// The built-in catalog's images; empty where the catalog cannot be read.
QStringList catalogImageIds()
{
    QStringList ids;
    try {
        const Catalog catalog = Catalog::load();
        for (const ImageEntry &entry : catalog.images())
            ids.append(entry.id);
    } catch (const std::exception &) {
    }
    return ids;
}

void printJson(QTextStream &out, const QList<DoctorCheck> &checks, const QString &containersConf,
               bool anyProblem)
{
    QJsonArray array;
    for (const DoctorCheck &c : checks) {
        QJsonObject object{{u"name"_s, c.name},
                           {u"status"_s, DoctorCheck::statusName(c.status)},
                           {u"detail"_s, c.detail}};
        if (!c.fix.isEmpty())
            object.insert(u"fix"_s, c.fix);
        array.append(object);
    }
    const QJsonObject root{{u"ok"_s, !anyProblem},
                           {u"containersConf"_s, containersConf},
                           {u"recommendedContainersConf"_s, Doctor::recommendedContainersConf()},
                           {u"checks"_s, array}};
    out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
    out.flush();
}

void printText(QTextStream &out, const QList<DoctorCheck> &checks)
{
    qsizetype width = 0;
    for (const DoctorCheck &c : checks)
        width = std::max(width, c.name.size());
    const QString indent(8, u' ');
    for (const DoctorCheck &c : checks) {
        out << tagOf(c.status) << ' ' << c.name.leftJustified(width + 2) << c.detail << Qt::endl;
        if ((c.status == DoctorCheck::Problem || c.status == DoctorCheck::Warning)
            && !c.fix.isEmpty()) {
            const QStringList lines = c.fix.split(u'\n');
            for (qsizetype i = 0; i < lines.size(); ++i)
                out << indent << (i == 0 ? u"fix: "_s : u"     "_s) << lines.at(i) << Qt::endl;
        }
    }
    const auto problems = std::count_if(checks.cbegin(), checks.cend(), [](const DoctorCheck &c) {
        return c.status == DoctorCheck::Problem;
    });
    if (problems > 0)
        out << Qt::endl
            << problems << (problems == 1 ? " problem" : " problems") << " found" << Qt::endl;
    else
        out << Qt::endl << "no problems found" << Qt::endl;
}

// --fix PATH: with --json, stdout stays pure JSON.
int writeFix(Doctor &doctor, const QString &path, bool json, QTextStream &out, QTextStream &err)
{
    if (!doctor.writeFix(path)) {
        err << "cardhour-sim doctor: cannot write the containers.conf: " << doctor.errorString()
            << Qt::endl;
        return 1;
    }
    (json ? err : out) << "wrote " << QDir::toNativeSeparators(path)
                       << " (runtime = runc, default_ulimits 4096); use it with:" << Qt::endl
                       << "  export CONTAINERS_CONF=" << QDir::toNativeSeparators(path) << Qt::endl;
    return 0;
}

} // namespace

int runDoctorCommand(const QStringList &args, const QString &containersConf, const QString &dataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Check whether this host can run the sandbox's containers, and how to fix it."_s);
    const QCommandLineOption jsonOption(u"json"_s, u"Print the checks as JSON."_s);
    const QCommandLineOption fixOption(
        u"fix"_s, u"Write the recommended containers.conf (runc, ulimits 4096) to PATH."_s,
        u"PATH"_s);
    const EngineOptions engine;
    const QCommandLineOption dataOption(
        u"data"_s, u"The provider's data directory, for the quarantine check."_s, u"DIR"_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({jsonOption, fixOption});
    engine.addTo(&parser);
    parser.addOptions({dataOption, helpOption});

    if (!parser.parse(QStringList{u"cardhour-sim doctor"_s} + args)) {
        err << "cardhour-sim doctor: " << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(helpOption)) {
        QString help = parser.helpText();
        help.replace(0, help.indexOf(u'\n'),
                     u"Usage: cardhour-sim doctor [--json] [--fix PATH] [options]"_s);
        out << help;
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "cardhour-sim doctor: unexpected argument \"" << parser.positionalArguments().first()
            << '"' << Qt::endl;
        return 2;
    }
    if (parser.isSet(fixOption) && parser.value(fixOption).isEmpty()) {
        err << "cardhour-sim doctor: --fix needs a path" << Qt::endl;
        return 2;
    }

    Doctor::Options options;
    options.podman = engine.podman(parser);
    options.containersConf = engine.containersConf(parser, containersConf);
    options.tagPrefix = engine.tagPrefix(parser);
    // The built-in catalog's images; Doctor's own list where the catalog cannot be read.
    if (const QStringList ids = catalogImageIds(); !ids.isEmpty())
        options.imageIds = ids;
    Doctor doctor(options);
    if (parser.isSet(fixOption))
        return writeFix(doctor, QFileInfo(parser.value(fixOption)).absoluteFilePath(),
                        parser.isSet(jsonOption), out, err);

    QList<DoctorCheck> checks = doctor.run();
    checks.append(
        quarantineCheck(parser.isSet(dataOption) ? parser.value(dataOption) : dataDir, options));
    const bool anyProblem = std::any_of(checks.cbegin(), checks.cend(), [](const DoctorCheck &c) {
        return c.status == DoctorCheck::Problem;
    });

    if (parser.isSet(jsonOption))
        printJson(out, checks, options.containersConf, anyProblem);
    else
        printText(out, checks);
    return anyProblem ? 1 : 0;
}

} // namespace cardhour::sim
