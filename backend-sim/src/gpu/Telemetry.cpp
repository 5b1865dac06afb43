#include "Telemetry.h"

#include "core/Clock.h"
#include "core/Json.h"
#include "gpu/MigDevice.h"
#include "gpu/NvidiaGpus.h"
#include "runtime/BoxGpuEnvironment.h"
#include "runtime/Process.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "store/Database.h"
#include "store/RawStatement.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <tuple>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

const QString kDriverVersion = u"550.54.15"_s;
const QString kCudaVersion = u"12.4"_s;

double rounded(double value, int decimals)
{
    const double factor = std::pow(10.0, decimals);
    return std::round(value * factor) / factor;
}

// Written beside and renamed over, so that nvidia-smi never reads half a file, but not synced
// to disk: it is rewritten every second and after a crash the next pass writes it again.
// QSaveFile's fdatasync, once per instance and second on the event loop, blocked it for about
// 0.1 ms per instance on a quiet disk here, and for milliseconds while the disk was busy.
void replaceLiveFile(const QString &path, const QByteArray &bytes)
{
    const QString written = path + u".new"_s;
    QFile file(written);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                        | QFileDevice::ReadOther);
    const bool complete = file.write(bytes) == bytes.size();
    file.close();
    std::error_code error;
    if (complete)
        std::filesystem::rename(std::filesystem::path(written.toStdU16String()),
                                std::filesystem::path(path.toStdU16String()), error);
    if (!complete || error)
        QFile::remove(written);
}

} // namespace

Telemetry::Telemetry(Database &db, const Catalog &catalog, ContainerRuntime &runtime,
                     EventBus &events, Clock &clock, ResourcesFn resources, Options options,
                     QObject *parent)
    : QObject(parent), m_db(db), m_catalog(catalog), m_runtime(runtime), m_events(events),
      m_clock(clock), m_resources(std::move(resources)), m_options(std::move(options)),
      m_minutes(db)
{
    m_monotonic.start();
    m_timer.setInterval(m_options.intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &Telemetry::sampleNow);
    connect(&m_runtime, &ContainerRuntime::usageSampled, this, &Telemetry::onUsage);
    for (const GpuType &gpu : m_catalog.gpus())
        m_hasRealCards = m_hasRealCards || !gpu.simulated;
    m_runningIds = std::make_unique<RawStatement>(m_db,
                                                  u"SELECT id FROM instances"
                                                  " WHERE state = 'running' ORDER BY id"_s);
}

Telemetry::~Telemetry() = default;

void Telemetry::start()
{
    m_timer.start();
}

void Telemetry::stop()
{
    m_timer.stop();
}

void Telemetry::sampleNow()
{
    if (m_hasRealCards)
        readRealCards();
    m_runtime.sampleUsage();
}

void Telemetry::readRealCards()
{
    // One nvidia-smi for all cards, asynchronous: the sample that follows uses the latest
    // numbers that came back (at most a tick old). A reading still under way is not doubled.
    if (m_nvidiaSmi)
        return;
    const QString program = m_options.nvidiaSmi.isEmpty() ? u"nvidia-smi"_s : m_options.nvidiaSmi;
    m_nvidiaSmi = Process::start(
        this, program, NvidiaGpus::readingArgs(), {}, [this](const ProcessResult &r) {
            m_nvidiaSmi = nullptr;
            if (r.ok()) {
                QHash<int, CardSample> readings;
                for (const NvidiaGpus::Reading &reading : NvidiaGpus::parseReadings(r.out))
                    readings.insert(reading.index,
                                    CardSample{float(reading.utilizationPct),
                                               float(reading.memoryUsedMib),
                                               float(reading.temperatureC), float(reading.powerW)});
                m_realReadings = readings;
            } else if (!r.started) {
                qWarning("telemetry: cannot run nvidia-smi: %s", qPrintable(r.startError));
                m_realReadings.clear();
            } else {
                qWarning("telemetry: nvidia-smi failed (exit %d): %s", r.exitCode,
                         r.err.left(300).constData());
                m_realReadings.clear(); // no numbers rather than stale ones
            }
        });
}

