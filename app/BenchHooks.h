#pragma once

#include "MainWindow.h"
#include "StartupProbe.h"

// Hooks for bench/run only. Each is off unless its environment variable is set, so a user's
// client never behaves differently; none adds a user-visible string.
namespace cardhour::app {

// CARDHOUR_BENCH_LOGIN_FILE=<file: email on the first line, password on the second>: a
// separate keychain service (the user's real entries stay untouched), log-in with those
// credentials once restoring finds no token, and the first listed instance selected so that
// its chart is open. Prints "cardhour-bench instances_shown=<n>" once instances are listed, and
// every second "cardhour-bench metrics_received=<n>": the metric samples the event stream brought.
void applyBenchOptions(ui::MainWindow::Options *options);
void installBenchLogin(ui::MainWindow *window);

} // namespace cardhour::app
