#include "SimulatedGpu.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr double kIdlePowerShare = 0.06; // a card at rest draws ~6 % of its limit
constexpr double kTemperatureTauS = 12.0; // heating/cooling time constant
constexpr double kPowerTauS = 1.5; // power follows load almost at once
constexpr double kFanStartC = 40.0;

double clamp01(double v)
{
    return std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 0.0;
}

// First-order lag: where `current` is after moving towards `target` for the lag's seconds,
// `left` being exp(-seconds / tau), the share of the distance still to go.
double approach(double current, double target, double seconds, double left)
{
    if (seconds <= 0)
        return current;
    return target + (current - target) * left;
}

} // namespace

SimulatedGpu SimulatedGpu::idle(const Spec &spec)
{
    SimulatedGpu gpu;
    gpu.temperatureC = spec.idleTemperatureC;
    gpu.powerW = spec.powerLimitW * kIdlePowerShare;
    return gpu;
}

SimulatedGpu::Lag SimulatedGpu::lagOver(double seconds)
{
    Lag lag;
    lag.seconds = seconds;
    if (seconds > 0) {
        lag.temperature = std::exp(-seconds / kTemperatureTauS);
        lag.power = std::exp(-seconds / kPowerTauS);
    }
    return lag;
}

SimulatedGpu SimulatedGpu::step(const SimulatedGpu &previous, const Spec &spec, const Load &load,
                                double seconds)
{
    return step(previous, spec, load, lagOver(seconds));
}

SimulatedGpu SimulatedGpu::step(const SimulatedGpu &previous, const Spec &spec, const Load &load,
                                const Lag &lag)
{
    SimulatedGpu next = previous;
    const double busy = clamp01(load.cpuShare);
    next.utilizationPct = std::round(busy * 100.0);
    next.memoryUsedMib = std::round(clamp01(load.memoryShare) * spec.vramMib);
    next.memoryUtilizationPct =
        std::round(busy * 60.0); // memory bus busy about 60 % of a busy kernel's time
    const double targetTemperature =
        spec.idleTemperatureC + (spec.fullLoadTemperatureC - spec.idleTemperatureC) * busy;
    next.temperatureC =
        approach(previous.temperatureC, targetTemperature, lag.seconds, lag.temperature);
    const double targetPower =
        spec.powerLimitW * (kIdlePowerShare + (1.0 - kIdlePowerShare) * busy);
    next.powerW = approach(previous.powerW, targetPower, lag.seconds, lag.power);
    next.fanPct = std::round(std::clamp((next.temperatureC - kFanStartC) * 2.5, 0.0, 100.0));
    return next;
}

QString SimulatedGpu::pstate() const
{
    if (utilizationPct >= 50)
        return u"P0"_s;
    if (utilizationPct >= 5)
        return u"P2"_s;
    return u"P8"_s;
}

} // namespace cardhour::sim
