#pragma once

#include "CliDialect.h"

#include <QString>
#include <QStringList>

namespace cardhour::sim::userns {

// Box root as an unprivileged host user: with podman run as root, every box runs in a user
// namespace that maps its ids 0..65535 to host ids kHostRoot..kHostRoot+65535, so what box root
// creates on its disk or reaches through a mount is owned by kHostRoot on the host, and a host
// file only host root may read stays unreadable in the box.
//
// One fixed range for all boxes, not one per instance: a snapshot's /workspace archive keeps
// the ids it was taken with (`volume import` shifts none, and runc mounts no volume idmapped),
// so a restore into another instance's range would show the user every file as nobody's.
// 0x40000000 lies in systemd's range for container ids (524288-1879048191, 65536 each, no
// user of the host is given one) and above what useradd hands out as subordinate ids to rootless
// users (up to 600100000), so no host user owns these ids.
inline constexpr unsigned kHostRoot = 0x40000000;
inline constexpr unsigned kSize = 65536;

// Whether this provider's boxes run mapped: podman as root only. Rootless podman has a user
// namespace of its own already; docker maps ids only daemon-wide (--userns-remap), not per
// container.
bool mapsBoxes(cli::Engine engine);
// `run` arguments that map box root to `hostRoot`.
QStringList runArgs(unsigned hostRoot);
// Gives `path` (no link followed) to `uid`/`gid` unless it is theirs already; false with
// *error when that fails.
bool giveTo(const QString &path, unsigned uid, unsigned gid, QString *error);

// Lets box root read what the provider made for boxes to mount (a dataset or model folder, a
// model file) without opening it to other host users: group kHostRoot, group may read (and
// enter a folder). Nothing where the provider is not root (no box is mapped then).
void shareWithBoxes(const QString &path);

} // namespace cardhour::sim::userns
