#include "Datasets.h"

#include <QFileInfo>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Datasets::Datasets(QString dataDir)
    : m_registry(dataDir + u"/datasets.json"_s, u"cardhour-datasets/1"_s, u"datasets"_s)
{}

Datasets::Dataset Datasets::fromEntry(const QJsonObject &o)
{
    return {o.value(u"name"_s).toString(), o.value(u"path"_s).toString(),
            o.value(u"size_bytes"_s).toInteger(), o.value(u"files"_s).toInteger(),
            QDateTime::fromString(o.value(u"added_at"_s).toString(), Qt::ISODateWithMs)};
}

QJsonObject Datasets::toEntry(const Dataset &d)
{
    return {{u"name"_s, d.name},
            {u"path"_s, d.path},
            {u"size_bytes"_s, d.sizeBytes},
            {u"files"_s, d.files},
            {u"added_at"_s, d.addedAt.toUTC().toString(Qt::ISODateWithMs)}};
}

QList<Datasets::Dataset> Datasets::list() const
{
    QList<Dataset> all;
    for (const QJsonObject &o : m_registry.entries())
        all.append(fromEntry(o));
    return all;
}

std::optional<Datasets::Dataset> Datasets::find(const QString &name) const
{
    const QJsonObject o = m_registry.find(name);
    if (o.isEmpty())
        return std::nullopt;
    return fromEntry(o);
}

bool Datasets::add(const QString &name, const QString &dir, QString *error)
{
    if (!isValidName(name)) {
        *error = FolderRegistry::invalidNameMessage(u"dataset"_s, name);
        return false;
    }
    const QFileInfo info(dir);
    if (!info.isDir() || !info.isReadable()) {
        *error = u"%1 is not a readable folder"_s.arg(dir);
        return false;
    }
    Dataset d;
    d.name = name;
    d.path = info.canonicalFilePath();
    d.addedAt = QDateTime::currentDateTimeUtc();
    measure(d.path, &d.sizeBytes, &d.files);
    return m_registry.put(toEntry(d), error);
}

bool Datasets::remove(const QString &name, QString *error)
{
    return m_registry.remove(u"dataset"_s, name, error);
}

QJsonArray Datasets::listJson() const
{
    QJsonArray out;
    for (const Dataset &d : list()) {
        out.append(QJsonObject{{u"name"_s, d.name},
                               {u"mount_path"_s, u"/datasets/"_s + d.name},
                               {u"size_bytes"_s, d.sizeBytes},
                               {u"files"_s, d.files},
                               {u"available"_s, QFileInfo(d.path).isDir()},
                               {u"added_at"_s, d.addedAt.toUTC().toString(Qt::ISODateWithMs)}});
    }
    return out;
}

} // namespace cardhour::sim
