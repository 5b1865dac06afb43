#include "Catalog.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace Qt::StringLiterals;

// The built-in catalog lives in a static library; make sure its resources are registered.
// (Q_INIT_RESOURCE must be used outside any namespace.)
static void initBuiltInCatalog()
{
    Q_INIT_RESOURCE(catalog);
}

namespace cardhour::sim {

namespace {

[[noreturn]] void fail(const QString &file, const QString &what)
{
    throw std::runtime_error(u"catalog %1: %2"_s.arg(file, what).toStdString());
}

// The whole document, checked for its format and for an array under `key`.
QJsonObject readDocument(const QString &path, const QString &format, const QString &key)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        fail(path, file.errorString());
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        fail(path, u"invalid JSON: %1 at offset %2"_s.arg(error.errorString()).arg(error.offset));
    if (doc.object().value(u"format"_s).toString() != format)
        fail(path, u"\"format\" must be \"%1\""_s.arg(format));
    if (!doc.object().value(key).isArray())
        fail(path, u"\"%1\" must be an array"_s.arg(key));
    return doc.object();
}

QString requireId(const QString &path, const QJsonObject &o, QSet<QString> &seen)
{
    static const QRegularExpression idPattern(u"^[a-z0-9][a-z0-9-]{0,31}$"_s);
    const QString id = o.value(u"id"_s).toString();
    if (!idPattern.match(id).hasMatch())
        fail(path, u"id \"%1\" must be 1-32 of a-z, 0-9 and -"_s.arg(id));
    if (seen.contains(id))
        fail(path, u"id \"%1\" appears twice"_s.arg(id));
    seen.insert(id);
    return id;
}

QString requireText(const QString &path, const QJsonObject &o, const QString &key)
{
    const QString text = o.value(key).toString();
    if (text.trimmed().isEmpty())
        fail(
            path,
            u"\"%1\" of \"%2\" must be a non-empty string"_s.arg(key, o.value(u"id"_s).toString()));
    return text;
}

qint64 requireInteger(const QString &path, const QJsonObject &o, const QString &key, qint64 min,
                      qint64 max)
{
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(-1);
    // The range first: converting a double beyond qint64 to an integer is undefined.
    if (!v.isDouble() || d < static_cast<double>(min) || d > static_cast<double>(max)
        || d != std::floor(d)) {
        const QString owner = o.value(u"id"_s).toString();
        fail(path,
             u"\"%1\"%2 must be an integer in [%3, %4]"_s
                 .arg(key, owner.isEmpty() ? QString() : u" of \"%1\""_s.arg(owner))
                 .arg(min)
                 .arg(max));
    }
    return static_cast<qint64>(d);
}

// A share of `whole`, rounded to the nearest unit (prices, MiB).
qint64 shareOf(qint64 whole, double share)
{
    return static_cast<qint64>(std::llround(double(whole) * share));
}

// The slices a card offers (its `mig` member): each a type of its own whose VRAM, price, CPUs,
// memory and disk are the card's times the share of the card it takes. A slice takes the larger
// of its compute and memory shares: a 1g.20gb blocks two memory slices, so it is priced as two.
QList<GpuType> slicesOf(const QString &path, const GpuType &card, const QJsonObject &mig,
                        QSet<QString> &seen)
{
    const int cardCompute = int(requireInteger(path, mig, u"compute_slices"_s, 1, 8));
    const int cardMemory = int(requireInteger(path, mig, u"memory_slices"_s, 1, 8));
    QList<GpuType> slices;
    for (const QJsonValue &value : mig.value(u"profiles"_s).toArray()) {
        const QJsonObject o = value.toObject();
        GpuSlice slice;
        slice.of = card.id;
        slice.profile = o.value(u"profile"_s).toString();
        static const QRegularExpression profilePattern(u"^[1-8]g\\.[0-9]{1,4}gb$"_s);
        if (!profilePattern.match(slice.profile).hasMatch())
            fail(path,
                 u"MIG profile \"%1\" of \"%2\" must look like \"3g.40gb\""_s.arg(slice.profile,
                                                                                  card.id));
        slice.profileId = int(requireInteger(path, o, u"profile_id"_s, 0, 255));
        slice.computeSlices = int(requireInteger(path, o, u"compute_slices"_s, 1, cardCompute));
        slice.memorySlices = int(requireInteger(path, o, u"memory_slices"_s, 1, cardMemory));
        slice.cardComputeSlices = cardCompute;
        slice.cardMemorySlices = cardMemory;
        slice.cards = card.capacity;
        for (const QJsonValue &start : o.value(u"placements"_s).toArray()) {
            const int first = start.toInt(-1);
            if (first < 0 || first + slice.memorySlices > cardMemory)
                fail(path,
                     u"MIG profile \"%1\" of \"%2\" has a placement outside the card"_s.arg(
                         slice.profile, card.id));
            slice.placements.append(first);
        }
        if (slice.placements.isEmpty())
            fail(path,
                 u"MIG profile \"%1\" of \"%2\" lists no placements"_s.arg(slice.profile, card.id));
        const double share = std::max(double(slice.computeSlices) / cardCompute,
                                      double(slice.memorySlices) / cardMemory);
        GpuType type = card;
        type.id = card.id + u'-' + QString(slice.profile).replace(u'.', u'-');
        QJsonObject named{{u"id"_s, type.id}};
        requireId(path, named, seen);
        type.name = u"%1 MIG %2"_s.arg(card.name, slice.profile);
        type.description = u"MIG slice %1 of an %2: %3/%4 of its SMs, %5/%6 of its VRAM."_s
                               .arg(slice.profile, card.name)
                               .arg(slice.computeSlices)
                               .arg(cardCompute)
                               .arg(slice.memorySlices)
                               .arg(cardMemory);
        type.vramMib = int(qint64(card.vramMib) * slice.memorySlices / cardMemory);
        type.pricePerHourMicros = shareOf(card.pricePerHourMicros, share);
        type.cpusPerCard = std::max(1.0, std::round(card.cpusPerCard * share * 10) / 10);
        type.memoryMibPerCard = shareOf(card.memoryMibPerCard, share);
        type.diskGib = std::max<qint64>(1, qint64(std::ceil(double(card.diskGib) * share)));
        type.nvlinks = 0; // a MIG device has no NVLink peers
        // As many as fit on every card at once when all are this profile.
        type.capacity = card.capacity
            * int(std::min<qsizetype>(slice.placements.size(), cardCompute / slice.computeSlices));
        type.slice = slice;
        slices.append(type);
    }
    if (slices.isEmpty())
        fail(path, u"\"mig\" of \"%1\" lists no profiles"_s.arg(card.id));
    return slices;
}

} // namespace

