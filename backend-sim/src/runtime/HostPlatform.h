#pragma once

#include <QString>
#include <QtGlobal>

#include <limits>
#include <optional>

namespace cardhour::sim::platform {

// What the provider needs from the operating system below Qt: a TCP socket handed to libssh
// (runtime/SshProbe) and the limits and user the host checks report (runtime/Doctor).
// HostPlatformPosix.cpp (Linux, macOS) and HostPlatformWindows.cpp (Winsock) implement it;
// CMake picks one.

// A native socket: a file descriptor on POSIX, a SOCKET on Windows (both fit; libssh's socket_t
// is the same type).
using NativeSocket = qintptr;
constexpr NativeSocket kNoSocket = -1;

// A connected, blocking TCP socket to host:port within timeoutMs, or kNoSocket with *error set.
NativeSocket connectTcp(const QString &host, int port, int timeoutMs, QString *error);
void closeSocket(NativeSocket socket);

// A hard resource limit: a number, unlimited, or unknown (nullopt: the system has none or
// would not say).
constexpr quint64 kUnlimited = std::numeric_limits<quint64>::max();
struct HardLimits
{
    std::optional<quint64> openFiles; // RLIMIT_NOFILE
    std::optional<quint64> processes; // RLIMIT_NPROC
};
HardLimits hardLimits();

// The effective user: whether it is the superuser (podman rootful) and its number (-1 where
// users have no numbers).
bool runningAsRoot();
qint64 userId();

} // namespace cardhour::sim::platform
