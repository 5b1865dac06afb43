#pragma once

#include "api/Models.h"

#include <QDateTime>
#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

class TimeChart;

// Per-card GPU utilisation of one instance over the last 5, 15 or 60 minutes (a TimeChart). The
// history comes from GET /v1/instances/{id}/metrics when the instance or the range changes or
// the chart is shown again; after that, live `metrics` events are appended. While the chart is
// hidden it does no work at all: samples are dropped and the history is fetched anew on show.
class MetricsChart : public QWidget
{
    Q_OBJECT
public:
    // `client` is not owned and must outlive the chart.
    explicit MetricsChart(core::ClientSession *session, QWidget *parent = nullptr);

    // The instance to show (empty: none). Fetches its history if the chart is visible.
    void setInstance(const QString &instanceId, bool running);
    QString instanceId() const { return m_instanceId; }
    int rangeMinutes() const;
    // Samples currently plotted for card `index` (tests).
    int pointCount(int index = 0) const;

public Q_SLOTS:
    void addSample(const cardhour::core::MetricsSample &sample);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void reload();
    void clearSeries();
    int seriesFor(int index);
    void append(const core::MetricsSample &sample);
    void trim();
    void retranslate();

    core::ClientSession *m_session;
    QComboBox *m_range;
    QLabel *m_note;
    TimeChart *m_plot;
    QHash<int, int> m_series; // card index -> the plot's series
    QString m_instanceId;
    bool m_running = false;
    quint64 m_generation = 0; // answers for an earlier instance or range are dropped
};

} // namespace cardhour::ui
