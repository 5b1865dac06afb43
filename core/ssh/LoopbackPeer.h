#pragma once

#include <QtGlobal>

#include <optional>

class QAbstractSocket;
class QHostAddress;

namespace cardhour::core {

// Who is at the other end of a loopback TCP connection. A local port forward listens on
// 127.0.0.1, which every user of the machine can reach; only its owner may use it.

// The uid that owns the socket at address `peer`:`peerPort` connected to `local`:`localPort`,
// read from the kernel's socket tables (/proc/net/tcp and /proc/net/tcp6: the `uid` column of
// the row whose local address is the peer's and whose remote address is ours). nullopt where
// there is no such row, and on systems without those tables.
std::optional<uint> loopbackPeerUid(const QHostAddress &peer, quint16 peerPort,
                                    const QHostAddress &local, quint16 localPort);
std::optional<uint> loopbackPeerUid(const QAbstractSocket &accepted);

// Whether an accepted connection comes from this process's user. On Linux only a peer whose
// uid is getuid() (an unknown peer is refused); other systems offer no such table, and there
// every local connection is accepted (as OpenSSH's `ssh -L` does everywhere).
bool peerIsThisUser(const QAbstractSocket &accepted);

} // namespace cardhour::core