QString Telemetry::cardUuid(const QString &instanceId, int index)
{
    return simulatedCardUuid(instanceId, index);
}

QString Telemetry::statusDirFor(const QString &dataDir, const QString &instanceId)
{
    return dataDir + u"/instances/"_s + instanceId + u"/gpu"_s;
}

void Telemetry::onUsage(const QHash<QString, ResourceUsage> &usage)
{
    const qint64 nowMs = m_clock.nowMs();
    const qint64 nowNs = m_monotonic.nsecsElapsed();
    // One transaction for the pass: at a minute's turn every instance writes its average, and
    // one sync for all of them (not one each) keeps the event loop from stalling for seconds.
    Transaction tx(m_db);
    // Real cards: which host cards each running instance holds (one query for all of them).
    QHash<QString, QList<int>> lentCards;
    if (m_hasRealCards) {
        QSqlQuery cards =
            m_db.exec(u"SELECT c.instance_id, c.card FROM instance_cards c JOIN instances i"
                      " ON i.id = c.instance_id WHERE i.state = 'running' ORDER BY c.card"_s);
        while (cards.next())
            lentCards[cards.value(0).toString()].append(cards.value(1).toInt());
    }
    // Which tracks this pass saw running: a pass number, not a set of ids to hash.
    const quint64 pass = ++m_passes;
    qint64 hourEnded = -1; // a stored minute that starts an hour: time to drop old ones
    // Forward only, on a kept statement: the rows are read once, not cached whole.
    // The ids alone: an instance's owner, type and card count never change once written, so
    // they are read once per track, not on every pass.
    // Mostly the same instances as the last pass, in the same order: while they are, the last
    // pass's list is used as it is (at 100 000 copying its entries was a fifth of the pass);
    // from the first difference on, this pass gets a list of its own.
    QList<PassEntry> thisPass;
    Sample sample;
    // Nearly every track was sampled by the last pass: the same seconds ago, the same lag.
    SimulatedGpu::Lag lag = SimulatedGpu::lagOver(0);
    bool sameAsLast = true; // rows so far equal m_lastPass's first `rows` entries
    qsizetype rows = 0;
    qsizetype cursor = 0;
    const auto sampleOne = [&](const PassEntry *entry) {
        const QString &id = entry->id;
        InstanceTrack &track = *entry->track;
        track.seenInPass = pass;
        if (track.userId.isEmpty()) {
            m_db.forEachRow(u"SELECT user_id, gpu_type, gpu_count FROM instances"
                            " WHERE id = ?"_s,
                            {id}, [&track](const QSqlQuery &row) {
                                track.userId = row.value(0).toString();
                                track.gpuType = row.value(1).toString();
                                track.gpuCount = std::max(1, row.value(2).toInt());
                            });
        }
        if (track.shapeType != track.gpuType || track.shapeCount != track.gpuCount) {
            const std::optional<GpuType> gpu = m_catalog.gpu(track.gpuType);
            track.spec = SimulatedGpu::Spec();
            track.spec.vramMib = gpu ? gpu->vramMib : track.spec.vramMib;
            track.spec.powerLimitW = gpu ? gpu->powerLimitW : track.spec.powerLimitW;
            track.real = gpu && !gpu->simulated;
            std::tie(track.cpus, track.memoryMib) = m_resources(track.gpuType, track.gpuCount);
            track.shapeType = track.gpuType;
            track.shapeCount = track.gpuCount;
        }
        const SimulatedGpu::Spec &spec = track.spec;
        const bool real = track.real;
        const double cpus = track.cpus;
        const qint64 memoryMib = track.memoryMib;
        if (!real && track.cards.isEmpty()) { // started (again): its slice may have moved
            const QVariant start =
                m_db.scalar(u"SELECT slice_start FROM instance_cards"
                            " WHERE instance_id = ? AND slice_start IS NOT NULL"_s,
                            {id});
            track.sliceStart = start.isValid() && !start.isNull() ? start.toInt() : -1;
        }
        while (!real && track.cards.size() < track.gpuCount)
            track.cards.append(SimulatedGpu::idle(spec));

        // One sample reused for every row: its list of cards keeps its room.
        sample.atMs = nowMs;
        sample.cpuPercent = -1;
        sample.memoryMib = -1;
        sample.cards.clear();
        SimulatedGpu::Load load;
        const auto measured = usage.constFind(id);
        const double seconds = track.lastSampleNs > 0 ? (nowNs - track.lastSampleNs) / 1e9 : 0.0;
        if (measured != usage.constEnd()) {
            double cores = -1;
            if (measured->cpuNanos >= 0 && track.lastCpuNanos >= 0 && seconds > 0)
                cores =
                    std::max<qint64>(0, measured->cpuNanos - track.lastCpuNanos) / 1e9 / seconds;
            else if (measured->cpuNanos < 0 && measured->cpuPercent >= 0)
                cores = measured->cpuPercent / 100.0;
            track.lastCpuNanos = measured->cpuNanos;
            if (cores >= 0) {
                sample.cpuPercent = float(rounded(cores * 100.0, 1));
                load.cpuShare = cpus > 0 ? cores / cpus : cores;
            }
            sample.memoryMib = float(rounded(measured->memoryBytes / 1048576.0, 1));
            const double limitMib =
                memoryMib > 0 ? double(memoryMib) : measured->memoryLimitBytes / 1048576.0;
            load.memoryShare = limitMib > 0 ? sample.memoryMib / limitMib : 0;
        }
        track.lastSampleNs = nowNs;
        if (lag.seconds != seconds)
            lag = SimulatedGpu::lagOver(seconds);
        if (real) {
            // What nvidia-smi read from the cards this instance holds, in the order the box
            // sees them.
            for (int card : lentCards.value(id))
                sample.cards.append(m_realReadings.value(card));
        }
        for (SimulatedGpu &card : track.cards) {
            card = SimulatedGpu::step(card, spec, load, lag);
            sample.cards.append(CardSample{float(card.utilizationPct), float(card.memoryUsedMib),
                                           float(rounded(card.temperatureC, 1)),
                                           float(rounded(card.powerW, 1))});
        }
        // A minute that ended goes to SQLite as its average: history beyond the last hour.
        const SampleHistory &history = track.history;
        if (!history.empty() && history.atMs(history.size() - 1) / 60000 != nowMs / 60000) {
            const qint64 last = history.atMs(history.size() - 1);
            const qint64 ended = last - last % 60000;
            persistMinute(id, track, ended);
            if (ended % 3'600'000 == 0)
                hourEnded = std::max(hourEnded, ended);
        }
        track.history.push(sample,
                           m_options.historySeconds * 1000 / std::max(1, m_options.intervalMs));

        if (!m_options.dataDir.isEmpty() && !real)
            writeStatus(id, track, spec);
        if (m_events.hasSubscribers(track.userId)) { // with nobody to tell, no JSON to build
            QJsonObject event = sampleJson(sample, spec.vramMib);
            event.insert(u"instance_id"_s, id);
            m_events.publishLive(track.userId, u"metrics"_s, event);
        }
        Q_EMIT sampled(id, sample);
    };
    if (m_lastPassAt == m_db.writeVersion()) {
        // Nothing was written since the last pass read the running instances, so they are the
        // very same ones (every change of an instance's state is a write): the read, about a
        // third of the pass's instructions, is skipped.
        for (const PassEntry &entry : std::as_const(m_lastPass))
            sampleOne(&entry);
        rows = m_lastPass.size();
    } else {
        m_runningIds->forEachRow([&](const RawStatement &running) {
            // Both passes in the index's order (bytes, as SQLite compares text).
            const QByteArrayView idBytes = running.utf8(0);
            ++rows;
            if (sameAsLast && rows <= m_lastPass.size()
                && m_lastPass.at(rows - 1).idUtf8 == idBytes)
                return sampleOne(&m_lastPass.at(rows - 1));
            if (sameAsLast) {
                sameAsLast = false;
                thisPass.reserve(m_lastPass.size() + 1);
                thisPass.append(m_lastPass.first(rows - 1));
                cursor = rows - 1;
            }
            while (cursor < m_lastPass.size() && m_lastPass.at(cursor).idUtf8 < idBytes)
                ++cursor;
            if (cursor < m_lastPass.size() && m_lastPass.at(cursor).idUtf8 == idBytes) {
                thisPass.append(m_lastPass.at(cursor++));
            } else {
                const QString text = running.text(0);
                thisPass.append({text.toUtf8(), text, &m_tracks[text]});
            }
            sampleOne(&thisPass.constLast());
        });
    }
    m_minutes.write();
    // Minute averages are kept for the retention period, then dropped (checked once an hour,
    // once for all instances, cheaply by index).
    if (hourEnded >= 0)
        m_minutes.dropBefore(hourEnded - qint64(m_options.retentionDays) * 86'400'000);
    tx.commit();
    // This pass's own writes (minute averages) change no instance's state.
    m_lastPassAt = m_db.writeVersion();
    if (sameAsLast && rows == m_lastPass.size())
        return; // the same instances as the last pass: none stopped
    // Instances that stopped keep their history (charts of the last hour); their load state
    // starts over when they run again. Only the last pass's can have stopped since: the
    // others were reset when they did.
    for (const PassEntry &last : std::as_const(m_lastPass)) {
        InstanceTrack &track = *last.track;
        if (track.seenInPass != pass) {
            track.lastCpuNanos = -1;
            track.lastSampleNs = 0;
            track.cards.clear();
        }
    }
    m_lastPass = sameAsLast ? m_lastPass.first(rows) : std::move(thisPass);
}

