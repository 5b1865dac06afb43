#pragma once

namespace cardhour::ctl {

// cardhourctl's exit statuses, one meaning each, for scripts (documented in --help and in
// cardhourctl/README.md). Never renumber one: scripts test them.
enum ExitCode : int {
    Ok = 0,
    Failed = 1, // the provider refused or could not be reached, or the work failed
    Usage = 2, // the command line was wrong, or an answer was needed and stdin is not a terminal
    NotLoggedIn = 3, // no token for this provider, or the provider refused it
    NotFound = 4, // no such host, key or snapshot
    RefusedForMoney = 5, // HTTP 402: the balance does not cover it
    TimedOut = 6, // a wait (or a provider call) ran out of time
    Interrupted = 7, // the provider interrupted the interruptible host that was waited for
};

} // namespace cardhour::ctl
