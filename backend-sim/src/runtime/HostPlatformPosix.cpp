#include "runtime/HostPlatform.h"

#include <QByteArray>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <netdb.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace cardhour::sim::platform {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

std::optional<quint64> hardLimit(int resource)
{
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0)
        return std::nullopt;
    return limit.rlim_max == RLIM_INFINITY ? kUnlimited : quint64(limit.rlim_max);
}

// Non-blocking for the connect's timeout, blocking afterwards (libssh expects that).
int openNonBlocking(const addrinfo *ai)
{
#ifdef SOCK_NONBLOCK
    return ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
#else
    // macOS: no SOCK_NONBLOCK / SOCK_CLOEXEC flags on socket().
    const int fd = ::socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd >= 0) {
        ::fcntl(fd, F_SETFD, FD_CLOEXEC);
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return fd;
#endif
}

} // namespace

NativeSocket connectTcp(const QString &host, int port, int timeoutMs, QString *error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const int rc = ::getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(),
                                 &hints, &found);
    if (rc != 0) {
        *error = u"cannot resolve %1: %2"_s.arg(host, QString::fromLocal8Bit(::gai_strerror(rc)));
        return kNoSocket;
    }
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, &::freeaddrinfo);
    *error = u"no address for %1"_s.arg(host);
    for (addrinfo *ai = found; ai; ai = ai->ai_next) {
        const int fd = openNonBlocking(ai);
        if (fd < 0) {
            *error = errnoText(errno);
            continue;
        }
        int result = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (result != 0 && errno == EINPROGRESS) {
            pollfd pfd{fd, POLLOUT, 0};
            int ready;
            do {
                ready = ::poll(&pfd, 1, timeoutMs);
            } while (ready < 0 && errno == EINTR);
            if (ready == 0) {
                errno = ETIMEDOUT;
            } else if (ready > 0) {
                int soError = 0;
                socklen_t len = sizeof soError;
                if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len) == 0 && soError == 0)
                    result = 0;
                else
                    errno = soError ? soError : errno;
            }
        }
        if (result == 0) {
            const int flags = ::fcntl(fd, F_GETFL);
            ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
            return fd;
        }
        *error = errnoText(errno);
        ::close(fd);
    }
    return kNoSocket;
}

void closeSocket(NativeSocket socket)
{
    if (socket != kNoSocket)
        ::close(int(socket));
}

HardLimits hardLimits()
{
    return {hardLimit(RLIMIT_NOFILE), hardLimit(RLIMIT_NPROC)};
}

bool runningAsRoot()
{
    return ::geteuid() == 0;
}

qint64 userId()
{
    return qint64(::geteuid());
}

} // namespace cardhour::sim::platform
