#pragma once

#include <QByteArray>
#include <QString>

namespace cardhour::sim::notices {

// The folder a box sees at /run/cardhour/notices (read-only), on the host:
// <dataDir>/instances/<id>/notices. Empty for an unsafe id or without a data directory.
QString hostDirFor(const QString &dataDir, const QString &instanceId);
// Writes `<dir>/<name>` atomically (a reader sees the old file or the new one), 0644; an empty
// `content` removes it. False on failure (with a warning): a notice is best effort, the event
// and the instance's state say the same.
bool write(const QString &dir, const QString &name, const QByteArray &content);

} // namespace cardhour::sim::notices