void Telemetry::writeStatus(const QString &instanceId, const InstanceTrack &track,
                            const SimulatedGpu::Spec &spec) const
{
    const std::optional<GpuType> type = m_catalog.gpu(track.gpuType);
    // A slice shows its whole card's name and clocks, and its own VRAM and MIG device.
    const std::optional<GpuType> wholeCard =
        type && type->isSlice() ? m_catalog.gpu(type->slice.of) : type;
    const QString name = wholeCard ? wholeCard->name : track.gpuType;
    const GpuType hardware = wholeCard.value_or(GpuType{});
    const bool slice = type && type->isSlice() && track.sliceStart >= 0;
    QJsonArray gpus;
    for (int i = 0; i < track.cards.size(); ++i) {
        const SimulatedGpu &card = track.cards.at(i);
        // Clocks follow the load as a real card's boost does: idle clocks in P8, the top memory
        // clock and a graphics clock rising with utilisation once busy.
        const bool idle = card.pstate() == u"P8"_s;
        const int graphics = idle ? std::min(210, hardware.maxGraphicsClockMhz)
                                  : int(std::lround(hardware.maxGraphicsClockMhz
                                                    * (0.6 + 0.4 * card.utilizationPct / 100.0)));
        const int memory =
            idle ? std::min(405, hardware.maxMemoryClockMhz) : hardware.maxMemoryClockMhz;
        QJsonObject gpu{
            {u"index"_s, i},
            {u"name"_s, name},
            {u"uuid"_s, cardUuid(instanceId, i)},
            {u"bus_id"_s, u"00000000:%1:00.0"_s.arg(i + 1, 2, 16, QChar(u'0')).toUpper()},
            {u"memory_total_mib"_s, spec.vramMib},
            {u"memory_used_mib"_s, card.memoryUsedMib},
            {u"utilization_gpu"_s, card.utilizationPct},
            {u"utilization_memory"_s, card.memoryUtilizationPct},
            {u"temperature_c"_s, rounded(card.temperatureC, 1)},
            {u"power_draw_w"_s, rounded(card.powerW, 2)},
            {u"power_limit_w"_s, spec.powerLimitW},
            {u"fan_speed_pct"_s, card.fanPct},
            {u"pstate"_s, card.pstate()},
            {u"clocks_mhz"_s,
             QJsonObject{{u"graphics"_s, graphics},
                         {u"sm"_s, graphics},
                         {u"memory"_s, memory},
                         {u"video"_s, int(std::lround(graphics * 0.85))}}},
            {u"max_clocks_mhz"_s,
             QJsonObject{{u"graphics"_s, hardware.maxGraphicsClockMhz},
                         {u"sm"_s, hardware.maxGraphicsClockMhz},
                         {u"memory"_s, hardware.maxMemoryClockMhz},
                         {u"video"_s, int(std::lround(hardware.maxGraphicsClockMhz * 0.85))}}}};
        if (slice)
            gpu.insert(u"mig"_s,
                       migDeviceJson(instanceId, type->slice, track.sliceStart, hardware.vramMib));
        gpus.append(gpu);
    }
    const QJsonObject status{{u"format"_s, u"cardhour-gpu-status/1"_s},
                             {u"simulated"_s, true},
                             {u"updated_at_unix"_s, double(m_clock.nowMs()) / 1000.0},
                             {u"driver_version"_s, kDriverVersion},
                             {u"cuda_version"_s, kCudaVersion},
                             {u"gpu_type"_s, track.gpuType},
                             // NVLinks bonded between every two cards; 0: PCIe only.
                             {u"nvlinks"_s, slice ? 0 : hardware.nvlinks},
                             {u"gpus"_s, gpus}};
    const QString dir = statusDirFor(m_options.dataDir, instanceId);
    if (!QDir().mkpath(dir))
        return;
    replaceLiveFile(dir + u"/status.json"_s, QJsonDocument(status).toJson(QJsonDocument::Compact));
}

