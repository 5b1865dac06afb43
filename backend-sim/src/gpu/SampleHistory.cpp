#include "SampleHistory.h"

#include <algorithm>

namespace cardhour::sim {

void SampleHistory::widen(int stride)
{
    std::vector<TelemetryCardSample> wider(m_heads.size() * size_t(stride));
    for (size_t s = 0; s < m_heads.size(); ++s)
        std::copy_n(m_cards.begin() + qsizetype(s) * m_stride, m_heads[s].cards,
                    wider.begin() + qsizetype(s) * stride);
    m_cards = std::move(wider);
    m_stride = stride;
}

void SampleHistory::push(const TelemetrySample &sample, qsizetype capacity)
{
    if (capacity <= 0)
        return;
    const int count = int(sample.cards.size());
    if (count > m_stride)
        widen(count);
    // Shrunk capacity (not done by the provider; kept correct): drop the oldest beyond it.
    while (m_size >= capacity) {
        m_first = slot(1);
        --m_size;
        if (m_size == 0)
            m_first = 0;
    }
    qsizetype target = 0;
    if (m_size < qsizetype(m_heads.size())) {
        target = slot(m_size); // a free slot of the ring
    } else if (m_first == 0) {
        if (m_heads.capacity() == 0) {
            // A minute's room at once: growing from one slot reallocated both rings of every
            // instance at its 2nd, 3rd, 5th, 9th... sample.
            const size_t room = size_t(std::min<qsizetype>(capacity, kFirstRoom));
            m_heads.reserve(room);
            m_cards.reserve(room * size_t(m_stride));
        }
        m_heads.emplace_back(); // still growing towards capacity, oldest at slot 0
        m_cards.resize(m_heads.size() * size_t(m_stride));
        target = qsizetype(m_heads.size()) - 1;
    } else {
        // The ring is full below capacity with its oldest in the middle: unrolled first.
        std::rotate(m_heads.begin(), m_heads.begin() + m_first, m_heads.end());
        std::rotate(m_cards.begin(), m_cards.begin() + m_first * m_stride, m_cards.end());
        m_first = 0;
        m_heads.emplace_back();
        m_cards.resize(m_heads.size() * size_t(m_stride));
        target = qsizetype(m_heads.size()) - 1;
    }
    m_heads[size_t(target)] = Head{sample.atMs, sample.cpuPercent, sample.memoryMib, count};
    std::copy_n(sample.cards.cbegin(), count, m_cards.begin() + target * m_stride);
    ++m_size;
}

TelemetrySample SampleHistory::at(qsizetype i) const
{
    const Head &h = head(i);
    TelemetrySample sample{h.atMs, h.cpuPercent, h.memoryMib, {}};
    const TelemetryCardSample *first = cards(i);
    sample.cards = QList<TelemetryCardSample>(first, first + h.cards);
    return sample;
}

qsizetype SampleHistory::firstAtOrAfter(qint64 sinceMs) const
{
    qsizetype i = m_size;
    while (i > 0 && atMs(i - 1) >= sinceMs)
        --i;
    return i;
}

} // namespace cardhour::sim
