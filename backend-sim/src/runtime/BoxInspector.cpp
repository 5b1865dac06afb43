#include "BoxInspector.h"

#include "BoxNames.h"
#include "InstanceFiles.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// nvidia-smi waits up to 3 s for a card status file; a loaded host starts Python slowly.
constexpr int kReportTimeoutMs = 30'000;
constexpr int kPollMs = 10;
const QString kReportPath = u"/run/cardhour/hardware"_s;

// A small regular file under a box's root, as the host sees it; empty when it is missing or
// not a plain file. Box root can put anything at that path: no link is followed out of the
// box's root (the kernel resolves them inside it), a FIFO or device is not opened for reading,
// and no more than 64 KiB are read.
QByteArray readBoxFile(qint64 pid, const QString &path)
{
#ifdef Q_OS_LINUX
    const QByteArray name = QFile::encodeName(u"/proc/%1/root%2"_s.arg(pid).arg(path));
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return {};
    QByteArray data;
    struct stat st
    {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        data.resize(64 * 1024);
        const ssize_t n = ::read(fd, data.data(), data.size());
        data.resize(n > 0 ? qsizetype(n) : 0);
    }
    ::close(fd);
    return data;
#else
    Q_UNUSED(pid);
    Q_UNUSED(path);
    return {};
#endif
}

bool isThisStartsReport(const QByteArray &report, const QString &startId)
{
    return report.startsWith("start=" + startId.toLatin1() + '\n') && report.endsWith("end\n");
}
} // namespace

BoxInspector::BoxInspector(EngineCommands &engine, const ContainerCache &cache,
                           bool workspaceBounded, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache), m_workspaceBounded(workspaceBounded)
{}

void BoxInspector::inspect(const QString &instanceId)
{
    // The container as last seen, else by its name (both are this provider's box).
    const auto it = m_cache.all().constFind(instanceId);
    Reading reading;
    reading.instanceId = instanceId;
    reading.container = it != m_cache.all().cend() && !it->containerId.isEmpty()
        ? it->containerId
        : box::containerName(instanceId);
    reading.startId = InstanceFiles::startIdIn(m_cache.sshDir(instanceId));
    reading.deadline = QDeadlineTimer(kReportTimeoutMs);
    m_engine.run(
        {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, reading.container},
        [this, reading](const ProcessResult &r) mutable {
            if (r.ok())
                reading.pid = QJsonDocument::fromJson(r.out)
                                  .array()
                                  .at(0)
                                  .toObject()
                                  .value(u"State"_s)
                                  .toObject()
                                  .value(u"Pid"_s)
                                  .toInteger();
            // The box's processes run on this host (not in an engine's VM or elsewhere) when
            // its root there holds this start's id.
            const bool local = reading.pid > 0 && !reading.startId.isEmpty()
                && readBoxFile(reading.pid, u"/etc/cardhour/ssh/start_id"_s).trimmed()
                    == reading.startId.toLatin1();
            qCDebug(lcCli) << "hardware report of" << reading.instanceId
                           << (local ? "read from the host" : "read with exec");
            if (local)
                return pollReport(reading);
            readReportByExec(reading);
        });
}

void BoxInspector::pollReport(const Reading &reading)
{
    const QByteArray report = readBoxFile(reading.pid, kReportPath);
    if (isThisStartsReport(report, reading.startId))
        return finish(reading.instanceId, boxhardware::parse(report, reading.startId));
    BoxHardware none;
    if (!QFileInfo::exists(u"/proc/%1"_s.arg(reading.pid)))
        none.error = u"the box stopped before it reported its hardware"_s;
    else if (reading.deadline.hasExpired())
        none.error =
            u"the box did not report its hardware within %1 s"_s.arg(kReportTimeoutMs / 1000);
    if (!none.error.isEmpty())
        return finish(reading.instanceId, none);
    QTimer::singleShot(kPollMs, this, [this, reading] { pollReport(reading); });
}

void BoxInspector::readReportByExec(const Reading &reading)
{
    // The same report, waited for inside the box (the id is hex: nothing to quote).
    const QString script =
        u"i=0; while [ $i -lt %1 ]; do"
        " if read -r first < %2 2>/dev/null && { [ -z '%3' ] || [ \"$first\" = 'start=%3' ]; };"
        " then exec cat %2; fi; sleep 0.1; i=$((i+1)); done; exit 1"_s.arg(kReportTimeoutMs / 100)
            .arg(kReportPath, reading.startId);
    m_engine.run(
        {u"exec"_s, reading.container, u"sh"_s, u"-c"_s, script},
        [this, reading](const ProcessResult &result) {
            BoxHardware found = boxhardware::parse(result.out, reading.startId);
            if (!found.error.isEmpty() && !result.ok())
                found.error = EngineCommands::describe(result, m_engine.what(u"exec"_s));
            finish(reading.instanceId, found);
        },
        kReportTimeoutMs + 5'000);
}

void BoxInspector::finish(const QString &instanceId, BoxHardware found)
{
    found.workspaceBounded = m_workspaceBounded;
    Q_EMIT inspected(instanceId, found);
}

void BoxInspector::findLeftovers()
{
    // Containers as last listed; volumes asked for now (they outlive a removed container).
    QHash<QString, QStringList> held;
    for (auto it = m_cache.all().cbegin(); it != m_cache.all().cend(); ++it)
        held[it.key()].append(it->running ? u"container (running)"_s : u"container"_s);
    m_engine.run(
        {u"volume"_s, u"ls"_s, u"--filter"_s,
         u"label="_s + box::kProvider + u'=' + m_engine.providerId(), u"--format"_s, u"json"_s},
        [this, held](const ProcessResult &ls) mutable {
            if (!ls.ok())
                return Q_EMIT leftoversFound(held, false);
            for (const cli::VolumeInfo &volume : cli::parseVolumeList(ls.out)) {
                const QString id = volume.labels.value(box::kInstance);
                if (!id.isEmpty() && volume.labels.value(box::kProvider) == m_engine.providerId())
                    held[id].append(u"volume "_s + volume.name);
            }
            Q_EMIT leftoversFound(held, true);
        });
}

} // namespace cardhour::sim
