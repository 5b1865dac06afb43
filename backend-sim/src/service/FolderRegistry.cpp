#include "FolderRegistry.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

FolderRegistry::FolderRegistry(QString file, QString format, QString key)
    : m_file(std::move(file)), m_format(std::move(format)), m_key(std::move(key))
{}

bool FolderRegistry::isValidName(const QString &name)
{
    static const QRegularExpression valid(u"^[a-z0-9][a-z0-9._-]{0,63}$"_s);
    return valid.match(name).hasMatch() && !name.contains(u".."_s);
}

QString FolderRegistry::invalidNameMessage(const QString &what, const QString &name)
{
    return u"\"%1\" is not a %2 name: use 1-64 of a-z, 0-9, '.', '_' and '-', starting with a "
           "letter or digit"_s.arg(name, what);
}

void FolderRegistry::measure(const QString &dir, qint64 *bytes, qint64 *files)
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

void FolderRegistry::reloadIfChanged() const
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
    const QJsonArray all = QJsonDocument::fromJson(file.readAll()).object().value(m_key).toArray();
    for (const QJsonValue &value : all) {
        const QJsonObject o = value.toObject();
        if (isValidName(o.value(u"name"_s).toString())
            && QFileInfo(o.value(u"path"_s).toString()).isAbsolute())
            m_cache.append(o);
    }
}

QList<QJsonObject> FolderRegistry::entries() const
{
    reloadIfChanged();
    return m_cache;
}

QJsonObject FolderRegistry::find(const QString &name) const
{
    for (const QJsonObject &o : entries()) {
        if (o.value(u"name"_s).toString() == name)
            return o;
    }
    return {};
}

bool FolderRegistry::save(QList<QJsonObject> all, QString *error) const
{
    std::stable_sort(all.begin(), all.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(u"name"_s).toString() < b.value(u"name"_s).toString();
    });
    QJsonArray array;
    for (const QJsonObject &o : all)
        array.append(o);
    QSaveFile file(m_file);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = u"cannot write %1: %2"_s.arg(m_file, file.errorString());
        return false;
    }
    file.write(QJsonDocument(QJsonObject{{u"format"_s, m_format}, {m_key, array}})
                   .toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = u"cannot write %1: %2"_s.arg(m_file, file.errorString());
        return false;
    }
    return true;
}

bool FolderRegistry::put(const QJsonObject &entry, QString *error) const
{
    const QString name = entry.value(u"name"_s).toString();
    QList<QJsonObject> all = entries();
    all.removeIf([&](const QJsonObject &o) { return o.value(u"name"_s).toString() == name; });
    all.append(entry);
    return save(all, error);
}

bool FolderRegistry::remove(const QString &what, const QString &name, QString *error) const
{
    QList<QJsonObject> all = entries();
    if (all.removeIf([&](const QJsonObject &o) { return o.value(u"name"_s).toString() == name; })
        == 0) {
        *error = u"no %1 named \"%2\""_s.arg(what, name);
        return false;
    }
    return save(all, error);
}

} // namespace cardhour::sim
