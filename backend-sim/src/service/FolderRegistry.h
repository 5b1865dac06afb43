#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace cardhour::sim {

// The one shape of the provider's registries of named host folders (Datasets, Models): one
// JSON document in the data folder, {"format": FORMAT, KEY: [entry, ...]}, written whole and
// renamed into place, so that the operator's command (`cardhour-sim datasets|models ...`) can
// change it while the provider runs; the provider reads it again whenever the file changed.
// Each entry is an object with at least `name` (isValidName) and `path` (absolute); the rest is
// the owner's. Entries are kept sorted by name, one per name.
class FolderRegistry
{
public:
    FolderRegistry(QString file, QString format, QString key);

    // Names: 1-64 of [a-z0-9._-], starting with a letter or digit (they become a path).
    static bool isValidName(const QString &name);
    // The operator's error for a bad name; `what` is "dataset", "model", ...
    static QString invalidNameMessage(const QString &what, const QString &name);
    // Size and file count of a folder (links not followed).
    static void measure(const QString &dir, qint64 *bytes, qint64 *files);

    // The entries with a valid name and an absolute path, as last written.
    QList<QJsonObject> entries() const;
    QJsonObject find(const QString &name) const; // empty when there is none
    // Writes `all` (sorted by name here). False with *error.
    bool save(QList<QJsonObject> all, QString *error) const;
    // Adds or replaces the entry of `entry`'s name.
    bool put(const QJsonObject &entry, QString *error) const;
    // False with *error when there is no entry of that name; `what` as for invalidNameMessage.
    bool remove(const QString &what, const QString &name, QString *error) const;

    QString file() const { return m_file; }

private:
    void reloadIfChanged() const;

    QString m_file;
    QString m_format;
    QString m_key;
    mutable QList<QJsonObject> m_cache;
    mutable QDateTime m_cacheStamp;
    mutable qint64 m_cacheSize = -1;
};

} // namespace cardhour::sim
