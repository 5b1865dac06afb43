#pragma once

#include <QString>

namespace cardhour::sim {

// A simulated card's state, driven by the real load of the container it is lent to: GPU
// utilisation follows the container's CPU use (as a share of its CPU limit), VRAM its memory use
// (as a share of its memory limit), and temperature, power and fan follow utilisation with the
// lag of a real card (they rise over seconds, not at once). Pure maths, no clock of its own.
struct SimulatedGpu
{
    struct Spec
    {
        int vramMib = 24576;
        double powerLimitW = 450;
        double idleTemperatureC = 30;
        double fullLoadTemperatureC = 78;
    };
    struct Load
    {
        double cpuShare = 0; // CPU used / CPU limit, 0..1 (more is clamped)
        double memoryShare = 0; // memory used / memory limit, 0..1
    };

    double utilizationPct = 0;
    double memoryUsedMib = 0;
    double memoryUtilizationPct = 0; // memory controller busy %: follows utilisation
    double temperatureC = 30;
    double powerW = 0;
    double fanPct = 0;

    // How far temperature and power move towards their targets in `seconds`: the same for
    // every card sampled after the same interval, so a pass works it out once, not twice per
    // card (the exponentials were half of the telemetry pass at 100 000 instances).
    struct Lag
    {
        double seconds = 0;
        double temperature = 1; // share of the distance left after `seconds`
        double power = 1;
    };
    static Lag lagOver(double seconds);

    static SimulatedGpu idle(const Spec &spec);
    // The state `seconds` after `previous` under `load`.
    static SimulatedGpu step(const SimulatedGpu &previous, const Spec &spec, const Load &load,
                             double seconds);
    // The same, with the lag of those seconds worked out already (lagOver).
    static SimulatedGpu step(const SimulatedGpu &previous, const Spec &spec, const Load &load,
                             const Lag &lag);
    // "P0".."P8", as nvidia-smi shows the performance state.
    QString pstate() const;
};

} // namespace cardhour::sim
