#pragma once

#include "service/Catalog.h"

#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Database;

// Which cards of a GPU type each instance holds (table instance_cards). A whole card is lent to
// one instance at a time; a card may instead be cut into MIG slices (see GpuSlice), each lent to
// one instance, placed as NVIDIA's MIG placement allows: no two slices share a memory slice, their
// compute slices add up to at most the card's, and no slice shares a card lent whole. Whole-card
// and slice types of one card share the same physical cards (rows carry the whole card's type).
// "Held" means lent to an instance in a state that holds its cards (creating, starting, running,
// stopping). Callers lend inside the transaction that moves the instance into such a state, so
// the choice and the state change commit together.
class CardLending
{
public:
    explicit CardLending(Database &db) : m_db(db) {}

    enum class Outcome {
        Lent,
        NotEnoughFree,
        PreviousCardsBusy
    };
    struct Result
    {
        Outcome outcome = Outcome::NotEnoughFree;
        QList<int> cards; // lent (Lent), or the free ones (otherwise)
    };
    // What one instance holds of one physical card: the whole card (sliceStart < 0) or a slice
    // starting at memory slice `sliceStart`, `sliceSize` memory slices and `compute` compute
    // slices long.
    struct Holding
    {
        int card = 0;
        int sliceStart = -1;
        int sliceSize = 0;
        int compute = 0;
        bool whole() const { return sliceStart < 0; }
    };
    // Lends `count` cards of `type` to the instance (a slice type: one slice). It gets the cards
    // it had before when they are all free again; otherwise the lowest-numbered free ones (a
    // slice: the fullest card it fits on), unless `mustKeepPrevious` (a kept container made with
    // real cards can only run with those same devices).
    Result lend(const QString &instanceId, const GpuType &type, int count, bool mustKeepPrevious);
    QList<int> cardsOf(const QString &instanceId) const;
    // The slice an instance holds, if it holds one.
    std::optional<Holding> sliceOf(const QString &instanceId) const;
    // Cards of `gpuType`'s physical cards held (whole or in part) by instances other than
    // `exceptInstanceId`.
    QList<int> heldCards(const QString &gpuType, const QString &exceptInstanceId = {}) const;
    // How many more instances of `type` (one card, or one slice each) could be lent now.
    int available(const GpuType &type) const;

private:
    QList<Holding> holdings(const QString &physicalType, const QString &exceptInstanceId) const;

    Database &m_db;
};

} // namespace cardhour::sim
