#pragma once

class QWidget;

namespace cardhour::app {

// For bench/run only: with CARDHOUR_BENCH_STARTUP=1 in the environment, once `window` has
// painted for the first time and the event loop has turned again (so it takes input), prints
// "cardhour-bench painted_ns=<CLOCK_MONOTONIC ns> rss_kib=<VmRSS>" to stdout and quits.
// Without the variable it does nothing. Apart from BenchHooks so that the bench's floor program
// (bench/floor/) links the very same probe without the client's widgets.
void installStartupProbe(QWidget *window);

} // namespace cardhour::app
