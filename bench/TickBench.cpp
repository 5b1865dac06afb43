// Metering + telemetry tick at scale: the provider's per-second work (InstanceService::tick,
// the billing pass, and Telemetry::sampleNow, the sampling pass) timed with N running instances.
//
// What stands in for the runtime: the in-process runtime (no containers), so the sampling pass
// has no container usage to read (with podman that is one `podman stats`-like pass, a separate
// process, not timed here). The instances are written straight into SQLite as `running` with
// their compute segment open, as InstanceService::onReady leaves them, because launching 10 000
// through the API would tick once per launch. Everything else is the provider's own code on a
// real SQLite file (WAL, synchronous=FULL), with a manual clock moved 1 s per tick. Each sample
// goes on to the idle-stop watch (InstanceService::noteUtilisation), as in the provider.
//
//   cardhour-bench-tick --instances N [--ticks T] [--users U] [--dir DIR]
// prints one line of JSON: median, p95 and slowest tick, and the checkpoint-posting tick, in
// microseconds. The ticks span a minute boundary, where telemetry stores every instance's minute
// average: that tick is the slowest of the telemetry passes.
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "gpu/Telemetry.h"
#include "runtime/InProcessRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "service/InstanceService.h"
#include "service/SshKeys.h"
#include "store/Database.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {

// CPU time of the process in microseconds: what a pass costs whatever the machine's load
// (the wall-clock figures beside it include waiting for the CPU and for fsync).
double cpuMicros()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e6 + double(t.tv_nsec) / 1e3;
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const double k = (values.size() - 1) * p / 100.0;
    const auto lo = static_cast<qsizetype>(k);
    const qsizetype hi = std::min(lo + 1, values.size() - 1);
    return values.at(lo) + (values.at(hi) - values.at(lo)) * (k - double(lo));
}

QJsonObject stats(const QList<double> &micros)
{
    return {{u"median_us"_s, percentile(micros, 50)},
            {u"p95_us"_s, percentile(micros, 95)},
            {u"max_us"_s, percentile(micros, 100)}};
}

// `perf record --control fifo:CTL,ACK -D -1`: with CARDHOUR_TICK_PERF_CTL=CTL and
// CARDHOUR_TICK_PERF_ACK=ACK, the profile covers only the passes of the phase named by
// CARDHOUR_TICK_PERF_PHASE (ordinary, minute or posting), not the set-up.
class PerfWindow
{
public:
    PerfWindow()
        : m_ctl(qEnvironmentVariable("CARDHOUR_TICK_PERF_CTL")),
          m_ack(qEnvironmentVariable("CARDHOUR_TICK_PERF_ACK")),
          m_phase(qEnvironmentVariable("CARDHOUR_TICK_PERF_PHASE", u"ordinary"_s))
    {}
    void enable(const QString &phase) { send(phase, "enable\n"); }
    void disable(const QString &phase) { send(phase, "disable\n"); }

private:
    void send(const QString &phase, const char *command) const
    {
        if (m_ctl.isEmpty() || phase != m_phase)
            return;
        if (FILE *ctl = std::fopen(qPrintable(m_ctl), "w")) {
            std::fputs(command, ctl);
            std::fclose(ctl);
        }
        if (FILE *ack = std::fopen(qPrintable(m_ack), "r")) {
            char line[16];
            std::fgets(line, sizeof line, ack);
            std::fclose(ack);
        }
    }
    QString m_ctl;
    QString m_ack;
    QString m_phase;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption instancesOption(u"instances"_s, u"Running instances."_s, u"N"_s,
                                             u"100"_s);
    const QCommandLineOption ticksOption(u"ticks"_s, u"Ticks to time (after one warm-up)."_s,
                                         u"T"_s, u"20"_s);
    const QCommandLineOption usersOption(u"users"_s, u"Owners the instances are spread over."_s,
                                         u"U"_s, u"10"_s);
    const QCommandLineOption dirOption(
        u"dir"_s, u"Directory for the SQLite file (default: a temporary one)."_s, u"DIR"_s);
    parser.addOptions({instancesOption, ticksOption, usersOption, dirOption});
    parser.process(app);
    const int instances = parser.value(instancesOption).toInt();
    const int ticks = parser.value(ticksOption).toInt();
    const int users = std::max(1, parser.value(usersOption).toInt());
    if (instances < 1 || ticks < 1) {
        std::fprintf(stderr,
                     "cardhour-bench-tick: --instances and --ticks want positive numbers\n");
        return 2;
    }
    QTemporaryDir temporary;
    const QString dir = parser.isSet(dirOption) ? parser.value(dirOption) : temporary.path();

