#pragma once

#include "api/Models.h"
#include "billing/Clock.h"

#include <QDateTime>
#include <QObject>

class QTimer;

namespace cardhour::core {

// The balance as it runs down between the provider's updates. The provider sends the live
// balance and the spend rate (GET /v1/billing/summary, GET /v1/me, the SSE `billing` event);
// in between, this interpolates locally once a second so the bill visibly moves while an
// instance runs. Each update from the provider replaces the interpolation (it is the truth;
// the local figure may jump a little, either way). Out-of-order updates (an older `as_of`
// than the one in hand, e.g. a replayed event) are ignored.
//
// Times are this machine's clock (the injected Clock): an update counts from when it arrived,
// since the provider's clock may differ from ours (and under --test-clock it jumps).
class BillTicker : public QObject
{
    Q_OBJECT
public:
    // `clock` must outlive the ticker; nullptr: the system clock.
    explicit BillTicker(const Clock *clock = nullptr, QObject *parent = nullptr);

    // How often tick() runs on its own (default 1 000 ms); 0: never (tests call tick()).
    void setTickIntervalMs(int ms);

    // Provider updates. Each returns false (and changes nothing) for an update older than the
    // one in hand.
    bool update(const BillingSummary &summary);
    bool update(const Account &account);
    bool update(qint64 balanceMicros, qint64 spendRateMicrosPerHour,
                const QDateTime &providerAsOf = {});
    void clear();

    bool hasData() const { return m_hasData; }
    // The interpolated balance now (never below 0).
    qint64 balanceMicros() const { return balanceAtMs(m_clock->nowMs()); }
    qint64 balanceAtMs(qint64 localMs) const;
    qint64 spendRateMicrosPerHour() const { return m_rate; }
    // When the balance runs out at the current rate, on this machine's clock; invalid when
    // nothing is billed or there is no data.
    QDateTime runsOutAt() const;
    // Milliseconds until then from now (0 if already out); -1 when it never runs out.
    qint64 msLeft() const;

    // Pure maths, shared with tests: the cost of `ms` at `ratePerHour` (rounded down, as the
    // provider rounds), and the shortest time whose cost reaches `amount`.
    static qint64 costOf(qint64 ms, qint64 ratePerHour);
    static qint64 msToSpend(qint64 amount, qint64 ratePerHour);

public Q_SLOTS:
    // Recomputes the balance; emits balanceChanged() when it moved and exhausted() when it
    // reached 0.
    void tick();

Q_SIGNALS:
    void balanceChanged(qint64 balanceMicros);
    // The interpolated balance reached 0 (once per provider update). The provider stops the
    // instances itself; this only lets the UI say so without waiting for the event.
    void exhausted();

private:
    const Clock *m_clock;
    QTimer *m_timer = nullptr;
    bool m_hasData = false;
    qint64 m_anchorBalance = 0;
    qint64 m_rate = 0;
    qint64 m_anchorLocalMs = 0;
    QDateTime m_anchorProviderAsOf;
    qint64 m_lastEmitted = -1;
    bool m_exhaustedEmitted = false;
};

} // namespace cardhour::core