Catalog Catalog::load(const QString &directory)
{
    initBuiltInCatalog();
    Catalog catalog;
    const QString gpuPath = directory + u"/gpus.json"_s;
    const QJsonObject gpuDocument = readDocument(gpuPath, u"cardhour-gpu-catalog/1"_s, u"gpus"_s);
    // At most 0.01 yuan per GiB-hour and 64 TiB per instance: a stopped instance's rate stays
    // below 10^9 micro-yuan per hour, like a card's price. Zero is a free disk.
    catalog.m_storagePricePerGibHourMicros =
        requireInteger(gpuPath, gpuDocument, u"storage_price_per_gib_hour_micros"_s, 0, 10'000);
    // Processes per instance (the container's pids cgroup): a fork bomb in one box must not
    // take the host's process table from the provider and the other boxes.
    if (gpuDocument.contains(u"pids_limit_per_instance"_s))
        catalog.m_pidsLimitPerInstance =
            int(requireInteger(gpuPath, gpuDocument, u"pids_limit_per_instance"_s, 64, 1'000'000));
    if (gpuDocument.contains(u"user_limits"_s)) {
        // One account must not take the whole host: instances, snapshots, sandbox money.
        if (!gpuDocument.value(u"user_limits"_s).isObject())
            fail(gpuPath, u"\"user_limits\" must be an object"_s);
        const QJsonObject limits = gpuDocument.value(u"user_limits"_s).toObject();
        UserLimits &l = catalog.m_userLimits;
        if (limits.contains(u"instances"_s))
            l.instances = int(requireInteger(gpuPath, limits, u"instances"_s, 1, 10'000));
        if (limits.contains(u"snapshots"_s))
            l.snapshots = int(requireInteger(gpuPath, limits, u"snapshots"_s, 0, 100'000));
        // A payment of at least 0.01 yuan; no more than the provider's top-up and balance caps.
        if (limits.contains(u"topup_max_micros"_s))
            l.topupMaxMicros =
                requireInteger(gpuPath, limits, u"topup_max_micros"_s, 10'000, 100'000'000'000);
        if (limits.contains(u"topups_total_max_micros"_s))
            l.topupsTotalMaxMicros = requireInteger(gpuPath, limits, u"topups_total_max_micros"_s,
                                                    10'000, 1'000'000'000'000'000);
        if (limits.contains(u"model_storage_bytes"_s))
            l.modelStorageBytes =
                requireInteger(gpuPath, limits, u"model_storage_bytes"_s, 0, 1LL << 50);
        for (auto it = limits.constBegin(); it != limits.constEnd(); ++it)
            if (!QStringList{u"instances"_s, u"snapshots"_s, u"topup_max_micros"_s,
                             u"topups_total_max_micros"_s, u"model_storage_bytes"_s}
                     .contains(it.key()))
                fail(gpuPath, u"\"user_limits\" has an unknown member \"%1\""_s.arg(it.key()));
    }
    if (gpuDocument.contains(u"real_card_price_per_hour_micros"_s))
        catalog.m_realCardPricePerHourMicros = requireInteger(
            gpuPath, gpuDocument, u"real_card_price_per_hour_micros"_s, 0, 1'000'000'000);
    if (gpuDocument.contains(u"interruptible"_s)) {
        // The cheaper class the provider may stop with a notice when it needs the cards back.
        const QJsonObject interruptible = gpuDocument.value(u"interruptible"_s).toObject();
        catalog.m_interruptiblePricePercent =
            int(requireInteger(gpuPath, interruptible, u"price_percent"_s, 1, 100));
        catalog.m_interruptionNoticeSeconds =
            int(requireInteger(gpuPath, interruptible, u"notice_seconds"_s, 0, 3600));
    }
    QSet<QString> seen;
    for (const QJsonValue &value : gpuDocument.value(u"gpus"_s).toArray()) {
        const QJsonObject o = value.toObject();
        GpuType gpu;
        gpu.id = requireId(gpuPath, o, seen);
        gpu.name = requireText(gpuPath, o, u"name"_s);
        gpu.description = o.value(u"description"_s).toString();
        gpu.vramMib = static_cast<int>(requireInteger(gpuPath, o, u"vram_mib"_s, 1, 1 << 22));
        // At most 1 000 yuan per card-hour: keeps every cost product far from overflow.
        gpu.pricePerHourMicros =
            requireInteger(gpuPath, o, u"price_per_hour_micros"_s, 0, 1'000'000'000);
        gpu.capacity = static_cast<int>(requireInteger(gpuPath, o, u"capacity"_s, 0, 4096));
        gpu.interruptiblePricePercent = o.contains(u"interruptible_price_percent"_s)
            ? int(requireInteger(gpuPath, o, u"interruptible_price_percent"_s, 1, 100))
            : catalog.m_interruptiblePricePercent;
        if (o.contains(u"cpus_per_card"_s))
            gpu.cpusPerCard =
                static_cast<double>(requireInteger(gpuPath, o, u"cpus_per_card"_s, 1, 256));
        if (o.contains(u"memory_mib_per_card"_s))
            gpu.memoryMibPerCard =
                requireInteger(gpuPath, o, u"memory_mib_per_card"_s, 256, 4 << 20);
        gpu.diskGib = requireInteger(gpuPath, o, u"disk_gib"_s, 1, 65'536);
        if (o.contains(u"power_limit_w"_s))
            gpu.powerLimitW =
                static_cast<double>(requireInteger(gpuPath, o, u"power_limit_w"_s, 10, 2000));
        if (o.contains(u"nvlinks"_s))
            gpu.nvlinks = static_cast<int>(requireInteger(gpuPath, o, u"nvlinks"_s, 0, 64));
        if (o.contains(u"max_graphics_clock_mhz"_s))
            gpu.maxGraphicsClockMhz = static_cast<int>(
                requireInteger(gpuPath, o, u"max_graphics_clock_mhz"_s, 100, 10'000));
        if (o.contains(u"max_memory_clock_mhz"_s))
            gpu.maxMemoryClockMhz = static_cast<int>(
                requireInteger(gpuPath, o, u"max_memory_clock_mhz"_s, 100, 50'000));
        catalog.m_gpus.append(gpu);
        if (o.contains(u"mig"_s))
            catalog.m_gpus.append(slicesOf(gpuPath, gpu, o.value(u"mig"_s).toObject(), seen));
    }
    if (catalog.m_gpus.isEmpty())
        fail(gpuPath, u"lists no GPU types"_s);
    // A slice's share of its card's disk, but never less than the smallest whole host's: no
    // host on offer has a smaller /workspace than the cheapest whole card's.
    qint64 smallestDisk = 0;
    for (const GpuType &gpu : std::as_const(catalog.m_gpus))
        if (!gpu.isSlice() && (smallestDisk == 0 || gpu.diskGib < smallestDisk))
            smallestDisk = gpu.diskGib;
    for (GpuType &gpu : catalog.m_gpus)
        if (gpu.isSlice())
            gpu.diskGib = std::max(gpu.diskGib, smallestDisk);

    const QString imagePath = directory + u"/images.json"_s;
    seen.clear();
    for (const QJsonValue &value :
         readDocument(imagePath, u"cardhour-image-catalog/1"_s, u"images"_s)
             .value(u"images"_s)
             .toArray()) {
        const QJsonObject o = value.toObject();
        ImageEntry image;
        image.id = requireId(imagePath, o, seen);
        image.name = requireText(imagePath, o, u"name"_s);
        image.description = requireText(imagePath, o, u"description"_s);
        image.os = o.value(u"os"_s).toString();
        image.sshUser = o.value(u"ssh_user"_s).toString(u"root"_s);
        image.apps = o.value(u"apps"_s).toArray();
        catalog.m_images.append(image);
    }
    if (catalog.m_images.isEmpty())
        fail(imagePath, u"lists no images"_s);
    return catalog;
}

QList<int> GpuType::cardPool() const
{
    if (isSlice()) { // its whole card's
        QList<int> pool;
        for (int i = 0; i < slice.cards; ++i)
            pool.append(i);
        return pool;
    }
    if (!simulated)
        return hostCards;
    QList<int> pool;
    pool.reserve(capacity);
    for (int i = 0; i < capacity; ++i)
        pool.append(i);
    return pool;
}

void Catalog::offerHostCards(const QList<HostCard> &cards, bool keepSimulated)
{
    QList<GpuType> real;
    for (const HostCard &card : cards) {
        auto same = std::find_if(real.begin(), real.end(),
                                 [&](const GpuType &t) { return t.id == card.id; });
        if (same == real.end()) {
            GpuType type;
            // Sized and priced like the built-in type of this model, where there is one.
            if (const std::optional<GpuType> known = gpu(card.id))
                type = *known;
            else {
                type.pricePerHourMicros = m_realCardPricePerHourMicros;
                type.interruptiblePricePercent = m_interruptiblePricePercent;
            }
            type.id = card.id;
            type.name = card.name;
            type.description = type.description.isEmpty()
                ? u"A real card of this host."_s
                : type.description + u" A real card of this host."_s;
            type.vramMib = card.memoryMib;
            if (card.powerLimitW > 0)
                type.powerLimitW = card.powerLimitW;
            if (type.diskGib <= 0)
                type.diskGib = 100;
            type.simulated = false;
            type.capacity = 0;
            type.hostCards.clear();
            real.append(type);
            same = real.end() - 1;
        }
        same->hostCards.append(card.index);
        same->capacity = int(same->hostCards.size());
    }
    if (real.isEmpty())
        return;
    if (keepSimulated) {
        // A real card's slices would need MIG set up on the host: its simulated slices go with
        // the simulated card it replaces.
        QSet<QString> realIds;
        for (const GpuType &type : std::as_const(real))
            realIds.insert(type.id);
        for (const GpuType &type : std::as_const(m_gpus)) {
            if (!realIds.contains(type.id) && !realIds.contains(type.slice.of))
                real.append(type);
        }
    }
    m_gpus = real;
}

std::optional<GpuType> Catalog::gpu(const QString &id) const
{
    for (const GpuType &gpu : m_gpus) {
        if (gpu.id == id)
            return gpu;
    }
    return std::nullopt;
}

std::optional<ImageEntry> Catalog::image(const QString &id) const
{
    for (const ImageEntry &image : m_images) {
        if (image.id == id)
            return image;
    }
    return std::nullopt;
}

QJsonObject Catalog::sliceJson(const GpuType &gpu)
{
    if (!gpu.isSlice())
        return {};
    return {{u"of"_s, gpu.slice.of},
            {u"profile"_s, gpu.slice.profile},
            {u"compute_slices"_s, gpu.slice.computeSlices},
            {u"memory_slices"_s, gpu.slice.memorySlices},
            {u"card_compute_slices"_s, gpu.slice.cardComputeSlices},
            {u"card_memory_slices"_s, gpu.slice.cardMemorySlices}};
}

QJsonObject Catalog::toJson(const ImageEntry &image)
{
    return {
        {u"id"_s, image.id}, {u"name"_s, image.name},        {u"description"_s, image.description},
        {u"os"_s, image.os}, {u"ssh_user"_s, image.sshUser}, {u"apps"_s, image.apps}};
}

} // namespace cardhour::sim
