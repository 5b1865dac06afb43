#include "Models.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr auto kFormat = "cardhour-models/1";

QStringList toStringList(const QJsonArray &array)
{
    QStringList out;
    for (const QJsonValue &v : array)
        out.append(v.toString());
    return out;
}

// A hard link where both sides share a file system (no bytes copied), else a copy.
bool stageFile(const QString &from, const QString &to)
{
    const QFileInfo have(to);
    const QFileInfo want(from);
    if (have.exists() && have.size() == want.size() && have.lastModified() >= want.lastModified())
        return true;
    QFile::remove(to);
    if (::link(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
        return true;
    return QFile::copy(from, to);
}

} // namespace

Models::Models(QString dataDir, QString catalogModelsFile)
    : m_dataDir(std::move(dataDir)), m_catalogFile(std::move(catalogModelsFile)),
      m_registry(m_dataDir + u"/models.json"_s, QLatin1StringView(kFormat), u"models"_s)
{}

QString Models::catalogFileIn(const QString &catalogDir)
{
    const QString file = catalogDir + u"/models.json"_s;
    return QFileInfo::exists(file) ? file : u":/catalog/models.json"_s;
}

QString Models::fileSha256(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

QString Models::manifestSha256(const QString &dir, qint64 *bytes, qint64 *files)
{
    *bytes = 0;
    *files = 0;
    QStringList paths;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        paths.append(QDir(dir).relativeFilePath(it.filePath()));
        *bytes += it.fileInfo().size();
    }
    std::sort(paths.begin(), paths.end());
    *files = paths.size();
    if (paths.size() == 1)
        return fileSha256(dir + u'/' + paths.first());
    QCryptographicHash listing(QCryptographicHash::Sha256);
    for (const QString &path : std::as_const(paths))
        listing.addData((fileSha256(dir + u'/' + path) + u"  "_s + path + u'\n').toUtf8());
    return QString::fromLatin1(listing.result().toHex());
}

QString Models::packageLicence(const QString &package)
{
    QFile file(u"/usr/share/doc/%1/copyright"_s.arg(package));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(u"License:"_s, Qt::CaseInsensitive)) {
            const QString licence = line.mid(8).trimmed();
            if (!licence.isEmpty())
                return licence;
        }
    }
    return {};
}

QString Models::stampOf(const QString &dir)
{
    qint64 bytes = 0;
    qint64 newest = 0;
    qint64 files = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        bytes += it.fileInfo().size();
        newest = std::max(newest, it.fileInfo().lastModified().toMSecsSinceEpoch());
        ++files;
    }
    return u"%1/%2/%3"_s.arg(bytes).arg(files).arg(newest);
}

void Models::measure(Model &m, const std::optional<Model> &previous)
{
    m.stamp = stampOf(m.path);
    if (previous && previous->path == m.path && previous->stamp == m.stamp
        && !previous->sha256.isEmpty()) {
        m.sha256 = previous->sha256;
        m.sizeBytes = previous->sizeBytes;
        m.files = previous->files;
        return;
    }
    m.sha256 = manifestSha256(m.path, &m.sizeBytes, &m.files);
}

Models::Model Models::fromEntry(const QJsonObject &o)
{
    Model m;
    m.name = o.value(u"name"_s).toString();
    m.task = o.value(u"task"_s).toString();
    m.languages = toStringList(o.value(u"languages"_s).toArray());
    m.licence = o.value(u"licence"_s).toString();
    m.sourcePackage = o.value(u"source_package"_s).toString();
    m.description = o.value(u"description"_s).toString();
    m.path = o.value(u"path"_s).toString();
    m.sizeBytes = o.value(u"size_bytes"_s).toInteger();
    m.files = o.value(u"files"_s).toInteger();
    m.sha256 = o.value(u"sha256"_s).toString();
    m.addedAt = QDateTime::fromString(o.value(u"added_at"_s).toString(), Qt::ISODateWithMs);
    m.stamp = o.value(u"stamp"_s).toString();
    return m;
}

QJsonObject Models::toEntry(const Model &m)
{
    return QJsonObject{
        {u"name"_s, m.name},
        {u"task"_s, m.task},
        {u"languages"_s, QJsonArray::fromStringList(m.languages)},
        {u"licence"_s, m.licence.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m.licence)},
        {u"source_package"_s, m.sourcePackage},
        {u"description"_s, m.description},
        {u"path"_s, m.path},
        {u"size_bytes"_s, m.sizeBytes},
        {u"files"_s, m.files},
        {u"sha256"_s, m.sha256},
        {u"stamp"_s, m.stamp},
        {u"added_at"_s, m.addedAt.toUTC().toString(Qt::ISODateWithMs)}};
}

QList<Models::Model> Models::list() const
{
    QList<Model> all;
    for (const QJsonObject &o : m_registry.entries())
        all.append(fromEntry(o));
    return all;
}

std::optional<Models::Model> Models::find(const QString &name) const
{
    const QJsonObject o = m_registry.find(name);
    if (o.isEmpty())
        return std::nullopt;
    return fromEntry(o);
}