    try {
        Database db;
        db.open(QDir(dir).filePath(u"tick-bench.sqlite"_s));
        // Five seconds before a minute ends: the timed ticks cross a minute boundary, where
        // telemetry stores every instance's minute average, as the provider does once a minute.
        const qint64 nowMs = SystemClock().nowMs();
        ManualClock clock(nowMs - nowMs % 60'000 + 55'000);
        const Catalog catalog = Catalog::load();
        Ledger ledger(db);
        Bookkeeper books(db, ledger);
        Meter meter(db, books); // checkpoint postings every 60 s, as the provider's default
        // Cheap password hashes: the bench's accounts are set-up, not what is measured.
        Accounts accounts(db, books, clock, PasswordHasher({1u << 10, 8, 1}));
        SshKeys keys(db, clock);
        EventBus events;
        InProcessRuntime runtime;
        InstanceService service(db, books, meter, catalog, keys, runtime, events, clock);
        Telemetry telemetry(
            db, catalog, runtime, events, clock,
            [&service](const QString &gpuType, int gpuCount) {
                const InstanceService::Resources r = service.resourcesFor(gpuType, gpuCount);
                return QPair<double, qint64>(r.cpus, r.memoryMib);
            },
            Telemetry::Options{});
        // As SimServer wires them: every sample goes on to the idle-stop watch.
        QObject::connect(&telemetry, &Telemetry::sampled, &service,
                         [&service](const QString &instanceId, const Telemetry::Sample &sample) {
                             double busiest = 0;
                             for (const Telemetry::CardSample &card : sample.cards)
                                 busiest = std::max(busiest, double(card.utilizationPct));
                             service.noteUtilisation(instanceId, sample.atMs, busiest);
                         });

        const GpuType gpu = catalog.gpus().value(0);
        QStringList userIds;
        for (int u = 0; u < users; ++u) {
            const QString userId =
                accounts.signUp(u"bench%1@example.com"_s.arg(u), u"bench-password"_s).userId;
            Transaction tx(db);
            Ledger::Posting topup;
            topup.kind = Ledger::Kind::Topup;
            topup.userId = userId;
            topup.amountMicros = 1'000'000'000'000; // enough that no balance runs out mid-bench
            topup.description = u"bench"_s;
            books.post(topup, clock.nowMs());
            tx.commit();
            userIds.append(userId);
        }
        {
            Transaction tx(db);
            const qint64 now = clock.nowMs();
            for (int i = 0; i < instances; ++i) {
                const QString id = ids::newUuid();
                const QString &userId = userIds.at(i % users);
                db.write(
                    u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image,"
                    " price_per_hour_micros, created_at, updated_at, launch_seq, "
                    "launch_requested_at, app_token,"
                    " disk_gib) VALUES (?,?,?,'running',?,1,'base',?,?,?,1,?,?,?)"_s,
                    {id, userId, u"bench-%1"_s.arg(i), gpu.id, gpu.pricePerHourMicros, now, now,
                     now, u"bench"_s, gpu.diskGib});
                meter.openSegment(id, userId, gpu.pricePerHourMicros, now);
            }
            tx.commit();
        }

        QList<double> billing;
        QList<double> sampling;
        QList<double> billingCpu;
        QList<double> samplingCpu;
        QElapsedTimer timer;
        PerfWindow perf;
        for (int t = 0; t <= ticks; ++t) {
            clock.advanceMs(1000);
            // The pass that stores every instance's minute average, or an ordinary one.
            const QString phase = t == 0                                    ? u"warm-up"_s
                : clock.nowMs() / 60'000 != (clock.nowMs() - 1000) / 60'000 ? u"minute"_s
                                                                            : u"ordinary"_s;
            perf.enable(phase);
            timer.start();
            double cpu = cpuMicros();
            service.tick();
            const double billed = double(timer.nsecsElapsed()) / 1000.0;
            const double billedCpu = cpuMicros() - cpu;
            timer.start();
            cpu = cpuMicros();
            telemetry.sampleNow();
            const double sampled = double(timer.nsecsElapsed()) / 1000.0;
            const double sampledCpu = cpuMicros() - cpu;
            perf.disable(phase);
            if (t == 0)
                continue; // warm-up
            billing.append(billed);
            sampling.append(sampled);
            billingCpu.append(billedCpu);
            samplingCpu.append(sampledCpu);
        }
        // The tick that posts a checkpoint charge for every instance (once a minute).
        clock.advanceMs(60'000);
        perf.enable(u"posting"_s);
        timer.start();
        const double postingCpuStart = cpuMicros();
        service.tick();
        const double posting = double(timer.nsecsElapsed()) / 1000.0;
        const double postingCpu = cpuMicros() - postingCpuStart;
        perf.disable(u"posting"_s);
        QList<double> both;
        for (int i = 0; i < billing.size(); ++i)
            both.append(billing.at(i) + sampling.at(i));

        const QJsonObject result{{u"instances"_s, instances},
                                 {u"ticks"_s, ticks},
                                 {u"users"_s, users},
                                 {u"billing"_s, stats(billing)},
                                 {u"telemetry"_s, stats(sampling)},
                                 {u"total"_s, stats(both)},
                                 {u"posting_tick_us"_s, posting},
                                 {u"billing_cpu"_s, stats(billingCpu)},
                                 {u"telemetry_cpu"_s, stats(samplingCpu)},
                                 {u"posting_tick_cpu_us"_s, postingCpu}};
        std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    } catch (const std::exception &error) {
        std::fprintf(stderr, "cardhour-bench-tick: %s\n", error.what());
        return 1;
    }
    return 0;
}
