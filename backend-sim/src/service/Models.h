#pragma once

#include "FolderRegistry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::sim {

// The public model library: trained models every user may mount, read-only, at /models/NAME.
// Two sources: the model packages of the catalog's models.json that are installed on the host
// (registered by refreshInstalled(), their licence read from the package's copyright file),
// and folders the operator adds (`cardhour-sim models add NAME DIR`). The registry is
// <dataDir>/models.json, a FolderRegistry like datasets.json, so the command can change it
// while the provider runs. A model named by single files is staged into
// <dataDir>/models/public/NAME (hard links where the file system allows, else copies): a
// mount is always a whole folder, so nothing else of the package's folder shows through.
class Models
{
public:
    struct Model
    {
        QString name;
        QString task; // "ocr", "speech-to-text", "object-detection", ...
        QStringList languages; // BCP 47 tags
        QString licence;
        QString sourcePackage; // the Debian package, or empty for an operator's folder
        QString description;
        QString path; // the folder mounted at /models/NAME (absolute)
        qint64 sizeBytes = 0;
        qint64 files = 0;
        QString sha256; // see manifestSha256
        QDateTime addedAt;
        QString stamp; // size and newest change of the folder when sha256 was computed
    };

    // `catalogModelsFile`: the catalog's models.json (which packages hold models, and where).
    Models(QString dataDir, QString catalogModelsFile);

    static bool isValidName(const QString &name) { return FolderRegistry::isValidName(name); }
    // The catalog's models.json in `catalogDir` (a --catalog folder), else the built-in one.
    static QString catalogFileIn(const QString &catalogDir);

    QList<Model> list() const;
    std::optional<Model> find(const QString &name) const;
    QJsonObject toJson(const Model &model) const;
    QJsonArray listJson() const;

    // Registers the catalog's models whose package is installed, drops installed ones whose
    // package is gone; hashes only what changed. False with *error if the registry cannot be
    // written or the catalog file is unreadable.
    bool refreshInstalled(QString *error);
    // The operator's folder as a public model (or again, measured and hashed anew).
    bool add(const Model &model, QString *error);
    bool remove(const QString &name, QString *error);

    // SHA-256 of one file; of a folder, SHA-256 of its `sha256sum` listing (lines
    // "<hex>  <relative path>\n" sorted by path), so a one-file folder's is its file's digest.
    static QString manifestSha256(const QString &dir, qint64 *bytes, qint64 *files);
    static QString fileSha256(const QString &path);
    // The first `License:` of a Debian machine-readable copyright file, or empty.
    static QString packageLicence(const QString &package);

private:
    static Model fromEntry(const QJsonObject &o);
    static QJsonObject toEntry(const Model &m);
    bool save(const QList<Model> &all, QString *error) const;
    static QString stampOf(const QString &dir);
    // Hashes `m` unless its stamp matches `previous`'s, then copies the digest over.
    static void measure(Model &m, const std::optional<Model> &previous);

    QString m_dataDir;
    QString m_catalogFile;
    FolderRegistry m_registry;
};

} // namespace cardhour::sim
