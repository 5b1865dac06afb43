#pragma once

#include <QCoreApplication>
#include <QString>

namespace cardhour::core {
class BillTicker;
struct GpuType;
} // namespace cardhour::core

namespace cardhour::ui {

// What a host of one GPU type and card count will cost, said before launch, from the provider's
// own figures only: the card price of the catalog, the disk it gives that type and its storage
// price (what a stopped host pays), and the live balance and spend rate of the bill.
class CostPreview
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::CostPreview)
public:
    // Rich text, one paragraph per sentence: running, stopped, and how long the balance lasts
    // (that part only when `ticker` has data).
    static QString text(const core::GpuType &gpu, int count, const core::BillTicker *ticker);

    // Compute, all cards together, per hour.
    static qint64 computePerHourMicros(const core::GpuType &gpu, int count);
    // The disk's storage fee per hour while stopped: the provider's own figure for the type.
    static qint64 storagePerHourMicros(const core::GpuType &gpu);
};

} // namespace cardhour::ui
