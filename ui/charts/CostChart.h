#pragma once

#include <QList>
#include <QString>
#include <QWidget>

namespace cardhour::ui {

// Horizontal bars of a few amounts side by side (the cost comparison's three ways to pay),
// painted with QPainter like TimeChart: a title, one labelled bar per amount on one scale, the
// amount written at the bar's end. The first bar is drawn in the palette's accent.
class CostChart : public QWidget
{
    Q_OBJECT
public:
    struct Bar
    {
        QString label;
        qint64 micros = 0;
        QString amountText; // written at the bar's end
    };

    explicit CostChart(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    void setBars(const QList<Bar> &bars);
    // Shown instead of the bars while there are none.
    void setPlaceholder(const QString &text);
    QList<Bar> bars() const { return m_bars; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_title;
    QString m_placeholder;
    QList<Bar> m_bars;
};

} // namespace cardhour::ui
