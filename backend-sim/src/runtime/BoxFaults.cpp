#include "BoxFaults.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr int kFaultTimeoutMs = 60'000;
constexpr auto kFillName = ".cardhour-chaos-fill"_L1;

// `df` of the folder as "<size> <used> <available>" in bytes.
QString dfLine(const QString &dir)
{
    return u"set -- $(df -P -B1 '%1' | tail -n 1); echo \"$2 $3 $4\""_s.arg(dir);
}
} // namespace

BoxFaults::BoxFaults(EngineCommands &engine, const ContainerCache &cache, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache)
{}

QString BoxFaults::dropSshScript()
{
    // sshd is the box's PID 1 (the listener); every other sshd process serves one connection.
    return uR"sh(n=0
for s in /proc/[0-9]*/stat; do
  read -r pid comm rest < "$s" 2>/dev/null || continue
  [ "$pid" = 1 ] && continue
  case "$comm" in
    "(sshd)"|"(sshd-session)") kill -KILL "$pid" 2>/dev/null && n=$((n+1)) ;;
  esac
done
echo "dropped $n")sh"_s;
}

QString BoxFaults::fillScript(const QString &dir)
{
    // Halving sizes: a request larger than what is left fails whole, so the files end within a
    // block or two of the bound, which real writes then take; a 1-byte write after that needs a
    // block that is not there (ext4 reserves blocks at write(): ENOSPC at once).
    return uR"sh(set -u
f='%1/%2'
set -- $(df -P -B1 '%1' | tail -n 1)
n=$4
i=0
while [ "$n" -ge 512 ]; do
  if fallocate -l "$n" "$f.$i" 2>/dev/null; then i=$((i+1)); else n=$((n/2)); fi
done
dd if=/dev/zero of="$f.tail" bs=512 2>/dev/null
enospc=0
if ! dd if=/dev/zero of="$f.probe" bs=1 count=1 2>/dev/null; then enospc=1; fi
out=$(%3)
echo "$out $enospc")sh"_s.arg(dir, kFillName, dfLine(dir));
}

QString BoxFaults::unfillScript(const QString &dir)
{
    return uR"sh(rm -f '%1/%2'.*
out=$(%3)
echo "$out 0")sh"_s.arg(dir, kFillName, dfLine(dir));
}

QString BoxFaults::describeFill(const QByteArray &out, bool filled, bool *ok)
{
    const QList<QByteArray> fields = out.trimmed().split(' ');
    *ok = fields.size() == 4;
    if (!*ok)
        return u"the box did not say how full /workspace is: %1"_s.arg(
            QString::fromUtf8(out.trimmed().left(300)));
    const qint64 size = fields.at(0).toLongLong();
    const qint64 used = fields.at(1).toLongLong();
    const bool enospc = fields.at(3) == "1";
    if (filled && !enospc) {
        *ok = false;
        return u"/workspace holds %1 of %2 bytes, and a write still succeeded"_s.arg(used).arg(
            size);
    }
    return filled
        ? u"/workspace full: %1 of %2 bytes used; writes fail with ENOSPC"_s.arg(used).arg(size)
        : u"/workspace freed: %1 of %2 bytes used"_s.arg(used).arg(size);
}

void BoxFaults::dropSsh(const QString &instanceId)
{
    runIn(instanceId, u"drop_ssh"_s, dropSshScript());
}

void BoxFaults::fillWorkspace(const QString &instanceId)
{
    runIn(instanceId, u"fill_disk"_s, fillScript(u"/workspace"_s));
}

void BoxFaults::unfillWorkspace(const QString &instanceId)
{
    runIn(instanceId, u"unfill_disk"_s, unfillScript(u"/workspace"_s));
}

void BoxFaults::runIn(const QString &instanceId, const QString &fault, const QString &script)
{
    const auto it = m_cache.all().constFind(instanceId);
    if (it == m_cache.all().cend() || !it->running || it->containerId.isEmpty()) {
        QTimer::singleShot(0, this, [this, instanceId, fault] {
            Q_EMIT done(instanceId, fault, false, u"the instance's box is not running"_s);
        });
        return;
    }
    m_engine.run(
        {u"exec"_s, it->containerId, u"sh"_s, u"-c"_s, script},
        [this, instanceId, fault](const ProcessResult &result) {
            if (!result.started || result.timedOut || result.exitCode != 0) {
                Q_EMIT done(instanceId, fault, false,
                            u"exec in the box failed: %1"_s.arg(
                                QString::fromUtf8(result.err.trimmed().left(300))));
                return;
            }
            if (fault == u"drop_ssh"_s) {
                const QByteArray count = result.out.trimmed().split(' ').value(1);
                Q_EMIT done(instanceId, fault, true,
                            u"%1 SSH connection process(es) ended; sshd still listens"_s.arg(
                                QString::fromLatin1(count)));
                return;
            }
            bool ok = false;
            const QString detail = describeFill(result.out, fault == u"fill_disk"_s, &ok);
            Q_EMIT done(instanceId, fault, ok, detail);
        },
        kFaultTimeoutMs);
}

} // namespace cardhour::sim
