#include "runtime/Doctor.h"

#include "runtime/DoctorChecks.h"
#include "runtime/HostPlatform.h"
#include "runtime/Process.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QString DoctorCheck::statusName(Status status)
{
    switch (status) {
    case Ok:
        return u"ok"_s;
    case Warning:
        return u"warning"_s;
    case Problem:
        return u"problem"_s;
    case Skipped:
        return u"skipped"_s;
    }
    return u"unknown"_s;
}

Doctor::Doctor() : Doctor(Options{}) {}

Doctor::Doctor(Options options) : m_options(std::move(options))
{
    if (m_options.podman.isEmpty())
        m_options.podman = u"podman"_s;
}

QString Doctor::recommendedContainersConf()
{
    // exit_command_delay: an exec over the API keeps its conmon that long after it ends (300 s
    // by default, two processes per box launched in the last five minutes).
    return u"[engine]\n"
           "runtime = \"runc\"\n"
           "exit_command_delay = 30\n"
           "\n"
           "[containers]\n"
           "default_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"]\n"_s;
}

bool Doctor::writeFix(const QString &path)
{
    m_error.clear();
    return writeRecommendedConf(path, &m_error);
}

bool Doctor::writeRecommendedConf(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = u"cannot create %1"_s.arg(info.absolutePath());
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        *error = u"%1: %2"_s.arg(path, file.errorString());
        return false;
    }
    const QByteArray content =
        "# containers.conf written by `cardhour-sim doctor --fix`: runc (crun fails on cgroup "
        "v1/hybrid\n"
        "# hosts) and modest default ulimits (some hosts do not allow raising the hard limits).\n"_ba
        + recommendedContainersConf().toUtf8();
    if (file.write(content) != content.size() || !file.commit()) {
        *error = u"%1: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

QList<DoctorCheck> Doctor::run()
{
    doctor::Context context;
    context.options = m_options;
    context.env = containersEnvironment(m_options.containersConf, InheritedConf::Drop);
    context.runcPath = doctor::findProgram(u"runc"_s);
    context.crunPath = doctor::findProgram(u"crun"_s);
    context.rootless = !platform::runningAsRoot();
    for (const doctor::Check check : doctor::doctorChecks())
        check(context);
    return context.findings;
}

} // namespace cardhour::sim
