// Doctor and `cardhour-sim doctor` against the real podman of this host.

#include "cli/DoctorCommand.h"
#include "runtime/Doctor.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <unistd.h>

#ifndef CARDHOUR_SOURCE_DIR
#error "CARDHOUR_SOURCE_DIR must name the source tree (doctor.cmake sets it)"
#endif

using namespace Qt::StringLiterals;
using cardhour::sim::Doctor;
using cardhour::sim::DoctorCheck;

namespace {

const QStringList kCheckNames{
    u"podman"_s,          u"containers.conf"_s, u"oci runtime"_s, u"cgroups"_s, u"rootless"_s,
    u"container start"_s, u"rlimits"_s,         u"runc"_s,        u"crun"_s,    u"slirp4netns"_s,
    u"debootstrap"_s,     u"images"_s,          u"gpu"_s,         u"cdi"_s,     u"disk quota"_s,
    u"loopback"_s,        u"quarantine"_s}; // the command's own, after Doctor's

QString repoConf()
{
    return QStringLiteral(CARDHOUR_SOURCE_DIR) + u"/backend-sim/podman/containers.conf"_s;
}

// CONTAINERS_CONF as ctest gives it, else the repository's.
QString testConf()
{
    const QString fromEnv = qEnvironmentVariable("CONTAINERS_CONF");
    return fromEnv.isEmpty() ? repoConf() : fromEnv;
}

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// podman with exactly the given CONTAINERS_CONF (empty: none).
Run podman(const QStringList &args, const QString &conf = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"CONTAINERS_CONF"_s);
    if (!conf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, conf);
    QProcess proc;
    proc.setProcessEnvironment(env);
    proc.setStandardInputFile(QProcess::nullDevice());
    proc.start(u"podman"_s, args);
    Run run;
    if (!proc.waitForStarted(10000))
        return run;
    if (!proc.waitForFinished(60000)) {
        proc.kill();
        proc.waitForFinished(2000);
        return run;
    }
    run.exitCode = proc.exitStatus() == QProcess::NormalExit ? proc.exitCode() : -1;
    run.out = proc.readAllStandardOutput();
    run.err = proc.readAllStandardError();
    return run;
}

bool podmanInstalled()
{
    return podman({u"--version"_s}).exitCode == 0;
}

QString localImage()
{
    for (const QString &image :
         {u"localhost/cardhour/base:latest"_s, u"localhost/cardhour/debian:bookworm"_s}) {
        if (podman({u"image"_s, u"exists"_s, image}).exitCode == 0)
            return image;
    }
    return {};
}

DoctorCheck find(const QList<DoctorCheck> &checks, const QString &name)
{
    for (const DoctorCheck &c : checks) {
        if (c.name == name)
            return c;
    }
    return DoctorCheck{u"<missing %1>"_s.arg(name), DoctorCheck::Skipped, {}, {}};
}

QString describe(const DoctorCheck &c)
{
    return u"%1: %2: %3 | fix: %4"_s.arg(c.name, DoctorCheck::statusName(c.status), c.detail,
                                         c.fix);
}

// Runs runDoctorCommand with stdout captured.
int captureCommand(const QStringList &args, const QString &conf, QByteArray *output)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"stdout"_s);
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    FILE *file = std::fopen(QFile::encodeName(path).constData(), "w");
    ::dup2(::fileno(file), STDOUT_FILENO);
    const int code = cardhour::sim::runDoctorCommand(args, conf);
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    std::fclose(file);
    QFile in(path);
    if (in.open(QIODevice::ReadOnly))
        *output = in.readAll();
    return code;
}

} // namespace

class TestDoctor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void missingPodmanIsAProblem();
    void containerStartsWithConf();
    void writeFixIsAcceptedByPodman();
    void jsonListsEveryCheck();
    void usageAndFixOption();
    void withoutConfReportsWhatFails();
};

void TestDoctor::missingPodmanIsAProblem()
{
    Doctor::Options options;
    options.podman = u"/nonexistent/cardhour/podman"_s;
    options.containersConf = testConf();
    const QList<DoctorCheck> checks = Doctor(options).run();
    const DoctorCheck check = find(checks, u"podman"_s);
    QCOMPARE(check.status, DoctorCheck::Problem);
    QVERIFY2(!check.fix.isEmpty(), qPrintable(describe(check)));
    QCOMPARE(find(checks, u"oci runtime"_s).status, DoctorCheck::Skipped);
    QCOMPARE(find(checks, u"container start"_s).status, DoctorCheck::Skipped);
    QCOMPARE(find(checks, u"images"_s).status, DoctorCheck::Skipped);
    QCOMPARE(find(checks, u"loopback"_s).status, DoctorCheck::Ok);
}

void TestDoctor::containerStartsWithConf()
{
    if (!podmanInstalled())
        QSKIP("podman is not installed");
    Doctor::Options options;
    options.containersConf = testConf();
    const QList<DoctorCheck> checks = Doctor(options).run();
    QCOMPARE(find(checks, u"podman"_s).status, DoctorCheck::Ok);
    QCOMPARE(find(checks, u"containers.conf"_s).status, DoctorCheck::Ok);
    const DoctorCheck start = find(checks, u"container start"_s);
    if (localImage().isEmpty()) {
        QCOMPARE(start.status, DoctorCheck::Skipped);
        QVERIFY(start.fix.contains(u"cardhour-sim images build base"_s));
        QSKIP("no local image to start (cardhour-sim images build base)");
    }
    QVERIFY2(start.status == DoctorCheck::Ok, qPrintable(describe(start)));
    QVERIFY2(find(checks, u"oci runtime"_s).status == DoctorCheck::Ok,
             qPrintable(describe(find(checks, u"oci runtime"_s))));
}

