#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

// A MIG-style slice of a whole card (NVIDIA's "GPU instance"): a share of its compute slices and
// of its memory slices, placed where the card's MIG placement allows.
struct GpuSlice
{
    QString of; // the whole card's type id; empty: this type is a whole card
    QString profile; // NVIDIA's profile name, "3g.40gb"
    int profileId = 0; // as `nvidia-smi mig -lgip` numbers it
    int computeSlices = 0; // of the card's cardComputeSlices (its share of the SMs)
    int memorySlices = 0; // of the card's cardMemorySlices (its share of the VRAM)
    int cardComputeSlices = 7;
    int cardMemorySlices = 8;
    int cards = 0; // how many whole cards the slices are cut from
    QList<int> placements; // the memory slices it may start at
};

struct GpuType
{
    QString id;
    QString name;
    QString description;
    int vramMib = 0;
    qint64 pricePerHourMicros = 0; // per card
    // The interruptible class's price as a share of pricePerHourMicros (gpus.json
    // `interruptible.price_percent`, or the type's own `interruptible_price_percent`).
    int interruptiblePricePercent = 100;
    int capacity = 0; // cards this sandbox lends at once
    double cpusPerCard = 8; // what a host of this type gives per card (before scaling
    qint64 memoryMibPerCard = 32768; // to the machine the sandbox runs on)
    qint64 diskGib = 0; // the disk an instance of this type is given (all cards together)
    double powerLimitW = 450; // per card: what nvidia-smi shows and simulated power tops out at
    // What a simulated box shows of the card's hardware: NVLinks bonded between every two cards
    // (0: PCIe only) and the highest graphics and memory clocks.
    int nvlinks = 0;
    int maxGraphicsClockMhz = 2000;
    int maxMemoryClockMhz = 9000;
    // Real cards (detected on this host) or simulated ones. A real type lends exactly the host's
    // cards listed here (nvidia-smi indexes); a simulated one lends `capacity` numbered from 0.
    bool simulated = true;
    QList<int> hostCards;
    GpuSlice slice; // slice.of empty: a whole card
    // The cards an instance of this type can be lent (a slice: its whole card's).
    QList<int> cardPool() const;
    bool isSlice() const { return !slice.of.isEmpty(); }
    // The type whose physical cards this type lends: a slice's whole card, else itself.
    QString physicalType() const { return isSlice() ? slice.of : id; }
    // Per card, of the price class a launch asks for (rounded to the micro-yuan).
    qint64 pricePerHour(bool interruptible) const
    {
        return interruptible ? (pricePerHourMicros * interruptiblePricePercent + 50) / 100
                             : pricePerHourMicros;
    }
};

// A real card found on this host (from nvidia-smi), as the catalog needs it.
struct HostCard
{
    int index = -1;
    QString id; // catalog id for its model ("h200"), see NvidiaGpus::catalogIdFor
    QString name; // "NVIDIA H200"
    int memoryMib = 0;
    double powerLimitW = 0; // 0: not reported
};

// What one account may hold or add (gpus.json `user_limits`; see service/Limits).
struct UserLimits
{
    int instances = 32; // instances not terminated
    int snapshots = 64; // snapshots kept or being taken
    qint64 topupMaxMicros = 100'000'000'000; // one sandbox top-up
    qint64 topupsTotalMaxMicros = 2'000'000'000'000; // all of an account's top-ups together
    qint64 modelStorageBytes = 10LL << 30; // private models and open uploads, declared sizes
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
    qint64 storageRatePerHourMicros(qint64 diskGib) const
    {
        return diskGib * m_storagePricePerGibHourMicros;
    }

    static QJsonObject toJson(const ImageEntry &image);
    // A slice's share of its card ("3g.40gb": 3/7 of the SMs, 4/8 of the VRAM) as the API shows
    // it; an empty object for a whole card.
    static QJsonObject sliceJson(const GpuType &gpu);

    // Offers this host's real cards: one type per model, priced like the built-in type of the
    // same id when there is one (else realCardPricePerHourMicros()). `keepSimulated` keeps the
    // simulated types beside them (a real type replaces a simulated one of the same id).
    void offerHostCards(const QList<HostCard> &cards, bool keepSimulated);
    qint64 realCardPricePerHourMicros() const { return m_realCardPricePerHourMicros; }
    // The most processes one instance may have (gpus.json `pids_limit_per_instance`).
    int pidsLimitPerInstance() const { return m_pidsLimitPerInstance; }
    const UserLimits &userLimits() const { return m_userLimits; }
    // How long before an interruption the provider warns an interruptible host by default
    // (gpus.json `interruptible.notice_seconds`).
    int interruptionNoticeSeconds() const { return m_interruptionNoticeSeconds; }

private:
    QList<GpuType> m_gpus;
    QList<ImageEntry> m_images;
    qint64 m_storagePricePerGibHourMicros = 0;
    qint64 m_realCardPricePerHourMicros = 5'000'000;
    int m_pidsLimitPerInstance = 4096;
    int m_interruptiblePricePercent = 100;
    int m_interruptionNoticeSeconds = 30;
    UserLimits m_userLimits;
};

} // namespace cardhour::sim