QList<Telemetry::Sample> Telemetry::samples(const QString &instanceId, qint64 sinceMs,
                                            int stepSeconds) const
{
    const auto it = m_tracks.find(instanceId);
    if (it == m_tracks.cend())
        return {};
    const SampleHistory &history = it->second.history;
    return bucketed(history, history.firstAtOrAfter(sinceMs), sinceMs, stepSeconds);
}

QList<Telemetry::Sample> Telemetry::bucketed(const SampleHistory &history, qsizetype from,
                                             qint64 sinceMs, int stepSeconds)
{
    QList<Sample> result;
    if (stepSeconds <= 1) { // as sampled (and as pushed on the event stream)
        for (qsizetype i = from; i < history.size(); ++i) {
            if (history.atMs(i) >= sinceMs)
                result.append(history.at(i));
        }
        return result;
    }
    const qint64 stepMs = stepSeconds * 1000LL;
    Sample bucket;
    int count = 0, cpuCount = 0, memCount = 0;
    auto flush = [&] {
        if (count == 0)
            return;
        for (CardSample &card : bucket.cards) {
            card.utilizationPct = std::round(card.utilizationPct / count);
            card.memoryUsedMib = std::round(card.memoryUsedMib / count);
            card.temperatureC = float(rounded(card.temperatureC / count, 1));
            card.powerW = float(rounded(card.powerW / count, 1));
        }
        bucket.cpuPercent = cpuCount ? float(rounded(bucket.cpuPercent / cpuCount, 1)) : -1;
        bucket.memoryMib = memCount ? float(rounded(bucket.memoryMib / memCount, 1)) : -1;
        result.append(bucket);
        count = cpuCount = memCount = 0;
    };
    for (qsizetype at = from; at < history.size(); ++at) {
        const qint64 atMs = history.atMs(at);
        if (atMs < sinceMs)
            continue;
        const qint64 start = atMs - atMs % stepMs;
        const int cardCount = history.cardCount(at);
        if (count > 0 && (bucket.atMs != start || bucket.cards.size() != cardCount))
            flush();
        if (count == 0) {
            bucket = Sample{start, 0, 0, QList<CardSample>(cardCount)};
        }
        ++count;
        if (const float cpu = history.cpuPercent(at); cpu >= 0) {
            bucket.cpuPercent += cpu;
            ++cpuCount;
        }
        if (const float memory = history.memoryMib(at); memory >= 0) {
            bucket.memoryMib += memory;
            ++memCount;
        }
        const CardSample *cards = history.cards(at);
        for (int i = 0; i < cardCount; ++i) {
            bucket.cards[i].utilizationPct += cards[i].utilizationPct;
            bucket.cards[i].memoryUsedMib += cards[i].memoryUsedMib;
            bucket.cards[i].temperatureC += cards[i].temperatureC;
            bucket.cards[i].powerW += cards[i].powerW;
        }
    }
    flush();
    return result;
}