void TestDoctor::writeFixIsAcceptedByPodman()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"sub/containers.conf"_s);
    Doctor doctor;
    QVERIFY2(doctor.writeFix(path), qPrintable(doctor.errorString()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QVERIFY(content.contains("runtime = \"runc\""));
    QVERIFY(content.contains("nofile=4096:4096"));

    if (!podmanInstalled())
        QSKIP("podman is not installed");
    if (QStandardPaths::findExecutable(u"runc"_s,
                                       {u"/usr/local/sbin"_s, u"/usr/sbin"_s, u"/sbin"_s,
                                        u"/usr/local/bin"_s, u"/usr/bin"_s, u"/bin"_s})
            .isEmpty())
        QSKIP("runc is not installed");
    const Run info = podman({u"info"_s, u"--format"_s, u"json"_s}, path);
    QVERIFY2(info.exitCode == 0, info.err.constData());
    const QJsonObject host = QJsonDocument::fromJson(info.out).object().value(u"host"_s).toObject();
    QCOMPARE(host.value(u"ociRuntime"_s).toObject().value(u"name"_s).toString(), u"runc"_s);
}

void TestDoctor::jsonListsEveryCheck()
{
    QByteArray output;
    const int code = captureCommand({u"--json"_s}, testConf(), &output);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(output, &error);
    QVERIFY2(doc.isObject(), qPrintable(error.errorString() + u"\n"_s + QString::fromUtf8(output)));
    const QJsonObject root = doc.object();
    const QJsonArray checks = root.value(u"checks"_s).toArray();
    QStringList names;
    bool anyProblem = false;
    for (const QJsonValue &value : checks) {
        const QJsonObject check = value.toObject();
        names.append(check.value(u"name"_s).toString());
        const QString status = check.value(u"status"_s).toString();
        QVERIFY2(QStringList({u"ok"_s, u"warning"_s, u"problem"_s, u"skipped"_s}).contains(status),
                 qPrintable(status));
        QVERIFY(check.contains(u"detail"_s));
        if (status == u"problem"_s) {
            anyProblem = true;
            QVERIFY2(!check.value(u"fix"_s).toString().isEmpty(),
                     qPrintable(check.value(u"name"_s).toString()));
        }
    }
    QCOMPARE(names, kCheckNames);
    QCOMPARE(root.value(u"ok"_s).toBool(), !anyProblem);
    QCOMPARE(code, anyProblem ? 1 : 0);
    QCOMPARE(root.value(u"recommendedContainersConf"_s).toString(),
             Doctor::recommendedContainersConf());
}

void TestDoctor::usageAndFixOption()
{
    QByteArray output;
    QCOMPARE(captureCommand({u"--no-such-option"_s}, {}, &output), 2);
    QCOMPARE(captureCommand({u"extra"_s}, {}, &output), 2);

    QTemporaryDir dir;
    const QString path = dir.filePath(u"fixed.conf"_s);
    QCOMPARE(captureCommand({u"--fix"_s, path}, {}, &output), 0);
    QVERIFY(QFile::exists(path));
    QVERIFY2(output.contains("export CONTAINERS_CONF=" + QFile::encodeName(path)),
             output.constData());
}

void TestDoctor::withoutConfReportsWhatFails()
{
    if (!podmanInstalled())
        QSKIP("podman is not installed");
    const QString image = localImage();
    if (image.isEmpty())
        QSKIP("no local image to start (cardhour-sim images build base)");

    // What this host does without a containers.conf, found independently of Doctor.
    const Run info = podman({u"info"_s, u"--format"_s, u"json"_s});
    const QString runtime = QJsonDocument::fromJson(info.out)
                                .object()
                                .value(u"host"_s)
                                .toObject()
                                .value(u"ociRuntime"_s)
                                .toObject()
                                .value(u"name"_s)
                                .toString();
    const bool failsPlain =
        podman({u"run"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s, image, u"true"_s})
            .exitCode
        != 0;
    const bool worksWithRepoConf =
        podman({u"run"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s, image, u"true"_s},
               repoConf())
            .exitCode
        == 0;
    qInfo().noquote() << "without CONTAINERS_CONF: runtime" << runtime
                      << (failsPlain ? "fails" : "works")
                      << "| with the repository's containers.conf:"
                      << (worksWithRepoConf ? "works" : "fails");

    const QList<DoctorCheck> checks = Doctor(Doctor::Options{}).run();
    const DoctorCheck start = find(checks, u"container start"_s);
    if (info.exitCode != 0) {
        QVERIFY2(start.status == DoctorCheck::Skipped, qPrintable(describe(start)));
        QCOMPARE(find(checks, u"oci runtime"_s).status, DoctorCheck::Problem);
        return;
    }
    if (!failsPlain) {
        QVERIFY2(start.status == DoctorCheck::Ok, qPrintable(describe(start)));
        return;
    }
    // The run fails: a problem, and where the recommended conf helps, that is the fix.
    QVERIFY2(start.status == DoctorCheck::Problem, qPrintable(describe(start)));
    QVERIFY2(start.detail.contains(runtime), qPrintable(describe(start)));
    if (worksWithRepoConf) {
        QVERIFY2(start.fix.contains(u"runtime = \"runc\""_s), qPrintable(describe(start)));
        QVERIFY2(start.fix.contains(u"default_ulimits"_s), qPrintable(describe(start)));
        QVERIFY2(start.detail.contains(u"it starts with runc"_s), qPrintable(describe(start)));
    }
    if (runtime == u"crun"_s) // the cgroup v1/hybrid case: crun fails, runc is the way out
        QVERIFY2(start.fix.contains(u"runc"_s), qPrintable(describe(start)));
}

QTEST_GUILESS_MAIN(TestDoctor)
#include "tst_doctor.moc"
