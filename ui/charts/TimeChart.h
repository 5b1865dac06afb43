#pragma once

#include <QColor>
#include <QDateTime>
#include <QList>
#include <QPointF>
#include <QString>
#include <QTimeZone>
#include <QWidget>

#include <functional>

namespace cardhour::ui {

// A chart of values over time, painted with QPainter: a title, a value axis on the left with
// grid lines, a time axis below, line (or filled, stepped) series and a legend. It is what the
// client's two charts need and no more, so the client does not load a charting library (and the
// OpenGL libraries it pulls in) at every start. Nothing is painted while the chart is hidden.
// x is milliseconds since the epoch (UTC); y is in the chart's own unit.
class TimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimeChart(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    QString title() const { return m_title; }
    void setValueTitle(const QString &title); // beside the value axis ("yuan"); may be empty
    void setTimeRange(const QDateTime &from, const QDateTime &to);
    void setTimeZone(const QTimeZone &zone);
    void setTimeFormat(const QString &format); // QDateTime::toString format of the time labels
    void setValueRange(double low, double high);
    // How a value-axis label reads ("50%", "0.0123").
    void setValueLabel(std::function<QString(double)> label);
    void setLegendVisible(bool visible);
    // Shown in the plot while no series has a point.
    void setPlaceholder(const QString &text);

    // A new series (drawn in the next of the palette's series colours); returns its index.
    int addSeries(const QString &name, bool filled = false);
    void setSeriesName(int index, const QString &name);
    void clearSeries();
    int seriesCount() const { return int(m_series.size()); }
    int pointCount(int index) const;
    QPointF point(int index, int i) const;
    void appendPoint(int index, double x, double y);
    void replacePoints(int index, const QList<QPointF> &points);
    // Drops the points of every series older than `x` (points are kept in x order).
    void removeBefore(double x);

    QSize minimumSizeHint() const override;

    // The time axis' ticks: round times in the chart's zone (whole minutes, 5 minutes, hours,
    // days: the smallest step that gives at most `maxTicks`), never finer than the time format
    // writes, so each label says exactly the time its tick stands at. Milliseconds since the
    // epoch, in order.
    static QList<qint64> timeTicks(qint64 fromMs, qint64 toMs, const QTimeZone &zone,
                                   const QString &format, int maxTicks);
    // The ticks of the current range with their labels (what paintEvent draws; tests).
    QList<std::pair<qint64, QString>> timeLabels() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Series
    {
        QString name;
        bool filled = false;
        QList<QPointF> points;
    };
    QColor colourOf(int index) const;
    QRectF plotArea() const;

    QString m_title;
    QString m_valueTitle;
    QString m_placeholder;
    QDateTime m_from;
    QDateTime m_to;
    QTimeZone m_zone = QTimeZone::utc();
    QString m_timeFormat = QStringLiteral("HH:mm");
    double m_low = 0;
    double m_high = 100;
    std::function<QString(double)> m_valueLabel;
    bool m_legend = true;
    QList<Series> m_series;
};

} // namespace cardhour::ui
