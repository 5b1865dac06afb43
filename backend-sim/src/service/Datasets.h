#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

// Shared datasets: host folders the operator registers by name (`cardhour-sim datasets add NAME
// DIR`); an instance that asks for one sees it read-only at /datasets/NAME, shared by every
// instance that asks. The registry is <dataDir>/datasets.json, written whole and renamed into
// place, so the command can change it while the provider runs; the provider reads it again
// whenever the file changed.
class Datasets
{
public:
    struct Dataset
    {
        QString name;
        QString path; // absolute, canonical
        qint64 sizeBytes = 0; // measured when added (or refreshed)
        qint64 files = 0;
        QDateTime addedAt;
    };

    explicit Datasets(QString dataDir);

    // Names: 1-64 of [a-z0-9._-], starting with a letter or digit (they become a path).
    static bool isValidName(const QString &name);

    QList<Dataset> list() const;
    std::optional<Dataset> find(const QString &name) const;
    // Registers (or re-registers, measuring again) `dir` as `name`. False with *error.
    bool add(const QString &name, const QString &dir, QString *error);
    bool remove(const QString &name, QString *error);
    QJsonArray listJson() const;

    // Size and file count of a folder (links not followed).
    static void measure(const QString &dir, qint64 *bytes, qint64 *files);

private:
    void reloadIfChanged() const;
    bool save(const QList<Dataset> &all, QString *error) const;

    QString m_file;
    mutable QList<Dataset> m_cache;
    mutable QDateTime m_cacheStamp;
    mutable qint64 m_cacheSize = -1;
};

} // namespace cardhour::sim
