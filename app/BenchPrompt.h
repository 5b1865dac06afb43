#pragma once

#include "MainWindow.h"

namespace cardhour::app {

// CARDHOUR_BENCH_PROMPT=1 (with CARDHOUR_BENCH_LOGIN_FILE): what a user feels from the launch
// dialog's Launch button to a shell prompt in the window. Once logged in and listed, the window's
// Launch action opens the dialog; when its Launch button is enabled it is clicked, and when the
// event stream says the new instance runs, its terminal tab is opened at once (a user with no
// reaction time). Prints one line "cardhour-bench prompt <json>" with the moments of each step
// (ms since the epoch, so that they line up with the provider's launch stages), then waits for a
// line on stdin: "next" runs again, anything else (or the end of input) quits.
void installBenchPrompt(ui::MainWindow *window);

} // namespace cardhour::app