QJsonObject Telemetry::sampleJson(const Sample &sample, int vramMib)
{
    QJsonArray gpus;
    for (int i = 0; i < sample.cards.size(); ++i) {
        const CardSample &card = sample.cards.at(i);
        // Kept as float in memory; one decimal is all they carry.
        gpus.append(QJsonObject{{u"index"_s, i},
                                {u"utilization_pct"_s, rounded(card.utilizationPct, 1)},
                                {u"memory_used_mib"_s, rounded(card.memoryUsedMib, 1)},
                                {u"memory_total_mib"_s, vramMib},
                                {u"temperature_c"_s, rounded(card.temperatureC, 1)},
                                {u"power_w"_s, rounded(card.powerW, 1)}});
    }
    return {{u"at"_s, json::isoTime(sample.atMs)},
            {u"cpu_percent"_s,
             sample.cpuPercent >= 0 ? QJsonValue(rounded(sample.cpuPercent, 1)) : QJsonValue()},
            {u"memory_mib"_s,
             sample.memoryMib >= 0 ? QJsonValue(rounded(sample.memoryMib, 1)) : QJsonValue()},
            {u"gpus"_s, gpus}};
}

void Telemetry::persistMinute(const QString &instanceId, const InstanceTrack &track,
                              qint64 minuteMs)
{
    // Only the minute's own samples, found from the back: not the whole hour kept.
    const QList<Sample> minute =
        bucketed(track.history, track.history.firstAtOrAfter(minuteMs), minuteMs, 60);
    if (!minute.isEmpty() && minute.first().atMs == minuteMs)
        m_minutes.add(instanceId, minute.first());
}

