#pragma once

#include <QString>

namespace cardhour::sim::ids {

// A random (version 4) UUID in lower-case text without braces.
QString newUuid();
// Whether `text` looks like one of ours (used to answer 404 early for garbage ids).
bool isUuid(const QString &text);

} // namespace cardhour::sim::ids
