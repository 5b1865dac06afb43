#include "ServingProcess.h"

#include <QByteArray>
#include <QtGlobal>

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace cardhour::http {

void prepareServingProcess()
{
#if defined(__GLIBC__)
    // glibc serves a block over its mmap threshold (128 KiB at first, then adaptive) with a
    // fresh mapping and hands the top of its heap back to the kernel once more than twice that
    // is free. A 136 KB instance list made per request then costs new zeroed pages each time:
    // at 16 connections GET /v1/instances spent most of its time in page faults, memcpy into
    // fresh pages and brk (1,500-3,100 req/s; 9,000 with these settings). Blocks up to 4 MiB
    // come from the heap, and up to 32 MiB of free heap is kept for the next requests.
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 32 * 1024 * 1024);
#endif
    // Qt's UNIX event dispatcher polls the sockets itself; GLib's main loop, Qt's default where
    // GLib is present, costs more per socket event (GET /v1/me at 64 connections: 26,000-30,000
    // req/s through it, 38,000-40,000 without). Nothing the provider runs needs GLib's loop.
    // The variable stays in the environment: only Qt programs read it, and the provider starts
    // none. A value the user set is kept.
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", QByteArrayLiteral("1"));
}

} // namespace cardhour::http
