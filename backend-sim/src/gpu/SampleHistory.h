#pragma once

#include <QList>
#include <QtGlobal>

#include <vector>

namespace cardhour::sim {

// One reading of an instance: its CPU and memory and, per card, what the telemetry shows.
struct TelemetryCardSample
{
    float utilizationPct = 0;
    float memoryUsedMib = 0;
    float temperatureC = 0;
    float powerW = 0;
};
struct TelemetrySample
{
    qint64 atMs = 0; // provider clock
    float cpuPercent = -1; // of one core (200 = two cores busy); -1: unknown
    float memoryMib = -1; // -1: unknown
    QList<TelemetryCardSample> cards;
};

// The last `capacity` samples of one instance, oldest first, in two flat rings: the samples'
// own numbers, and their cards at a fixed stride. Once full, a push overwrites the oldest and
// allocates nothing (a sample with a list of cards of its own was an allocation per instance
// and second, and the pass's largest cost after its read at 100 000 instances).
class SampleHistory
{
public:
    bool empty() const { return m_size == 0; }
    qsizetype size() const { return m_size; }
    // Appends `sample`, dropping the oldest when `capacity` are kept already.
    void push(const TelemetrySample &sample, qsizetype capacity);

    // The i-th oldest sample's fields (0 <= i < size()), read in place.
    qint64 atMs(qsizetype i) const { return head(i).atMs; }
    float cpuPercent(qsizetype i) const { return head(i).cpuPercent; }
    float memoryMib(qsizetype i) const { return head(i).memoryMib; }
    int cardCount(qsizetype i) const { return head(i).cards; }
    const TelemetryCardSample *cards(qsizetype i) const
    {
        return m_cards.data() + slot(i) * qsizetype(m_stride);
    }
    TelemetrySample at(qsizetype i) const; // a copy, with a list of its cards
    // The index of the first sample at or after `sinceMs`, found from the back (the recent
    // minute is what the pass asks for); size() if there is none.
    qsizetype firstAtOrAfter(qint64 sinceMs) const;

private:
    struct Head
    {
        qint64 atMs = 0;
        float cpuPercent = -1;
        float memoryMib = -1;
        int cards = 0;
    };
    qsizetype slot(qsizetype i) const
    {
        const qsizetype s = m_first + i;
        return s < qsizetype(m_heads.size()) ? s : s - qsizetype(m_heads.size());
    }
    const Head &head(qsizetype i) const { return m_heads[size_t(slot(i))]; }
    void widen(int stride); // more cards per sample than so far: every slot gets room for them
    static constexpr qsizetype kFirstRoom = 64; // samples room is made for at the first push

    std::vector<Head> m_heads;
    std::vector<TelemetryCardSample> m_cards; // m_stride per slot of m_heads
    int m_stride = 0;
    qsizetype m_first = 0; // slot of the oldest sample
    qsizetype m_size = 0;
};

} // namespace cardhour::sim
