#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

struct GpuType
{
    QString id;
    QString name;
    QString description;
    int vramMib = 0;
    qint64 pricePerHourMicros = 0; // per card
    int capacity = 0;              // cards this sandbox lends at once
    double cpusPerCard = 8;        // what a host of this type gives per card (before scaling
    qint64 memoryMibPerCard = 32768; // to the machine the sandbox runs on)
    qint64 diskGib = 0;            // the disk an instance of this type is given (all cards together)
};

struct ImageEntry
{
    QString id;
    QString name;
    QString description;
    QString os;
    QString sshUser;
    QJsonArray apps; // [{name, port, protocol}]
};

// The GPU types and images on offer, read from `gpus.json` and `images.json` (built-in copies
// under :/catalog, or a directory given with --catalog). Validated on load.
class Catalog
{
public:
    // Throws std::runtime_error with a message naming the file and the problem.
    static Catalog load(const QString &directory = QStringLiteral(":/catalog"));

    const QList<GpuType> &gpus() const { return m_gpus; }
    const QList<ImageEntry> &images() const { return m_images; }
    std::optional<GpuType> gpu(const QString &id) const;
    std::optional<ImageEntry> image(const QString &id) const;
    // One price for all storage, per GiB-hour (may be zero): what a stopped instance's disk
    // costs. storageRatePerHour() is that price times `diskGib`.
    qint64 storagePricePerGibHourMicros() const { return m_storagePricePerGibHourMicros; }
    qint64 storageRatePerHourMicros(qint64 diskGib) const { return diskGib * m_storagePricePerGibHourMicros; }

    static QJsonObject toJson(const ImageEntry &image);

private:
    QList<GpuType> m_gpus;
    QList<ImageEntry> m_images;
    qint64 m_storagePricePerGibHourMicros = 0;
};

} // namespace cardhour::sim
