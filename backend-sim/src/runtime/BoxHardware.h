#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

// What a box got, as read inside it at power-on (before it is billed): its cards as its
// nvidia-smi lists them, its CPU and memory limits from its own cgroup, and the size of the file
// system under /workspace. A reading the box could not give stays at -1 (not known).
struct BoxHardware
{
    QString error; // empty: read; else why the box could not be read
    int gpuCount = -1;
    QStringList gpuNames;
    QList<qint64> gpuVramMib;
    QString gpuError; // nvidia-smi's own complaint, when it had one
    double cpus = -1; // the CPU quota (0: no quota, the host's cpusOnline apply)
    int cpusOnline = -1;
    qint64 memoryMib = -1; // the memory limit (0: no limit)
    qint64 workspaceBytes = -1;
    // Whether /workspace is a file system of the instance's own size (else it shares a bigger
    // one, and its size says nothing about the order).
    bool workspaceBounded = false;

    QJsonObject toJson() const;
};

// What a test asks the runtime to give the next box it makes, less than ordered (each field
// ignored when not positive): a launch that really gets less, so the check has something real
// to find.
struct BoxShortfall
{
    int gpuCount = 0;
    double cpus = 0;
    qint64 memoryMib = 0;
    qint64 diskGib = 0;
    bool any() const { return gpuCount > 0 || cpus > 0 || memoryMib > 0 || diskGib > 0; }
};

namespace boxhardware {
// The report the box's cardhour-hardware-report wrote (one `key=value` line per reading, then
// `end`) read back; `error` set when it did not finish, or names another start than `startId`
// (when given).
BoxHardware parse(const QByteArray &output, const QString &startId = {});
} // namespace boxhardware

} // namespace cardhour::sim
