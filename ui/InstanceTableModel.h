#pragma once

#include "api/Models.h"
#include "billing/Clock.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QIcon>
#include <QList>
#include <QTimeZone>

class QPalette;
class QTimer;

namespace cardhour::ui {

// The user's instances as a table. It holds no state of its own beyond what the provider said:
// setInstances() from GET /v1/instances (after every EventStream connected()), upsert() from each
// `instance` event. Between events the cost of a running instance is carried forward locally
// from the provider's figure at the instance's price, once a second, so the bill visibly moves.
class InstanceTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        GpuColumn,
        PriceColumn,
        CostColumn,
        ActivityColumn, // a sparkline of GPU utilisation (SparklineDelegate)
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StateRole,
        // The last minute of GPU utilisation (0-100, all cards averaged), oldest first, as
        // QList<double>, from the `metrics` events the provider pushes anyway.
        SparklineRole
    };
    static constexpr int kSparklinePoints = 60;

    // `clock` must outlive the model; nullptr: the system clock.
    explicit InstanceTableModel(const core::Clock *clock = nullptr, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Replaces every row (terminated instances are left out).
    void setInstances(const QList<core::Instance> &instances);
    // Adds or updates one row; a terminated instance's row goes away.
    void upsert(const core::Instance &instance);
    void clear();
    // One `metrics` event: appends to that instance's sparkline. The cells that changed are
    // announced together once per frame (kFrameMs), not once per sample: with many instances
    // at 1 Hz the views repaint a few times a second, not a few hundred.
    void addSample(const core::MetricsSample &sample);
    static constexpr int kFrameMs = 16;

    int rowOf(const QString &id) const;
    const core::Instance *instanceAt(int row) const;
    const core::Instance *instance(const QString &id) const;
    // The cost so far, with the running time since the provider's figure added locally.
    qint64 costNowMicros(int row) const;

    // "Starting · image ✓ container ✓ sshd …", "Running · SSH ready in 3.2 s": the state with
    // the launch stages reached so far (the honest readiness display).
    static QString stateText(const core::Instance &instance);

public Q_SLOTS:
    // The zone times are written in (the provider's, ClientSession::timeZone()), and the clock
    // that says how long ago the provider's times were (its own; nullptr: the model's clock).
    void setTimeZone(const QTimeZone &zone, const core::Clock *providerNow = nullptr);
    QTimeZone timeZone() const { return m_zone; }

    // Moves the cost column of running instances (a timer calls this every second).
    void tick();

    // Headers and state words are translated when asked for: after a language switch the
    // views only need to ask again.
    void retranslate();

private:
    struct Row
    {
        core::Instance instance;
        qint64 receivedMs = 0; // when the provider's figure arrived, on our clock
    };
    void updateTimer();
    void flushActivity();
    void reindex();
    QIcon stateIcon(core::InstanceState state, const QPalette &palette) const;

    const core::Clock *m_clock;
    QTimeZone m_zone = QTimeZone::utc();
    const core::Clock *m_providerNow = nullptr;
    QList<Row> m_rows;
    QHash<QString, int> m_rowOf; // instance id → row
    QHash<QString, QList<double>> m_activity; // instance id → recent utilisation
    QTimer *m_timer = nullptr;
    QTimer *m_activityFlush = nullptr;
    int m_dirtyFirst = -1; // rows whose sparkline changed since the last flush
    int m_dirtyLast = -1;
    mutable QHash<int, QIcon> m_stateIcons; // by state, for the theme below
    mutable bool m_iconsDark = false;
};

} // namespace cardhour::ui
