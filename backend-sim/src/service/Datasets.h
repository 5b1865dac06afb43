#pragma once

#include "FolderRegistry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

// Shared datasets: host folders the operator registers by name (`cardhour-sim datasets add NAME
// DIR`); an instance that asks for one sees it read-only at /datasets/NAME, shared by every
// instance that asks. The registry is <dataDir>/datasets.json, a FolderRegistry (the one shape
// it shares with the model library).
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

    static bool isValidName(const QString &name) { return FolderRegistry::isValidName(name); }

    QList<Dataset> list() const;
    std::optional<Dataset> find(const QString &name) const;
    // Registers (or re-registers, measuring again) `dir` as `name`. False with *error.
    bool add(const QString &name, const QString &dir, QString *error);
    bool remove(const QString &name, QString *error);
    QJsonArray listJson() const;

    // Size and file count of a folder (links not followed).
    static void measure(const QString &dir, qint64 *bytes, qint64 *files)
    {
        FolderRegistry::measure(dir, bytes, files);
    }

private:
    static Dataset fromEntry(const QJsonObject &o);
    static QJsonObject toEntry(const Dataset &d);

    FolderRegistry m_registry;
};

} // namespace cardhour::sim
