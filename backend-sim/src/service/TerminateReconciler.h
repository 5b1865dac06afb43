#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <optional>

namespace cardhour::sim {

class Bookkeeper;
class Clock;
class ContainerRuntime;
class Database;
class Meter;

// After `terminated` nothing may run, hold a disk or bill. Each pass, periodically: a billing
// segment a terminated instance still has is closed at its termination and every charge for
// time after it is refunded (a ledger posting saying so); then what the runtime still holds for
// terminated instances (a box, a /workspace volume, its files) is destroyed. The last pass's
// report says what was found and done.
class TerminateReconciler : public QObject
{
    Q_OBJECT
public:
    TerminateReconciler(Database &db, Bookkeeper &books, Meter &meter, ContainerRuntime &runtime,
                        const Clock &clock, QObject *parent = nullptr);

    // A pass every `intervalMs` (0: none); ones terminated less than `graceMs` ago (provider
    // time) are left to their own removal, which may still be under way.
    void start(int intervalMs, qint64 graceMs);
    // One pass now: the billing part at once, the runtime's part when it has listed. Returns the
    // number its report will have (one more after the pass under way, if one is).
    int runNow(qint64 graceMs);
    // The last finished pass (null before the first), its findings limited to `userId`'s
    // instances when given.
    QJsonObject lastReport(const QString &userId = {}) const;

Q_SIGNALS:
    void passFinished();

private:
    struct Finding
    {
        QString instanceId;
        QString userId;
        QStringList leftovers; // what the runtime still held, now asked to be destroyed
        qint64 refundedMicros = 0;
        qint64 billedUntilMs = 0; // the latest charged moment after the termination
        qint64 terminatedAtMs = 0;
    };
    void refundLateCharges(qint64 nowMs);
    void onLeftovers(const QHash<QString, QStringList> &byInstance, bool ok);
    Finding &findingFor(const QString &instanceId, const QString &userId);

    Database &m_db;
    Bookkeeper &m_books;
    Meter &m_meter;
    ContainerRuntime &m_runtime;
    const Clock &m_clock;
    QTimer m_timer;
    qint64 m_periodicGraceMs = 0; // the periodic passes'
    qint64 m_graceMs = 0; // the pass under way's
    bool m_listing = false; // a pass waits for the runtime's list
    std::optional<qint64> m_queuedGraceMs; // a pass asked for while one was under way

    int m_pass = 0;
    qint64 m_passStartedMs = 0;
    QList<Finding> m_findings; // of the pass under way
    QJsonObject m_last; // the last finished pass, all users' findings
    QHash<QString, QString> m_ownerOfFinding; // instance → user, of m_last's findings
};

} // namespace cardhour::sim
