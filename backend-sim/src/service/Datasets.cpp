#include "Datasets.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Datasets::Datasets(QString dataDir) : m_file(dataDir + u"/datasets.json"_s) {}

bool Datasets::isValidName(const QString &name)
{
    static const QRegularExpression valid(u"^[a-z0-9][a-z0-9._-]{0,63}$"_s);
    return valid.match(name).hasMatch() && !name.contains(u".."_s);
}

void Datasets::measure(const QString &dir, qint64 *bytes, qint64 *files)
{
    *bytes = 0;
    *files = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        *bytes += it.fileInfo().size();
        ++*files;
    }
}

void Datasets::reloadIfChanged() const
{
    const QFileInfo info(m_file);
    const QDateTime stamp = info.exists() ? info.lastModified() : QDateTime();
    const qint64 size = info.exists() ? info.size() : -1;
    if (stamp == m_cacheStamp && size == m_cacheSize)
        return;
    m_cacheStamp = stamp;
    m_cacheSize = size;
    m_cache.clear();
    QFile file(m_file);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QJsonArray all =
        QJsonDocument::fromJson(file.readAll()).object().value(u"datasets"_s).toArray();
    for (const QJsonValue &value : all) {
        const QJsonObject o = value.toObject();
        Dataset d{o.value(u"name"_s).toString(), o.value(u"path"_s).toString(),
                  o.value(u"size_bytes"_s).toInteger(), o.value(u"files"_s).toInteger(),
                  QDateTime::fromString(o.value(u"added_at"_s).toString(), Qt::ISODateWithMs)};
        if (isValidName(d.name) && QFileInfo(d.path).isAbsolute())
            m_cache.append(d);
    }
}

QList<Datasets::Dataset> Datasets::list() const
{
    reloadIfChanged();
    return m_cache;
}

std::optional<Datasets::Dataset> Datasets::find(const QString &name) const
{
    for (const Dataset &d : list()) {
        if (d.name == name)
            return d;
    }
    return std::nullopt;
}

bool Datasets::save(const QList<Dataset> &all, QString *error) const
{
    QJsonArray array;
    for (const Dataset &d : all)
        array.append(QJsonObject{{u"name"_s, d.name},
                                 {u"path"_s, d.path},
                                 {u"size_bytes"_s, d.sizeBytes},
                                 {u"files"_s, d.files},
                                 {u"added_at"_s, d.addedAt.toUTC().toString(Qt::ISODateWithMs)}});
    QSaveFile file(m_file);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = u"cannot write %1: %2"_s.arg(m_file, file.errorString());
        return false;
    }
    file.write(
        QJsonDocument(QJsonObject{{u"format"_s, u"cardhour-datasets/1"_s}, {u"datasets"_s, array}})
            .toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = u"cannot write %1: %2"_s.arg(m_file, file.errorString());
        return false;
    }
    return true;
}

bool Datasets::add(const QString &name, const QString &dir, QString *error)
{
    if (!isValidName(name)) {
        *error = u"\"%1\" is not a dataset name: use 1-64 of a-z, 0-9, '.', '_' and '-', starting "
                 u"with a "
                 "letter or digit"_s.arg(name);
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
    QList<Dataset> all = list();
    all.removeIf([&](const Dataset &other) { return other.name == name; });
    all.append(d);
    std::sort(all.begin(), all.end(),
              [](const Dataset &a, const Dataset &b) { return a.name < b.name; });
    return save(all, error);
}

bool Datasets::remove(const QString &name, QString *error)
{
    QList<Dataset> all = list();
    if (all.removeIf([&](const Dataset &d) { return d.name == name; }) == 0) {
        *error = u"no dataset named \"%1\""_s.arg(name);
        return false;
    }
    return save(all, error);
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
