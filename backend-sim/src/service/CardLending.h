#pragma once

#include "service/Catalog.h"

#include <QList>
#include <QString>

namespace cardhour::sim {

class Database;

// Which cards of a GPU type each instance holds (table instance_cards). Each card is lent to one
// instance at a time: "held" means lent to an instance in a state that holds its cards (creating,
// starting, running, stopping). Callers lend inside the transaction that moves the instance into
// such a state, so the choice and the state change commit together.
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
    // Lends `count` cards of `type` to the instance. It gets the cards it had before when they
    // are all free again; otherwise the lowest-numbered free ones, unless `mustKeepPrevious`
    // (a kept container made with real cards can only run with those same devices).
    Result lend(const QString &instanceId, const GpuType &type, int count, bool mustKeepPrevious);
    QList<int> cardsOf(const QString &instanceId) const;
    // Cards of `type` held by instances other than `exceptInstanceId`.
    QList<int> heldCards(const QString &gpuType, const QString &exceptInstanceId = {}) const;

private:
    Database &m_db;
};

} // namespace cardhour::sim
