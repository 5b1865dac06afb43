#pragma once

#include <QDateTime>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::core {

// The check at power-on, before billing, of what the box got (read inside it) against the
// order: the instance's `hardware_check`. Unset until the launch has come that far.
struct HardwareCheck
{
    bool passed = false;
    QDateTime checkedAt;
    QStringList differences; // the provider's words, each naming the order and the box
    // Ordered
    int orderedGpuCount = 0;
    QString orderedGpuName;
    qint64 orderedVramMib = 0;
    double orderedCpus = 0;
    qint64 orderedMemoryMib = 0;
    qint64 orderedDiskGib = 0;
    // Found in the box (unset: it could not be read, or there is no limit)
    std::optional<int> foundGpuCount;
    struct Card
    {
        QString name;
        qint64 vramMib = 0;
    };
    QList<Card> foundCards; // as the box's nvidia-smi lists them
    std::optional<double> foundCpus;
    std::optional<qint64> foundMemoryMib;
    std::optional<qint64> foundWorkspaceBytes;
    bool workspaceBounded = false;

    static std::optional<HardwareCheck> fromJson(const QJsonValue &v);
};

} // namespace cardhour::core
