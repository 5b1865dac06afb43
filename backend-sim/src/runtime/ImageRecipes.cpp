#include "runtime/ImageRecipes.h"

#include "core/RuntimeFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

bool isValidId(const QString &id)
{
    static const QRegularExpression pattern(u"^[a-z0-9][a-z0-9._-]{0,63}$"_s);
    return pattern.match(id).hasMatch();
}

} // namespace

ImageRecipes::ImageRecipes(const QString &imagesDir, const QString &tagPrefix)
    : m_imagesDir(QDir(imagesDir.isEmpty() ? defaultImagesDir() : imagesDir).absolutePath()),
      m_tagPrefix(tagPrefix)
{}

QString ImageRecipes::defaultImagesDir()
{
    return RuntimeFiles::imagesDir();
}

QString ImageRecipes::tag(const QString &catalogId) const
{
    return m_tagPrefix + catalogId + u":latest"_s;
}

QString ImageRecipes::rootTag(const ImageRecipe &recipe) const
{
    if (recipe.rootImage.isEmpty())
        return {};
    // A full reference (registry/name:tag) is taken as is.
    if (recipe.rootImage.section(u':', 0, 0).contains(u'/'))
        return recipe.rootImage;
    return m_tagPrefix + recipe.rootImage;
}

std::optional<ImageRecipe> ImageRecipes::recipe(const QString &catalogId, QString *error) const
{
    auto failWith = [&](const QString &message) -> std::optional<ImageRecipe> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!isValidId(catalogId))
        return failWith(u"\"%1\" is not an image id"_s.arg(catalogId));
    const QDir dir(QDir(m_imagesDir).filePath(catalogId));
    if (!QFileInfo::exists(dir.filePath(u"Containerfile"_s))
        && !QFileInfo::exists(dir.filePath(u"Dockerfile"_s)))
        return failWith(
            u"no recipe for image \"%1\" (%2 has no Containerfile)"_s.arg(catalogId, dir.path()));

    ImageRecipe result;
    result.id = catalogId;
    result.dir = dir.absolutePath();
    const QString metaPath = dir.filePath(u"image.json"_s);
    if (!QFileInfo::exists(metaPath))
        return result;
    QFile file(metaPath);
    if (!file.open(QIODevice::ReadOnly))
        return failWith(u"%1: %2"_s.arg(metaPath, file.errorString()));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return failWith(u"%1: not a JSON object (%2)"_s.arg(metaPath, parseError.errorString()));
    const QJsonObject meta = doc.object();
    if (meta.contains(u"id"_s) && meta.value(u"id"_s).toString() != catalogId)
        return failWith(u"%1: \"id\" is \"%2\", not the folder's name \"%3\""_s.arg(
            metaPath, meta.value(u"id"_s).toString(), catalogId));
    result.parent = meta.value(u"parent"_s).toString();
    result.parentArg = meta.value(u"parentArg"_s).toString();
    const QJsonObject root = meta.value(u"root"_s).toObject();
    result.rootImage = root.value(u"image"_s).toString();
    const QString script = root.value(u"script"_s).toString();
    if (!result.parent.isEmpty() && !result.rootImage.isEmpty())
        return failWith(u"%1: give \"parent\" or \"root\", not both"_s.arg(metaPath));
    if (!result.parent.isEmpty() && !isValidId(result.parent))
        return failWith(u"%1: \"parent\" \"%2\" is not an image id"_s.arg(metaPath, result.parent));
    if (!script.isEmpty()) {
        if (result.rootImage.isEmpty())
            return failWith(u"%1: \"root\" has a \"script\" but no \"image\""_s.arg(metaPath));
        result.rootScript = QDir(m_imagesDir).absoluteFilePath(script);
        if (!QFileInfo(result.rootScript).isFile())
            return failWith(
                u"%1: root script %2 does not exist"_s.arg(metaPath, result.rootScript));
    }
    static const QRegularExpression argPattern(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    if (!result.parentArg.isEmpty() && !argPattern.match(result.parentArg).hasMatch())
        return failWith(u"%1: \"parentArg\" \"%2\" is not a build argument name"_s.arg(
            metaPath, result.parentArg));
    return result;
}

QList<ImageRecipe> ImageRecipes::chain(const QString &catalogId, QString *error) const
{
    QList<ImageRecipe> result;
    QSet<QString> seen;
    QString id = catalogId;
    while (!id.isEmpty()) {
        if (seen.contains(id)) {
            if (error)
                *error = u"image \"%1\" is built on itself (parents: %2)"_s.arg(
                    catalogId, QStringList(seen.values()).join(u", "_s));
            return {};
        }
        seen.insert(id);
        QString problem;
        const std::optional<ImageRecipe> step = recipe(id, &problem);
        if (!step) {
            if (error)
                *error =
                    id == catalogId ? problem : u"%1 (needed by \"%2\")"_s.arg(problem, catalogId);
            return {};
        }
        result.prepend(*step);
        id = step->parent;
    }
    return result;
}

QStringList ImageRecipes::recipeIds() const
{
    QStringList ids;
    const QStringList names =
        QDir(m_imagesDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        if (recipe(name))
            ids.append(name);
    }
    // Parents first: order by chain length, then name.
    QHash<QString, qsizetype> depth;
    for (const QString &id : std::as_const(ids))
        depth.insert(id, chain(id).size());
    std::stable_sort(ids.begin(), ids.end(), [&](const QString &a, const QString &b) {
        return depth.value(a) < depth.value(b);
    });
    return ids;
}

QString ImageRecipes::recipeHash(const QString &dir, QString *error)
{
    const QDir root(dir);
    if (!root.exists()) {
        if (error)
            *error = u"%1 does not exist"_s.arg(dir);
        return {};
    }
    QStringList files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(root.relativeFilePath(it.next()));
    std::sort(files.begin(), files.end()); // byte order of UTF-16, independent of locale

    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData("cardhour-recipe/1\n"_ba);
    for (const QString &relative : std::as_const(files)) {
        QFile file(root.filePath(relative));
        if (!file.open(QIODevice::ReadOnly)) {
            if (error)
                *error = u"%1: %2"_s.arg(file.fileName(), file.errorString());
            return {};
        }
        const QByteArray content = file.readAll();
        const bool executable = QFileInfo(file).isExecutable();
        hash.addData(relative.toUtf8());
        hash.addData(executable ? "\0x\0"_ba : "\0-\0"_ba);
        hash.addData(QByteArray::number(content.size()));
        hash.addData("\0"_ba);
        hash.addData(content);
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace cardhour::sim
