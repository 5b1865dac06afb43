#include "CostPreview.h"

#include "Format.h"
#include "api/Models.h"
#include "billing/BillTicker.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
constexpr qint64 msPerDay = 24LL * 3600 * 1000;
} // namespace

qint64 CostPreview::computePerHourMicros(const core::GpuType &gpu, int count)
{
    return gpu.pricePerHourMicros * qMax(1, count);
}

qint64 CostPreview::storagePerHourMicros(const core::GpuType &gpu)
{
    return gpu.storageRateMicrosPerHourWhenStopped;
}

QString CostPreview::text(const core::GpuType &gpu, int count, const core::BillTicker *ticker)
{
    using core::BillTicker;
    const qint64 perHour = computePerHourMicros(gpu, count);
    const qint64 storage = storagePerHourMicros(gpu);
    QStringList lines;
    if (gpu.isSlice()) {
        //: %3 a MIG profile ("3g.40gb"), %4/%5 its share of the card's SMs
        lines << tr("<b>Running:</b> %1 per hour, %2 per day (one MIG slice %3, %4/%5 of the "
                    "card's SMs), billed per second.")
                     .arg(Format::exactMoney(perHour),
                          Format::money(BillTicker::costOf(msPerDay, perHour)), gpu.migProfile,
                          QString::number(gpu.computeSlices),
                          QString::number(gpu.cardComputeSlices));
    } else {
        //: %3 cards × %4 per card-hour
        lines << tr("<b>Running:</b> %1 per hour, %2 per day (%3 × %4 per card-hour), billed per "
                    "second.")
                     .arg(Format::exactMoney(perHour),
                          Format::money(BillTicker::costOf(msPerDay, perHour)),
                          QString::number(qMax(1, count)),
                          Format::exactMoney(gpu.pricePerHourMicros));
    }
    if (storage > 0) {
        lines << tr("<b>Stopped:</b> its %1 GiB disk is billed at %2 per GiB-hour: %3 per hour, "
                    "%4 per day.")
                     .arg(QString::number(gpu.diskGib),
                          Format::exactMoney(gpu.storagePricePerGibHourMicros),
                          Format::exactMoney(storage),
                          Format::exactMoney(BillTicker::costOf(msPerDay, storage)));
    } else {
        lines << tr("<b>Stopped:</b> its %1 GiB disk costs nothing (the provider's storage "
                    "price is %2 per GiB-hour).")
                     .arg(QString::number(gpu.diskGib),
                          Format::exactMoney(gpu.storagePricePerGibHourMicros));
    }
    if (ticker && ticker->hasData()) {
        // What already runs keeps running: the balance lasts at the combined rate.
        const qint64 balance = ticker->balanceMicros();
        const qint64 rate = ticker->spendRateMicrosPerHour() + perHour;
        QString line =
            tr("Your balance of %1 lasts %2 at %3 (with what already runs).")
                .arg(Format::money(balance), Format::duration(BillTicker::msToSpend(balance, rate)),
                     Format::ratePerHour(rate));
        if (storage > 0) {
            const qint64 stoppedRate = ticker->spendRateMicrosPerHour() + storage;
            line += u' '
                + tr("Stopped, it lasts %1.")
                      .arg(Format::duration(BillTicker::msToSpend(balance, stoppedRate)));
        }
        lines << line;
    }
    return lines.join(u"<br>"_s);
}

} // namespace cardhour::ui