bool Models::save(const QList<Model> &all, QString *error) const
{
    QList<QJsonObject> entries;
    for (const Model &m : all)
        entries.append(toEntry(m));
    return m_registry.save(entries, error);
}

bool Models::refreshInstalled(QString *error)
{
    QFile catalog(m_catalogFile);
    if (!catalog.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1: %2"_s.arg(m_catalogFile, catalog.errorString());
        return false;
    }
    const QJsonObject document = QJsonDocument::fromJson(catalog.readAll()).object();
    if (document.value(u"format"_s).toString() != u"cardhour-model-catalog/1"_s) {
        *error = u"%1 is not a cardhour-model-catalog/1 document"_s.arg(m_catalogFile);
        return false;
    }
    const QList<Model> before = list();
    // The operator's own folders stay as they are; installed ones are found again.
    QList<Model> after;
    for (const Model &m : before) {
        if (m.sourcePackage.isEmpty())
            after.append(m);
    }
    for (const QJsonValue &value : document.value(u"models"_s).toArray()) {
        const QJsonObject o = value.toObject();
        Model m;
        m.name = o.value(u"name"_s).toString();
        if (!isValidName(m.name)
            || std::any_of(after.cbegin(), after.cend(),
                           [&](const Model &other) { return other.name == m.name; }))
            continue;
        m.task = o.value(u"task"_s).toString();
        m.languages = toStringList(o.value(u"languages"_s).toArray());
        m.sourcePackage = o.value(u"package"_s).toString();
        m.description = o.value(u"description"_s).toString();
        const QStringList files = toStringList(o.value(u"files"_s).toArray());
        if (!files.isEmpty()) {
            if (!std::all_of(files.cbegin(), files.cend(),
                             [](const QString &f) { return QFileInfo(f).isFile(); }))
                continue; // the package is not installed
            m.path = m_dataDir + u"/models/public/"_s + m.name;
            if (!QDir().mkpath(m.path)) {
                *error = u"cannot make %1"_s.arg(m.path);
                return false;
            }
            for (const QString &f : files) {
                const QString target = m.path + u'/' + QFileInfo(f).fileName();
                if (!stageFile(f, target)) {
                    *error = u"cannot stage %1 into %2"_s.arg(f, m.path);
                    return false;
                }
            }
        } else {
            const QFileInfo dir(o.value(u"dir"_s).toString());
            if (!dir.isDir())
                continue;
            m.path = dir.canonicalFilePath();
        }
        m.licence = packageLicence(m.sourcePackage);
        std::optional<Model> previous;
        for (const Model &old : before) {
            if (old.name == m.name)
                previous = old;
        }
        m.addedAt = previous ? previous->addedAt : QDateTime::currentDateTimeUtc();
        measure(m, previous);
        after.append(m);
    }
    return save(after, error);
}

bool Models::add(const Model &given, QString *error)
{
    if (!isValidName(given.name)) {
        *error = FolderRegistry::invalidNameMessage(u"model"_s, given.name);
        return false;
    }
    const QFileInfo info(given.path);
    if (!info.isDir() || !info.isReadable()) {
        *error = u"%1 is not a readable folder"_s.arg(given.path);
        return false;
    }
    QList<Model> all = list();
    for (const Model &other : std::as_const(all)) {
        if (other.name == given.name && !other.sourcePackage.isEmpty()) {
            *error = u"\"%1\" is the installed package %2's model"_s.arg(given.name,
                                                                         other.sourcePackage);
            return false;
        }
    }
    Model m = given;
    m.sourcePackage.clear();
    m.path = info.canonicalFilePath();
    m.addedAt = QDateTime::currentDateTimeUtc();
    measure(m, std::nullopt);
    return m_registry.put(toEntry(m), error);
}

bool Models::remove(const QString &name, QString *error)
{
    return m_registry.remove(u"public model"_s, name, error);
}

QJsonObject Models::toJson(const Model &m) const
{
    return QJsonObject{
        {u"id"_s, m.name},
        {u"name"_s, m.name},
        {u"visibility"_s, u"public"_s},
        {u"task"_s, m.task},
        {u"languages"_s, QJsonArray::fromStringList(m.languages)},
        {u"licence"_s, m.licence},
        {u"source_package"_s,
         m.sourcePackage.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m.sourcePackage)},
        {u"description"_s, m.description},
        {u"file_name"_s, QJsonValue(QJsonValue::Null)},
        {u"mount_path"_s, u"/models/"_s + m.name},
        {u"size_bytes"_s, m.sizeBytes},
        {u"files"_s, m.files},
        {u"sha256"_s, m.sha256},
        {u"available"_s, QFileInfo(m.path).isDir()},
        {u"added_at"_s, m.addedAt.toUTC().toString(Qt::ISODateWithMs)},
        {u"storage_rate_micros_per_hour"_s, QJsonValue(QJsonValue::Null)}, // public: free
        {u"storage_cost_micros"_s, QJsonValue(QJsonValue::Null)}};
}

QJsonArray Models::listJson() const
{
    QJsonArray out;
    for (const Model &m : list())
        out.append(toJson(m));
    return out;
}

} // namespace cardhour::sim
