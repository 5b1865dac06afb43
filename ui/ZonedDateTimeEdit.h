#pragma once

#include <QDateTime>
#include <QDateTimeEdit>
#include <QTimeZone>

namespace cardhour::ui {

// A date-time field that shows and takes the wall time of one zone (the provider's, as every
// time in the window is), whatever this machine's zone is. Qt 6.4's QDateTimeEdit edits local
// time or UTC only: the wall time is held as UTC and read back in the zone.
class ZonedDateTimeEdit : public QDateTimeEdit
{
    Q_OBJECT
public:
    explicit ZonedDateTimeEdit(QWidget *parent = nullptr);

    // The instant shown stays the same; its wall time moves to the new zone.
    void setZone(const QTimeZone &zone);
    QTimeZone zone() const { return m_zone; }
    void setInstant(const QDateTime &at);
    // The instant the field says (UTC).
    QDateTime instant() const;

private:
    QTimeZone m_zone = QTimeZone::utc();
};

} // namespace cardhour::ui
