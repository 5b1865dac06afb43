#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::sim {

// One catalog image's recipe, read from images/<id>/ (see ImageRecipes).
struct ImageRecipe
{
    QString id;
    QString dir; // absolute
    QString parent; // catalog id it is built on, or empty
    QString parentArg; // build argument that receives the parent's (or root's) tag
    QString rootImage; // root image below the prefix, e.g. "debian:bookworm", or empty
    QString rootScript; // absolute path of the script that makes the root, or empty
};

// The recipes of the container images behind the catalog's image ids, one folder per id in an
// images directory, and the tags their images get. Files only; no engine is asked.
//
//   images/<id>/Containerfile   the recipe (plus any files it COPYs)
//   images/<id>/image.json      optional: where the recipe starts from, e.g.
//       {"id": "pytorch", "parent": "base", "parentArg": "BASE_IMAGE"}
//           built on catalog image "base": built first when not Current, and passed to
//           `podman build` as --build-arg BASE_IMAGE=<tag of base>;
//       {"id": "base", "root": {"image": "debian:bookworm", "script": "bootstrap-debian"},
//        "parentArg": "DEBIAN_IMAGE"}
//           built on a root image (tag prefix + "debian:bookworm") that is not built from a
//           recipe but made, when missing, by a script in the images directory (run with
//           the root's tag as its argument, CONTAINERS_CONF and PODMAN in its environment).
//     Without image.json the Containerfile's own FROM is used as is.
//
// Catalog id X is tagged `<tagPrefix>X:latest` (default localhost/cardhour/X:latest).
class ImageRecipes
{
public:
    // An empty imagesDir: defaultImagesDir().
    ImageRecipes(const QString &imagesDir, const QString &tagPrefix);

    // The installed (or the build tree's) images folder: RuntimeFiles::imagesDir().
    static QString defaultImagesDir();

    QString imagesDir() const { return m_imagesDir; } // absolute
    QString tagPrefix() const { return m_tagPrefix; }
    QString tag(const QString &catalogId) const;
    QString rootTag(const ImageRecipe &recipe) const;

    // Folders of the images directory that hold a Containerfile, parents before children.
    QStringList recipeIds() const;
    // Reads images/<id>; nullopt with *error set when it is missing or malformed.
    std::optional<ImageRecipe> recipe(const QString &catalogId, QString *error = nullptr) const;
    // The recipe and the recipes it is built on, the root-most first; empty with *error set on a
    // missing or malformed recipe or a cycle.
    QList<ImageRecipe> chain(const QString &catalogId, QString *error = nullptr) const;

    // SHA-256 (hex) over every file below dir: relative paths, executable bits and contents,
    // in a fixed order; timestamps and the folder's own location do not count. Empty with
    // *error set when a file cannot be read.
    static QString recipeHash(const QString &dir, QString *error = nullptr);

private:
    QString m_imagesDir;
    QString m_tagPrefix;
};

} // namespace cardhour::sim
