#include "Ids.h"

#include <QUuid>

namespace cardhour::sim::ids {

QString newUuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

bool isUuid(const QString &text)
{
    return text.size() == 36 && !QUuid::fromString(text).isNull();
}

} // namespace cardhour::sim::ids
