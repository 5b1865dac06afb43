#pragma once

// Shared by the tests that need real containers: running podman synchronously, making sure
// the "base" image exists (built once, then kept for reuse), and removing everything a test
// made, by its unique cardhour.provider label.

#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#ifndef CARDHOUR_SOURCE_DIR
#error "CARDHOUR_SOURCE_DIR must name the source tree (runtime.cmake sets it)"
#endif

namespace cardhour::test {

using namespace Qt::StringLiterals;

inline QString podmanBinary()
{
    const QString fromEnv = qEnvironmentVariable("CARDHOUR_PODMAN");
    return fromEnv.isEmpty() ? u"podman"_s : fromEnv;
}

// CONTAINERS_CONF as the test was started with (podman children inherit it anyway).
inline QString containersConf()
{
    return qEnvironmentVariable("CONTAINERS_CONF");
}

struct Run
{
    int exitCode = -1; // -1: did not start, crashed or timed out
    QByteArray out;
    QByteArray err;
    bool ok() const { return exitCode == 0; }
    QString errTail(int chars = 1500) const
    {
        const QString all = QString::fromUtf8(err + out).trimmed();
        return all.right(chars);
    }
};

inline Run runProgram(const QString &program, const QStringList &args, int timeoutMs = 120000,
                      const QByteArray &input = {})
{
    Run run;
    QProcess proc;
    if (input.isEmpty())
        proc.setStandardInputFile(QProcess::nullDevice());
    proc.start(program, args);
    if (!proc.waitForStarted(10000)) {
        run.err = proc.errorString().toUtf8();
        return run;
    }
    if (!input.isEmpty()) {
        proc.write(input);
        proc.closeWriteChannel();
    }
    if (!proc.waitForFinished(timeoutMs)) {
        proc.kill();
        proc.waitForFinished(5000);
        run.err = "timed out: " + proc.readAllStandardError();
        return run;
    }
    run.out = proc.readAllStandardOutput();
    run.err = proc.readAllStandardError();
    run.exitCode = proc.exitStatus() == QProcess::NormalExit ? proc.exitCode() : -1;
    return run;
}

inline Run podman(const QStringList &args, int timeoutMs = 120000)
{
    return runProgram(podmanBinary(), args, timeoutMs);
}

inline QString sourceDir()
{
    return QString::fromUtf8(CARDHOUR_SOURCE_DIR);
}

inline QString randomSuffix()
{
    return QString::number(QRandomGenerator::global()->generate64(), 16);
}

inline const QString &baseImageTag()
{
    static const QString tag = u"localhost/cardhour/base:latest"_s;
    return tag;
}

// Why containers cannot be used here (to QSKIP with), or empty. Podman missing, or podman
// unable to run any container, are the only reasons.
inline QString podmanUnavailable(const QString &image)
{
    const Run version = podman({u"--version"_s}, 20000);
    if (!version.ok())
        return u"podman is not installed or does not run (%1)"_s.arg(version.errTail(300));
    const Run info = podman({u"info"_s, u"--format"_s, u"json"_s}, 60000);
    if (!info.ok())
        return u"podman does not work here: %1"_s.arg(info.errTail(300));
    const Run run = podman(
        {u"run"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s, image, u"true"_s}, 120000);
    if (!run.ok())
        return u"podman cannot run a container here (with CONTAINERS_CONF=%1): %2"_s.arg(
            containersConf(), run.errTail(400));
    return {};
}

struct ImageCheck
{
    QString skip; // podman unusable: QSKIP with this
    QString error; // image could not be made: QFAIL with this
};

// Makes sure localhost/cardhour/base:latest exists, building it from backend-sim/images/base
// (after making the Debian root image, when that is missing too) the first time. Kept afterwards.
inline ImageCheck ensureBaseImage()
{
    ImageCheck check;
    const Run version = podman({u"--version"_s}, 20000);
    if (!version.ok()) {
        check.skip = u"podman is not installed or does not run (%1)"_s.arg(version.errTail(300));
        return check;
    }
    if (podman({u"image"_s, u"exists"_s, baseImageTag()}).ok()) {
        check.skip = podmanUnavailable(baseImageTag());
        return check;
    }
    const QString root = u"localhost/cardhour/debian:bookworm"_s;
    const QString imagesDir = sourceDir() + u"/backend-sim/images"_s;
    if (!podman({u"image"_s, u"exists"_s, root}).ok()) {
        const QString script = imagesDir + u"/bootstrap-debian"_s;
        Run made;
        qInfo("making the Debian root image %s (first run only; takes minutes)", qPrintable(root));
        if (QFileInfo(script).isExecutable()) {
            made = runProgram(script, {root}, 1800000);
        } else {
            const QString tree = QDir::tempPath() + u"/cardhour-debootstrap-"_s + randomSuffix();
            made = runProgram(u"debootstrap"_s, {u"--variant=minbase"_s, u"bookworm"_s, tree},
                              1800000);
            if (made.ok())
                made = runProgram(u"sh"_s,
                                  {u"-c"_s, u"tar -C \"$1\" -c . | \"$2\" import - \"$3\""_s,
                                   u"sh"_s, tree, podmanBinary(), root},
                                  600000);
            QDir(tree).removeRecursively();
        }
        if (!made.ok()) {
            check.error = u"cannot make %1: %2"_s.arg(root, made.errTail());
            return check;
        }
    }
    check.skip = podmanUnavailable(root);
    if (!check.skip.isEmpty())
        return check;
    qInfo("building %s from backend-sim/images/base (first run only; takes minutes)",
          qPrintable(baseImageTag()));
    const Run build = podman({u"build"_s, u"--build-arg"_s, u"DEBIAN_IMAGE="_s + root, u"-t"_s,
                              baseImageTag(), imagesDir + u"/base"_s},
                             1800000);
    if (!build.ok())
        check.error = u"cannot build %1: %2"_s.arg(baseImageTag(), build.errTail());
    return check;
}

// Removes every container and volume labelled cardhour.provider=<providerId>.
inline void removeByProvider(const QString &providerId)
{
    if (providerId.isEmpty())
        return;
    const QString filter = u"label=cardhour.provider="_s + providerId;
    const Run ps = podman({u"ps"_s, u"-a"_s, u"-q"_s, u"--filter"_s, filter}, 60000);
    const QStringList ids = QString::fromUtf8(ps.out).split(u'\n', Qt::SkipEmptyParts);
    if (!ids.isEmpty())
        podman(QStringList{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s} + ids, 120000);
    const Run vols = podman({u"volume"_s, u"ls"_s, u"-q"_s, u"--filter"_s, filter}, 60000);
    const QStringList names = QString::fromUtf8(vols.out).split(u'\n', Qt::SkipEmptyParts);
    if (!names.isEmpty())
        podman(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names, 120000);
    const Run nets = podman({u"network"_s, u"ls"_s, u"-q"_s, u"--filter"_s, filter}, 60000);
    const QStringList networks = QString::fromUtf8(nets.out).split(u'\n', Qt::SkipEmptyParts);
    if (!networks.isEmpty())
        podman(QStringList{u"network"_s, u"rm"_s, u"-f"_s} + networks, 120000);
}

// Removes what a test made when it goes out of scope, whether the test passed or not.
struct CleanupGuard
{
    QString providerId;
    explicit CleanupGuard(QString id) : providerId(std::move(id)) {}
    CleanupGuard(const CleanupGuard &) = delete;
    CleanupGuard &operator=(const CleanupGuard &) = delete;
    ~CleanupGuard() { removeByProvider(providerId); }
};

} // namespace cardhour::test
