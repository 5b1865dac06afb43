#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class Catalog;
class Datasets;

// The one-click apps' sample datasets (the catalog's apps[].datasets). Each is made offline by
// its app's own image: /usr/local/lib/cardhour/datasets/NAME OUT runs in a throwaway box
// without network, with a fresh folder mounted at OUT; the folder then replaces
// <dataDir>/datasets/NAME and is registered in Datasets like an operator's folder, so every
// launch of the app mounts it read-only at /datasets/NAME. The image id it was made from is
// kept beside it (NAME.image), so a rebuilt image makes it again and a current one does not.
class SampleDatasets
{
public:
    struct Options
    {
        QString program = QStringLiteral("podman"); // or docker
        QString containersConf; // CONTAINERS_CONF for the engine; empty: inherited
        QString tagPrefix = QStringLiteral("localhost/cardhour/");
        QString dataDir;
        int timeoutMs = 180000; // one dataset
    };

    struct Wanted
    {
        QString dataset;
        QString imageId; // catalog image whose recipe makes it
    };

    SampleDatasets(Options options, Datasets &datasets);

    // What the catalog's apps declare, one entry per dataset (the first image that names it).
    static QList<Wanted> declaredBy(const Catalog &catalog);

    // Makes each wanted dataset that is missing or older than its image; an image that is not
    // built yet is skipped (made on a later call). Blocks. Returns one line per dataset made,
    // skipped or failed; *failed is set when one could not be made.
    QStringList ensure(const QList<Wanted> &wanted, bool force, bool *failed);

private:
    QString imageIdOf(const QString &tag) const;
    bool make(const Wanted &wanted, const QString &image, QString *error);

    Options m_options;
    Datasets &m_datasets;
};

} // namespace cardhour::sim
