#pragma once

#include "SampleHistory.h"

#include <QList>
#include <QString>

#include <memory>

namespace cardhour::sim {

class Database;
class RawChunkedStatement;

// The instances' minute averages in SQLite (telemetry_minutes): the history served beyond the
// hour Telemetry keeps in memory, and after a restart. A sampling pass queues the minutes that
// ended (at a minute's turn, every running instance's) and writes them at its end in multi-row
// statements bound through SQLite's own API: one statement and a QVariant per value for each
// instance took about a second at 100 000 instances.
class MinuteAverages
{
public:
    explicit MinuteAverages(Database &db);
    ~MinuteAverages();
    MinuteAverages(const MinuteAverages &) = delete;
    MinuteAverages &operator=(const MinuteAverages &) = delete;

    // Queues an instance's average of the minute that starts at average.atMs.
    void add(const QString &instanceId, const TelemetrySample &average);
    // Writes what is queued (inside the caller's transaction; a minute stored already is
    // replaced). A statement that fails is warned about; the rest are written.
    void write();
    // Drops the minutes that start before `beforeMs` (the retention period's end).
    void dropBefore(qint64 beforeMs);
    // The stored minutes of an instance in [sinceMs's minute, untilMs), oldest first.
    QList<TelemetrySample> read(const QString &instanceId, qint64 sinceMs, qint64 untilMs) const;

    // The cards' averages as the gpus column holds them: [[util, mem, temp, power], ...].
    static QByteArray cardsJson(const QList<TelemetryCardSample> &cards);

private:
    struct Row
    {
        QString instanceId;
        qint64 minuteMs = 0;
        float cpuPercent = -1; // -1: unknown (NULL)
        float memoryMib = -1;
        QByteArray gpus;
    };
    Database &m_db;
    QList<Row> m_queued;
    std::unique_ptr<RawChunkedStatement> m_insert; // prepared on first use, one per chunk size
};

} // namespace cardhour::sim