QJsonObject Telemetry::metricsJson(const QString &instanceId, qint64 sinceMs, int stepSeconds) const
{
    const auto it = m_tracks.find(instanceId);
    // Not tracked since this provider started (stopped before it): the type from its row.
    const QString gpuType = it != m_tracks.cend()
        ? it->second.gpuType
        : m_db.scalar(u"SELECT gpu_type FROM instances WHERE id = ?"_s, {instanceId}).toString();
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    const int vramMib = gpu ? gpu->vramMib : 0;
    QJsonArray out;
    const QList<Sample> recent = samples(instanceId, sinceMs, stepSeconds);
    // Older than what memory holds: the stored minute averages (a step of at least a minute).
    // (Nothing in memory, e.g. after a restart: every stored minute from sinceMs on.)
    const qint64 memoryFrom = it != m_tracks.cend() && !it->second.history.empty()
        ? it->second.history.atMs(0) - it->second.history.atMs(0) % 60000
        : std::numeric_limits<qint64>::max();
    if (sinceMs < memoryFrom) {
        const QList<Sample> older = m_minutes.read(instanceId, sinceMs, memoryFrom);
        for (const Sample &s : older)
            out.append(sampleJson(s, vramMib));
    }
    for (const Sample &s : recent)
        out.append(sampleJson(s, vramMib));
    return {{u"instance_id"_s, instanceId},
            {u"step_seconds"_s, std::max(1, stepSeconds)},
            {u"simulated"_s, !gpu || gpu->simulated},
            {u"samples"_s, out}};
}

} // namespace cardhour::sim
