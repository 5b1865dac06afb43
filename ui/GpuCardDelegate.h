#pragma once

#include <QStyledItemDelegate>

namespace cardhour::ui {

// Paints the GPU types of the launch dialog's list as cards when the list is in icon mode (a
// grid that wraps): the name, the lines under it (VRAM, price per card-hour, free cards) and a
// badge (simulated or real). In list mode (a narrow dialog) it paints the plain item text.
// The item gives the parts in the roles below; Qt::AccessibleTextRole says all of it.
class GpuCardDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    enum Role {
        TitleRole = Qt::UserRole + 10, // QString
        LinesRole, // QStringList
        BadgeRole, // QString
        ScarceRole, // bool: no card free (the free count is painted as a warning)
    };
    static constexpr QSize cardSize{232, 124};

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    static bool inCardMode(const QStyleOptionViewItem &option);
};

} // namespace cardhour::ui
