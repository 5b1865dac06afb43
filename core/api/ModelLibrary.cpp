#include "api/ModelLibrary.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

std::optional<qint64> optionalInteger(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble())
        return std::nullopt;
    return v.toInteger();
}

} // namespace

LibraryModel LibraryModel::fromJson(const QJsonObject &o)
{
    LibraryModel m;
    m.id = o.value("id"_L1).toString();
    m.name = o.value("name"_L1).toString();
    m.isPrivate = o.value("visibility"_L1).toString() == "private"_L1;
    m.task = o.value("task"_L1).toString();
    for (const QJsonValue &language : o.value("languages"_L1).toArray())
        m.languages.append(language.toString());
    m.licence = o.value("licence"_L1).toString();
    m.sourcePackage = o.value("source_package"_L1).toString();
    m.description = o.value("description"_L1).toString();
    m.fileName = o.value("file_name"_L1).toString();
    m.mountPath = o.value("mount_path"_L1).toString();
    m.sizeBytes = o.value("size_bytes"_L1).toInteger();
    m.files = o.value("files"_L1).toInteger();
    m.sha256 = o.value("sha256"_L1).toString();
    m.available = o.value("available"_L1).toBool();
    m.addedAt = QDateTime::fromString(o.value("added_at"_L1).toString(), Qt::ISODateWithMs);
    m.storageRatePerHourMicros = optionalInteger(o, "storage_rate_micros_per_hour"_L1);
    m.storageCostMicros = optionalInteger(o, "storage_cost_micros"_L1);
    return m;
}

QJsonObject NewModelUpload::toJson() const
{
    QJsonObject o{{u"name"_s, name}, {u"size_bytes"_s, sizeBytes}, {u"sha256"_s, sha256}};
    if (!fileName.isEmpty())
        o.insert(u"file_name"_s, fileName);
    if (!task.isEmpty())
        o.insert(u"task"_s, task);
    return o;
}

ModelUpload ModelUpload::fromJson(const QJsonObject &o)
{
    ModelUpload u;
    u.id = o.value("id"_L1).toString();
    u.name = o.value("name"_L1).toString();
    u.fileName = o.value("file_name"_L1).toString();
    u.sizeBytes = o.value("size_bytes"_L1).toInteger();
    u.sha256 = o.value("sha256"_L1).toString();
    u.offset = o.value("offset"_L1).toInteger();
    u.complete = o.value("state"_L1).toString() == "complete"_L1;
    u.chunkMaxBytes = o.value("chunk_max_bytes"_L1).toInteger();
    if (o.value("model"_L1).isObject())
        u.model = LibraryModel::fromJson(o.value("model"_L1).toObject());
    return u;
}

} // namespace cardhour::core
