#include "runtime/HostPlatform.h"

#include <QByteArray>

#include <memory>
#include <winsock2.h>
#include <ws2tcpip.h>

using namespace Qt::StringLiterals;

// Winsock is started once for the process (WSAStartup is reference-counted; Qt Network starts it
// too, this makes the probe independent of that).
namespace {
struct WinsockSession
{
    bool started = false;
    WinsockSession()
    {
        WSADATA data;
        started = ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
    }
    ~WinsockSession()
    {
        if (started)
            ::WSACleanup();
    }
};

QString winsockText(int error)
{
    wchar_t *text = nullptr;
    ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM
                         | FORMAT_MESSAGE_IGNORE_INSERTS,
                     nullptr, DWORD(error), 0, reinterpret_cast<wchar_t *>(&text), 0, nullptr);
    const QString result =
        text ? QString::fromWCharArray(text).trimmed() : u"error %1"_s.arg(error);
    ::LocalFree(text);
    return result;
}
} // namespace

namespace cardhour::sim::platform {

NativeSocket connectTcp(const QString &host, int port, int timeoutMs, QString *error)
{
    static WinsockSession winsock;
    if (!winsock.started) {
        *error = u"Winsock could not be started"_s;
        return kNoSocket;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const int rc = ::getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(),
                                 &hints, &found);
    if (rc != 0) {
        *error = u"cannot resolve %1: %2"_s.arg(host, winsockText(rc));
        return kNoSocket;
    }
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, &::freeaddrinfo);
    *error = u"no address for %1"_s.arg(host);
    for (addrinfo *ai = found; ai; ai = ai->ai_next) {
        const SOCKET s = ::socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (s == INVALID_SOCKET) {
            *error = winsockText(::WSAGetLastError());
            continue;
        }
        u_long nonBlocking = 1;
        ::ioctlsocket(s, FIONBIO, &nonBlocking);
        int result = ::connect(s, ai->ai_addr, int(ai->ai_addrlen));
        int lastError = result == 0 ? 0 : ::WSAGetLastError();
        if (result != 0 && lastError == WSAEWOULDBLOCK) {
            WSAPOLLFD pfd{s, POLLOUT, 0};
            const int ready = ::WSAPoll(&pfd, 1, timeoutMs);
            if (ready == 0) {
                lastError = WSAETIMEDOUT;
            } else if (ready > 0) {
                int soError = 0;
                int len = sizeof soError;
                if (::getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char *>(&soError), &len)
                        == 0
                    && soError == 0)
                    result = 0;
                else
                    lastError = soError ? soError : ::WSAGetLastError();
            } else {
                lastError = ::WSAGetLastError();
            }
        }
        if (result == 0) {
            u_long blocking = 0;
            ::ioctlsocket(s, FIONBIO, &blocking);
            return NativeSocket(s);
        }
        *error = winsockText(lastError);
        ::closesocket(s);
    }
    return kNoSocket;
}

void closeSocket(NativeSocket socket)
{
    if (socket != kNoSocket)
        ::closesocket(SOCKET(socket));
}

HardLimits hardLimits()
{
    // Windows has no per-process rlimits of this kind: unknown, so the check reports nothing low.
    return {};
}

bool runningAsRoot()
{
    // podman on Windows runs in its machine (WSL or Hyper-V); the client side is never root.
    return false;
}

qint64 userId()
{
    return -1;
}

} // namespace cardhour::sim::platform
