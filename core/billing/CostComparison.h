#pragma once

#include "api/Models.h"

#include <QDateTime>
#include <QList>
#include <QtGlobal>

#include <functional>
#include <optional>

namespace cardhour::core {

// What owning a card and renting from a public cloud cost, as the user sets them. The defaults
// are the product brief's figures: an RTX 4090-class card at 13,500 yuan plus 4,500 yuan a year
// for power and upkeep, written off over 3 years, and a public cloud at 4.55 yuan a card-hour.
struct CostInputs
{
    qint64 cardPriceMicros = 13'500'000'000;
    qint64 upkeepPerYearMicros = 4'500'000'000;
    int years = 3;
    qint64 cloudPerCardHourMicros = 4'550'000;

    // Every figure positive (years 1-20): otherwise the comparison has no meaning.
    bool isValid() const;
    // A card kept for `years` years: its price and every year's power and upkeep.
    qint64 ownCardTotalMicros() const { return cardPriceMicros + upkeepPerYearMicros * years; }
    // The hours in `years` years of 365 days: what one owned card could run at full use.
    qint64 ownCardHours() const { return qint64(years) * 365 * 24; }
};

// The three ways to pay for the same card-hours, in exact micro-yuan (each rounded to the
// nearest micro-yuan once, at the end).
struct CostComparison
{
    qint64 cardSeconds = 0;
    int cards = 0; // 0 for real usage (several hosts of different sizes)
    qint64 providerMicros = 0; // this provider: the catalog price, or what the ledger charged
    qint64 cloudMicros = 0; // card-hours × the public cloud's price
    // The job's share of owned cards kept busy all their life: card-hours × total / hours.
    qint64 ownShareMicros = 0;
    // Buying the cards for the job: cards × card price (0 for real usage).
    qint64 ownOutlayMicros = 0;

    // Savings of this provider against the other two in tenths of a percent (rounded), or unset
    // when that cost is zero.
    std::optional<qint64> savingPermilleVsCloud() const;
    std::optional<qint64> savingPermilleVsOwn() const;

    // A planned job: `cards` cards for `hours` hours at the catalog's per-card price. Unset for
    // invalid inputs (a non-positive figure) or amounts beyond what qint64 micro-yuan holds.
    static std::optional<CostComparison>
    forJob(const CostInputs &inputs, qint64 providerPerCardHourMicros, int cards, qint64 hours);
    // Card-seconds already run and what the provider charged for them.
    static std::optional<CostComparison> forUsage(const CostInputs &inputs, qint64 cardSeconds,
                                                  qint64 chargedMicros);
};

// The compute the ledger shows in a window: compute postings whose billed period ended in
// [from, to), each counted whole, with the cards of its host.
struct LedgerUsage
{
    qint64 cardSeconds = 0;
    qint64 chargedMicros = 0; // positive
    int postings = 0;
    // Postings of hosts whose size is not known here (terminated before this session saw them).
    int leftOutPostings = 0;
    qint64 leftOutMicros = 0;

    static LedgerUsage fromLedger(const QList<Posting> &postings, const QDateTime &from,
                                  const QDateTime &to,
                                  const std::function<std::optional<int>(const QString &)> &cards);
};

// a × b / d rounded to the nearest integer (halves up), for a, b >= 0 and d > 0; unset when the
// result or an intermediate product does not fit in qint64.
std::optional<qint64> mulDivRounded(qint64 a, qint64 b, qint64 d);

} // namespace cardhour::core
