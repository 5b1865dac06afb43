#include "CardLending.h"

#include "store/Database.h"

#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QList<int> CardLending::cardsOf(const QString &instanceId) const
{
    QList<int> cards;
    QSqlQuery q = m_db.exec(
        u"SELECT card FROM instance_cards WHERE instance_id = ? ORDER BY card"_s, {instanceId});
    while (q.next())
        cards.append(q.value(0).toInt());
    return cards;
}

QList<int> CardLending::heldCards(const QString &gpuType, const QString &exceptInstanceId) const
{
    QList<int> cards;
    QSqlQuery q =
        m_db.exec(u"SELECT c.card FROM instance_cards c JOIN instances i ON i.id = c.instance_id"
                  " WHERE c.gpu_type = ? AND c.instance_id <> ?"
                  " AND i.state IN ('creating','starting','running','stopping') ORDER BY c.card"_s,
                  {gpuType, exceptInstanceId});
    while (q.next())
        cards.append(q.value(0).toInt());
    return cards;
}

CardLending::Result CardLending::lend(const QString &instanceId, const GpuType &type, int count,
                                      bool mustKeepPrevious)
{
    const QList<int> held = heldCards(type.id, instanceId);
    QList<int> free;
    for (int card : type.cardPool()) {
        if (!held.contains(card))
            free.append(card);
    }
    Result result;
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
