#include "InstanceRecords.h"

#include "CardLending.h"
#include "Catalog.h"
#include "auth/Tokens.h"
#include "core/ApiError.h"
#include "store/Database.h"

#include <QMessageAuthenticationCode>
#include <QSqlQuery>
#include <QThread>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
qint64 hostMemoryMib()
{
#ifdef Q_OS_UNIX
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<qint64>(pages) * pageSize / (1024 * 1024);
#endif
    return 0;
}
} // namespace

InstanceRecords::InstanceRecords(Database &db, const Catalog &catalog)
    : m_db(db), m_catalog(catalog), m_appTokenKey(tokens::randomBytes(32))
{}

QString InstanceRecords::appTokenOf(const QString &instanceId, qint64 launchSeq) const
{
    // 24 bytes, hex: what the images' apps accept (cardhour-app checks for hex).
    const QByteArray message =
        "cardhour-app-token:"_ba + instanceId.toUtf8() + ':' + QByteArray::number(launchSeq);
    return QString::fromLatin1(
        QMessageAuthenticationCode::hash(message, m_appTokenKey, QCryptographicHash::Sha256)
            .left(24)
            .toHex());
}

const QString &InstanceRecords::holdingStatesSql()
{
    static const QString states = u"('creating','starting','running','stopping')"_s;
    return states;
}

QString InstanceRecords::requireState(const QString &userId, const QString &instanceId)
{
    const QVariant state = m_db.scalar(
        u"SELECT state FROM instances WHERE id = ? AND user_id = ?"_s, {instanceId, userId});
    if (!state.isValid()) // another user's instance is "not found", never "forbidden"
        throw ApiError(404, ErrorCode::NotFound, u"No instance with this id."_s);
    return state.toString();
}

QString InstanceRecords::stateOf(const QString &instanceId)
{
    return m_db.scalar(u"SELECT state FROM instances WHERE id = ?"_s, {instanceId}).toString();
}

QString InstanceRecords::ownerOf(const QString &instanceId)
{
    return m_db.scalar(u"SELECT user_id FROM instances WHERE id = ?"_s, {instanceId}).toString();
}

int InstanceRecords::cardsHeld(const QString &gpuType)
{
    return m_db
        .scalar(
            u"SELECT COALESCE(SUM(gpu_count), 0) FROM instances WHERE gpu_type = ? AND state IN "_s
                + holdingStatesSql(),
            {gpuType})
        .toInt();
}

bool InstanceRecords::compareAndSwap(const QString &instanceId, const QStringList &from,
                                     const QString &to, const QString &reason, qint64 nowMs)
{
    QStringList quoted;
    for (const QString &state : from)
        quoted.append(u'\'' + state + u'\'');
    // updated_at grows at every change, also within one millisecond: a client keeps the view
    // with the later updated_at, and two changes in one millisecond (the in-process runtime's
    // launch) must not leave it an older view that looks as new.
    QSqlQuery q = m_db.exec(
        u"UPDATE instances SET state = ?, state_reason = ?, updated_at = MAX(?, updated_at + 1)"
        " WHERE id = ? AND state IN ("_s
            + quoted.join(u',') + u")"_s,
        {to, reason.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(reason), nowMs,
         instanceId});
    return q.numRowsAffected() == 1;
}

void InstanceRecords::claimHost(const QString &instanceId)
{
    if (m_hostId.isEmpty())
        return; // the only provider (SQLite): every host is its own, host_provider stays NULL
    m_db.write(u"UPDATE instances SET host_provider = ? WHERE id = ?"_s, {m_hostId, instanceId});
}

qint64 InstanceRecords::diskGibOf(const QString &gpuType, const QVariant &recorded) const
{
    if (!recorded.isNull())
        return recorded.toLongLong();
    // Made before disk sizes were recorded (schema 4): the catalog's size for its type.
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    return gpu ? gpu->diskGib : 0;
}

InstanceRecords::Resources InstanceRecords::resourcesFor(const QString &gpuType, int gpuCount) const
{
    // The catalog's host spec per card, scaled to this machine: never more CPUs than it has,
    // never more than three quarters of its memory.
    Resources resources;
    resources.pidsLimit = m_catalog.pidsLimitPerInstance();
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    if (!gpu)
        return resources;
    resources.cpus = gpu->cpusPerCard * gpuCount;
    resources.memoryMib = gpu->memoryMibPerCard * gpuCount;
    const int cores = QThread::idealThreadCount();
    if (cores > 0)
        resources.cpus = std::min(resources.cpus, static_cast<double>(cores));
    const qint64 hostMib = hostMemoryMib();
    if (hostMib > 0)
        resources.memoryMib = std::min(resources.memoryMib, hostMib * 3 / 4);
    return resources;
}

InstanceSpec InstanceRecords::specFor(const QString &instanceId)
{
    InstanceSpec spec;
    QSqlQuery q = m_db.exec(u"SELECT user_id, image, gpu_type, gpu_count, disk_gib, launch_seq,"
                            " snapshot_id FROM instances WHERE id = ?"_s,
                            {instanceId});
    if (!q.next())
        return spec;
    spec.instanceId = instanceId;
    spec.ownerId = q.value(0).toString();
    spec.image = q.value(1).toString();
    spec.gpuType = q.value(2).toString();
    spec.gpuCount = q.value(3).toInt();
    spec.diskGib = diskGibOf(spec.gpuType, q.value(4));
    spec.appToken = appTokenOf(instanceId, q.value(5).toLongLong());
    spec.snapshotId = q.value(6).toString();
    const std::optional<GpuType> gpu = m_catalog.gpu(spec.gpuType);
    spec.realGpus = gpu && !gpu->simulated;
    spec.gpuName = gpu ? gpu->name : spec.gpuType;
    spec.gpuVramMib = gpu ? gpu->vramMib : 0;
    spec.gpuNvlinks = gpu ? gpu->nvlinks : 0;
    spec.gpuCards = CardLending(m_db).cardsOf(instanceId);
    if (gpu && gpu->isSlice())
        spec.gpuMigProfile = gpu->slice.profile;
    if (const std::optional<ImageEntry> image = m_catalog.image(spec.image)) {
        spec.sshUser = image->sshUser;
        for (const QJsonValue &app : image->apps)
            spec.apps.append({app[u"name"_s].toString(), app[u"port"_s].toInt()});
    }
    const Resources resources = resourcesFor(spec.gpuType, spec.gpuCount);
    spec.cpus = resources.cpus;
    spec.memoryMib = resources.memoryMib;
    spec.pidsLimit = resources.pidsLimit;
    const auto names = [this, &instanceId](const QString &sql) {
        QList<QPair<QString, QString>> pairs;
        QSqlQuery rows = m_db.exec(sql, {instanceId});
        while (rows.next())
            pairs.append({rows.value(0).toString(), rows.value(1).toString()});
        return pairs;
    };
    QSqlQuery keys = m_db.exec(
        u"SELECT public_key FROM instance_ssh_keys WHERE instance_id = ? ORDER BY key_id"_s,
        {instanceId});
    while (keys.next())
        spec.authorizedKeys.append(keys.value(0).toString());
    spec.datasets =
        names(u"SELECT name, path FROM instance_datasets WHERE instance_id = ? ORDER BY name"_s);
    spec.models =
        names(u"SELECT name, path FROM instance_models WHERE instance_id = ? ORDER BY name"_s);
    return spec;
}

} // namespace cardhour::sim
