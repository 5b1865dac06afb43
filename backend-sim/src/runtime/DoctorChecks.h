#pragma once

// The checks of Doctor::run, one function each, run in the order of doctorChecks(). Internal to
// Doctor (DoctorChecks.cpp: podman and its configuration; DoctorHostChecks.cpp: the host).

#include "runtime/Doctor.h"

#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <span>

namespace cardhour::sim::doctor {

// A program run by a check: its output, or why it did not finish.
struct Proc
{
    bool started = false;
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;
    QString error; // could not start / timed out

    bool ok() const { return finished && exitCode == 0; }
    QString why() const; // why it failed, in one short piece of text
};

// What the checks share: the options, podman's environment, and what earlier checks found
// (later ones skip or word their findings by it).
struct Context
{
    Doctor::Options options;
    QProcessEnvironment env;
    QString runcPath;
    QString crunPath;
    QList<DoctorCheck> findings;

    bool podmanOk = false; // `podman --version` ran
    bool infoOk = false; // `podman info` printed its JSON
    QString runtimeName; // the OCI runtime podman uses
    bool rootless = true;
    QString confUlimits; // default_ulimits in the given containers.conf
    bool haveGpu = false;

    void add(const QString &name, DoctorCheck::Status status, const QString &detail,
             const QString &fix = {});
    Proc run(const QString &program, const QStringList &args, int timeoutMs) const;
    Proc runPodman(const QStringList &args) const
    {
        return run(options.podman, args, options.timeoutMs);
    }
    bool imageExists(const QString &reference) const;
};

using Check = void (*)(Context &);

// DoctorChecks.cpp
void checkPodman(Context &context);
void checkContainersConf(Context &context);
void checkPodmanInfo(Context &context); // "oci runtime", "cgroups", "rootless"
void checkContainerStart(Context &context);
void checkImages(Context &context);
// DoctorHostChecks.cpp
void checkRlimits(Context &context);
void checkOciRuntimes(Context &context); // "runc", "crun"
void checkSlirp4netns(Context &context);
void checkDebootstrap(Context &context);
void checkGpu(Context &context); // "gpu", "cdi"
void checkDiskQuota(Context &context);
void checkLoopback(Context &context);

// Every check, in the order of the findings (Doctor.h lists them).
std::span<const Check> doctorChecks();

Proc runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env,
                int timeoutMs);
// Also in the sbin folders, which a normal user's PATH may lack.
QString findProgram(const QString &name);
QString firstLine(const QString &text);
// The fix for the failures that runc and lower default_ulimits cure.
QString confFix();

} // namespace cardhour::sim::doctor
