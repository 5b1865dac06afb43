#include "cli/DoctorCommand.h"

#include "cli/EngineOptions.h"
#include "runtime/Doctor.h"
#include "service/Catalog.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

} // namespace

int runDoctorCommand(const QStringList &args, const QString &containersConf)
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
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({jsonOption, fixOption});
    engine.addTo(&parser);
    parser.addOption(helpOption);

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
    try {
        const Catalog catalog = Catalog::load();
        QStringList ids;
        for (const ImageEntry &entry : catalog.images())
            ids.append(entry.id);
        if (!ids.isEmpty())
            options.imageIds = ids;
    } catch (const std::exception &) {
    }
    Doctor doctor(options);

    if (parser.isSet(fixOption)) {
        const QString path = QFileInfo(parser.value(fixOption)).absoluteFilePath();
        if (!doctor.writeFix(path)) {
            err << "cardhour-sim doctor: cannot write the containers.conf: " << doctor.errorString()
                << Qt::endl;
            return 1;
        }
        // With --json, stdout stays pure JSON.
        (parser.isSet(jsonOption) ? err : out)
            << "wrote " << QDir::toNativeSeparators(path)
            << " (runtime = runc, default_ulimits 4096); use it with:" << Qt::endl
            << "  export CONTAINERS_CONF=" << QDir::toNativeSeparators(path) << Qt::endl;
        return 0;
    }

    const QList<DoctorCheck> checks = doctor.run();
    const bool anyProblem = std::any_of(checks.cbegin(), checks.cend(), [](const DoctorCheck &c) {
        return c.status == DoctorCheck::Problem;
    });

    if (parser.isSet(jsonOption)) {
        QJsonArray array;
        for (const DoctorCheck &c : checks) {
            QJsonObject object{{u"name"_s, c.name},
                               {u"status"_s, DoctorCheck::statusName(c.status)},
                               {u"detail"_s, c.detail}};
            if (!c.fix.isEmpty())
                object.insert(u"fix"_s, c.fix);
            array.append(object);
        }
        const QJsonObject root{
            {u"ok"_s, !anyProblem},
            {u"containersConf"_s, options.containersConf},
            {u"recommendedContainersConf"_s, Doctor::recommendedContainersConf()},
            {u"checks"_s, array}};
        out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        out.flush();
        return anyProblem ? 1 : 0;
    }

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
    return anyProblem ? 1 : 0;
}

} // namespace cardhour::sim
