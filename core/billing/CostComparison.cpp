#include "billing/CostComparison.h"

#include <QtNumeric>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
constexpr qint64 kSecondsPerHour = 3600;
constexpr int kMaxYears = 20;

std::optional<qint64> savingPermille(qint64 provider, qint64 other)
{
    if (other <= 0)
        return std::nullopt;
    const qint64 diff = other - provider;
    const std::optional<qint64> magnitude = mulDivRounded(diff < 0 ? -diff : diff, 1000, other);
    if (!magnitude)
        return std::nullopt;
    return diff < 0 ? -*magnitude : *magnitude;
}
} // namespace

std::optional<qint64> mulDivRounded(qint64 a, qint64 b, qint64 d)
{
    if (a < 0 || b < 0 || d <= 0)
        return std::nullopt;
    // a × b / d = q × b + r × b / d with a = q × d + r: the products stay as small as they can.
    const qint64 q = a / d;
    const qint64 r = a % d;
    qint64 whole = 0;
    qint64 rest = 0;
    if (qMulOverflow(q, b, &whole) || qMulOverflow(r, b, &rest))
        return std::nullopt;
    const qint64 fraction = rest / d + ((rest % d) * 2 >= d ? 1 : 0);
    qint64 result = 0;
    if (qAddOverflow(whole, fraction, &result))
        return std::nullopt;
    return result;
}

bool CostInputs::isValid() const
{
    return cardPriceMicros > 0 && upkeepPerYearMicros >= 0 && years >= 1 && years <= kMaxYears
        && cloudPerCardHourMicros > 0 && upkeepPerYearMicros <= 1'000'000'000'000'000
        && cardPriceMicros <= 1'000'000'000'000'000;
}

std::optional<qint64> CostComparison::savingPermilleVsCloud() const
{
    return savingPermille(providerMicros, cloudMicros);
}

std::optional<qint64> CostComparison::savingPermilleVsOwn() const
{
    return savingPermille(providerMicros, ownShareMicros);
}

std::optional<CostComparison> CostComparison::forJob(const CostInputs &inputs,
                                                     qint64 providerPerCardHourMicros, int cards,
                                                     qint64 hours)
{
    if (!inputs.isValid() || providerPerCardHourMicros <= 0 || cards <= 0 || hours <= 0)
        return std::nullopt;
    qint64 cardHours = 0;
    qint64 cardSeconds = 0;
    if (qMulOverflow(qint64(cards), hours, &cardHours)
        || qMulOverflow(cardHours, kSecondsPerHour, &cardSeconds))
        return std::nullopt;
    const std::optional<qint64> provider =
        mulDivRounded(cardSeconds, providerPerCardHourMicros, kSecondsPerHour);
    if (!provider)
        return std::nullopt;
    std::optional<CostComparison> result = forUsage(inputs, cardSeconds, *provider);
    if (!result)
        return std::nullopt;
    result->cards = cards;
    if (qMulOverflow(qint64(cards), inputs.cardPriceMicros, &result->ownOutlayMicros))
        return std::nullopt;
    return result;
}

std::optional<CostComparison> CostComparison::forUsage(const CostInputs &inputs, qint64 cardSeconds,
                                                       qint64 chargedMicros)
{
    if (!inputs.isValid() || cardSeconds < 0 || chargedMicros < 0)
        return std::nullopt;
    CostComparison c;
    c.cardSeconds = cardSeconds;
    c.providerMicros = chargedMicros;
    const std::optional<qint64> cloud =
        mulDivRounded(cardSeconds, inputs.cloudPerCardHourMicros, kSecondsPerHour);
    const std::optional<qint64> own = mulDivRounded(cardSeconds, inputs.ownCardTotalMicros(),
                                                    inputs.ownCardHours() * kSecondsPerHour);
    if (!cloud || !own)
        return std::nullopt;
    c.cloudMicros = *cloud;
    c.ownShareMicros = *own;
    return c;
}

LedgerUsage LedgerUsage::fromLedger(const QList<Posting> &postings, const QDateTime &from,
                                    const QDateTime &to,
                                    const std::function<std::optional<int>(const QString &)> &cards)
{
    LedgerUsage usage;
    for (const Posting &p : postings) {
        if (p.kind != u"compute"_s || !p.periodStart.isValid() || !p.periodEnd.isValid())
            continue;
        if (p.periodEnd < from || p.periodEnd >= to)
            continue;
        const std::optional<int> count = cards(p.instanceId);
        if (!count || *count <= 0) {
            ++usage.leftOutPostings;
            usage.leftOutMicros += -p.amountMicros;
            continue;
        }
        const qint64 seconds = qMax<qint64>(0, p.periodStart.secsTo(p.periodEnd));
        usage.cardSeconds += seconds * *count;
        usage.chargedMicros += -p.amountMicros;
        ++usage.postings;
    }
    return usage;
}

} // namespace cardhour::core
