#include "CardLending.h"

#include "store/Database.h"

#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

using Holding = CardLending::Holding;

// Where on card `card` a slice of `slice` fits beside `held` (the card's other holdings): the
// first allowed start whose memory slices are all free, while the compute slices last.
std::optional<Holding> placeOnCard(const GpuSlice &slice, int card, const QList<Holding> &held)
{
    int compute = 0;
    quint32 usedMemory = 0;
    for (const Holding &h : held) {
        if (h.card != card)
            continue;
        if (h.whole())
            return std::nullopt;
        compute += h.compute;
        usedMemory |= ((1u << h.sliceSize) - 1) << h.sliceStart;
    }
    if (compute + slice.computeSlices > slice.cardComputeSlices)
        return std::nullopt;
    const quint32 span = (1u << slice.memorySlices) - 1;
    for (int start : slice.placements) {
        if ((usedMemory & (span << start)) == 0)
            return Holding{card, start, slice.memorySlices, slice.computeSlices};
    }
    return std::nullopt;
}

// The place for one more slice: on the card already cut the most (so whole cards stay free for
// whole-card rentals), the lowest-numbered among equals.
std::optional<Holding> placeSlice(const GpuType &type, const QList<Holding> &held)
{
    std::optional<Holding> best;
    int bestUsed = -1;
    for (int card : type.cardPool()) {
        const std::optional<Holding> place = placeOnCard(type.slice, card, held);
        if (!place)
            continue;
        int used = 0;
        for (const Holding &h : held)
            used += h.card == card ? h.compute : 0;
        if (used > bestUsed) {
            best = place;
            bestUsed = used;
        }
    }
    return best;
}

} // namespace

QList<int> CardLending::cardsOf(const QString &instanceId) const
{
    QList<int> cards;
    QSqlQuery q = m_db.exec(
        u"SELECT card FROM instance_cards WHERE instance_id = ? ORDER BY card"_s, {instanceId});
    while (q.next())
        cards.append(q.value(0).toInt());
    return cards;
}

std::optional<Holding> CardLending::sliceOf(const QString &instanceId) const
{
    QSqlQuery q = m_db.exec(u"SELECT card, slice_start, slice_size, slice_compute FROM"
                            " instance_cards WHERE instance_id = ? AND slice_start IS NOT NULL"_s,
                            {instanceId});
    if (!q.next())
        return std::nullopt;
    return Holding{q.value(0).toInt(), q.value(1).toInt(), q.value(2).toInt(), q.value(3).toInt()};
}

QList<Holding> CardLending::holdings(const QString &physicalType,
                                     const QString &exceptInstanceId) const
{
    QList<Holding> held;
    QSqlQuery q = m_db.exec(
        u"SELECT c.card, c.slice_start, c.slice_size, c.slice_compute FROM instance_cards c"
        " JOIN instances i ON i.id = c.instance_id WHERE c.gpu_type = ? AND c.instance_id <> ?"
        " AND i.state IN ('creating','starting','running','stopping') ORDER BY c.card"_s,
        // A null string would bind NULL, and `<> NULL` matches no row.
        {physicalType, exceptInstanceId.isNull() ? u""_s : exceptInstanceId});
    while (q.next()) {
        Holding h{q.value(0).toInt(), -1, 0, 0};
        if (!q.value(1).isNull())
            h = {h.card, q.value(1).toInt(), q.value(2).toInt(), q.value(3).toInt()};
        held.append(h);
    }
    return held;
}

QList<int> CardLending::heldCards(const QString &gpuType, const QString &exceptInstanceId) const
{
    QList<int> cards;
    for (const Holding &h : holdings(gpuType, exceptInstanceId))
        if (!cards.contains(h.card))
            cards.append(h.card);
    return cards;
}

int CardLending::available(const GpuType &type) const
{
    QList<Holding> held = holdings(type.physicalType(), {});
    if (!type.isSlice()) {
        int free = 0;
        for (int card : type.cardPool())
            free += std::none_of(held.cbegin(), held.cend(),
                                 [card](const Holding &h) { return h.card == card; });
        return free;
    }
    int count = 0;
    while (const std::optional<Holding> place = placeSlice(type, held)) {
        held.append(*place);
        ++count;
    }
    return count;
}

CardLending::Result CardLending::lend(const QString &instanceId, const GpuType &type, int count,
                                      bool mustKeepPrevious)
{
    const QList<Holding> others = holdings(type.physicalType(), instanceId);
    Result result;
    if (type.isSlice()) {
        // One slice per instance; the one it had, where that place is free again.
        const std::optional<Holding> previous = sliceOf(instanceId);
        std::optional<Holding> place;
        if (previous && count == 1) {
            GpuSlice same = type.slice;
            same.placements = {previous->sliceStart};
            if (placeOnCard(same, previous->card, others))
                place = previous;
        }
        if (!place && count == 1)
            place = placeSlice(type, others);
        if (!place)
            return result;
        m_db.exec(u"DELETE FROM instance_cards WHERE instance_id = ?"_s, {instanceId});
        m_db.exec(u"INSERT INTO instance_cards(instance_id, gpu_type, card, slice_start,"
                  " slice_size, slice_compute) VALUES (?,?,?,?,?,?)"_s,
                  {instanceId, type.physicalType(), place->card, place->sliceStart,
                   place->sliceSize, place->compute});
        result.cards = {place->card};
        result.outcome = Outcome::Lent;
        return result;
    }
    QList<int> free;
    for (int card : type.cardPool()) {
        if (std::none_of(others.cbegin(), others.cend(),
                         [card](const Holding &h) { return h.card == card; }))
            free.append(card);
    }
    const QList<int> previous = cardsOf(instanceId);
    const bool previousFree = previous.size() == count
        && std::all_of(previous.cbegin(), previous.cend(),
                       [&](int card) { return free.contains(card); });
    if (previousFree) {
        result.cards = previous;
    } else if (mustKeepPrevious && !previous.isEmpty()) {
        result.outcome = Outcome::PreviousCardsBusy;
        result.cards = free;
        return result;
    } else if (free.size() >= count) {
        result.cards = free.mid(0, count);
    } else {
        result.cards = free;
        return result;
    }
    m_db.exec(u"DELETE FROM instance_cards WHERE instance_id = ?"_s, {instanceId});
    for (int card : std::as_const(result.cards))
        m_db.exec(u"INSERT INTO instance_cards(instance_id, gpu_type, card) VALUES (?,?,?)"_s,
                  {instanceId, type.id, card});
    result.outcome = Outcome::Lent;
    return result;
}

} // namespace cardhour::sim
