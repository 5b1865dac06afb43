#pragma once

#include <QStyledItemDelegate>

namespace cardhour::ui {

// Paints a cell's SparklineRole (QList<double>, 0-100, oldest first) as a small line. Only cells
// on screen are painted, so a long list of instances costs nothing for the rows out of view.
class SparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit SparklineDelegate(int role, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The line itself (values 0-100, oldest first) inside `area`; also used by the host cards.
    static void drawLine(QPainter *painter, const QRectF &area, const QList<double> &values,
                         const QColor &colour);

private:
    int m_role;
};

} // namespace cardhour::ui
