#include "ZonedDateTimeEdit.h"

#include "Format.h"

namespace cardhour::ui {

ZonedDateTimeEdit::ZonedDateTimeEdit(QWidget *parent) : QDateTimeEdit(parent)
{
    setTimeSpec(Qt::UTC);
}

void ZonedDateTimeEdit::setZone(const QTimeZone &zone)
{
    const QDateTime at = instant();
    m_zone = zone.isValid() ? zone : QTimeZone::utc();
    setInstant(at);
    setToolTip(Format::zoneNote(m_zone, zone.isValid()));
}

void ZonedDateTimeEdit::setInstant(const QDateTime &at)
{
    const QDateTime there = at.toTimeZone(m_zone);
    setDateTime(QDateTime(there.date(), there.time(), QTimeZone::utc()));
}

QDateTime ZonedDateTimeEdit::instant() const
{
    return QDateTime(date(), time(), m_zone).toUTC();
}

} // namespace cardhour::ui
