#pragma once

#include "runtime/BoxHardware.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class Database;
class InstanceRecords;
struct InstanceSpec;

// The check at power-on, before billing: what the box reports it got (its cards, CPUs, memory
// and /workspace, read inside it) against what was ordered (the instance's spec). Each launch's
// result is kept (instance_hardware_checks) and shown in the instance's view.
class HardwareCheck
{
public:
    HardwareCheck(Database &db, InstanceRecords &records);

    struct Verdict
    {
        bool passed = false;
        QStringList differences; // each names what was ordered and what the box has
        QJsonObject json; // as the instance view shows it
    };
    // Judges `found` against the instance's order and records it for its current launch
    // (inside the caller's transaction).
    Verdict judge(const QString &instanceId, const BoxHardware &found, qint64 nowMs);
    // What differs between the order and the box; empty when the box has at least what was
    // ordered.
    static QStringList differences(const InstanceSpec &ordered, const BoxHardware &found);
    static QJsonObject orderedJson(const InstanceSpec &ordered);

private:
    Database &m_db;
    InstanceRecords &m_records;
};

} // namespace cardhour::sim
