#pragma once

#include "MinuteAverages.h"
#include "SampleHistory.h"
#include "SimulatedGpu.h"
#include "runtime/ContainerRuntime.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>

namespace cardhour::sim {

class Process;

class Catalog;
class Clock;
class Database;
class RawStatement;
class EventBus;

// Samples every running instance once a second: one runtime pass for all of them
// (ContainerRuntime::sampleUsage), then per instance its CPU and memory and, per simulated card,
// utilisation, VRAM, temperature and power (SimulatedGpu, driven by that real load). Keeps the
// last hour per instance at 1 s in memory and every minute's average in SQLite
// (telemetry_minutes, kept retentionDays), serves both (metricsJson), pushes each sample to the
// owner's event stream ("metrics", not replayed), and writes each instance's cards to
// <dataDir>/instances/<id>/gpu/status.json, which the container sees read-only at
// /run/cardhour/gpu for its nvidia-smi.
class Telemetry : public QObject
{
    Q_OBJECT
public:
    using CardSample = TelemetryCardSample;
    using Sample = TelemetrySample;
    struct Options
    {
        int intervalMs = 1000;
        int historySeconds = 3600;
        QString dataDir; // empty: no status files
        int retentionDays = 30; // minute averages kept in SQLite
        // Real cards (catalog types with simulated == false) are read with this nvidia-smi, once
        // per tick for all of them; empty: "nvidia-smi" from PATH.
        QString nvidiaSmi;
    };
    // (cpus, memory MiB) an instance of this type and card count is given.
    using ResourcesFn = std::function<QPair<double, qint64>(const QString &gpuType, int gpuCount)>;

    Telemetry(Database &db, const Catalog &catalog, ContainerRuntime &runtime, EventBus &events,
              Clock &clock, ResourcesFn resources, Options options, QObject *parent = nullptr);
    ~Telemetry() override;

    void start();
    void stop();
    // One sampling pass now (tests; the timer calls it every interval).
    void sampleNow();

    // Samples of an instance since sinceMs, averaged over buckets of stepSeconds (>= 1).
    QList<Sample> samples(const QString &instanceId, qint64 sinceMs, int stepSeconds) const;
    QJsonObject metricsJson(const QString &instanceId, qint64 sinceMs, int stepSeconds) const;
    static QJsonObject sampleJson(const Sample &sample, int vramMib);
    // Stable per instance and card: "GPU-sim-…", so that nothing mistakes it for a real card.
    static QString cardUuid(const QString &instanceId, int index);
    static QString statusDirFor(const QString &dataDir, const QString &instanceId);

Q_SIGNALS:
    void sampled(const QString &instanceId, const cardhour::sim::Telemetry::Sample &sample);

private:
    struct InstanceTrack
    {
        QString userId;
        QString gpuType;
        int gpuCount = 0;
        // What the catalog and the host say for this type and count, asked once per change
        // of them, not on every pass (the host's memory and CPUs are system calls).
        QString shapeType;
        int shapeCount = 0;
        SimulatedGpu::Spec spec;
        bool real = false;
        double cpus = 0;
        qint64 memoryMib = 0;
        qint64 lastCpuNanos = -1;
        qint64 lastSampleNs = 0;
        QList<SimulatedGpu> cards;
        int sliceStart = -1; // a MIG slice's placement on its card (read at each start)
        SampleHistory history;
        quint64 seenInPass = 0; // the last sampling pass that found it running
    };
    void onUsage(const QHash<QString, ResourceUsage> &usage);
    void readRealCards();
    void writeStatus(const QString &instanceId, const InstanceTrack &track,
                     const SimulatedGpu::Spec &spec) const;
    // Queues the average of the minute at `minuteMs` (written at the pass's end).
    void persistMinute(const QString &instanceId, const InstanceTrack &track, qint64 minuteMs);
    // The samples of `history` from index `from` on, those since sinceMs, averaged over
    // buckets of stepSeconds.
    static QList<Sample> bucketed(const SampleHistory &history, qsizetype from, qint64 sinceMs,
                                  int stepSeconds);

    Database &m_db;
    const Catalog &m_catalog;
    ContainerRuntime &m_runtime;
    EventBus &m_events;
    Clock &m_clock;
    ResourcesFn m_resources;
    Options m_options;
    MinuteAverages m_minutes;
    QTimer m_timer;
    QElapsedTimer m_monotonic;
    // Kept for good (a stopped instance's chart of the last hour); node-based, so the pass
    // below may hold pointers to its tracks.
    std::unordered_map<QString, InstanceTrack> m_tracks;
    // The previous pass's running instances in the order the read gives them (by id, from the
    // instances_running index alone): the next pass walks it beside the read and finds each
    // track by comparing bytes, not by hashing and probing ten thousand strings.
    struct PassEntry
    {
        QByteArray idUtf8;
        QString id;
        InstanceTrack *track = nullptr;
    };
    QList<PassEntry> m_lastPass;
    std::unique_ptr<RawStatement> m_runningIds; // each pass's read of the running instances
    // Database::writeVersion() at the end of the last pass: unchanged, m_lastPass is still
    // exactly the running instances.
    std::optional<quint64> m_lastPassAt;
    quint64 m_passes = 0;
    bool m_hasRealCards = false;
    Process *m_nvidiaSmi = nullptr; // the reading under way, if any
    QHash<int, CardSample> m_realReadings; // nvidia-smi index → its latest numbers
};

} // namespace cardhour::sim
