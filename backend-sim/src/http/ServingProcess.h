#pragma once

namespace cardhour::http {

// Sets a process up to serve HTTP well: the C library's allocator for bodies of a few hundred
// KB made and freed at every request, and Qt's own event dispatcher rather than GLib's. Call
// first thing in main(), before the QCoreApplication is made.
void prepareServingProcess();

} // namespace cardhour::http
