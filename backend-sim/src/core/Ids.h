#pragma once

#include <QString>

namespace cardhour::sim::ids {

// A random (version 4) UUID in lower-case text without braces.
QString newUuid();
// A version 7 UUID (RFC 9562), same text form: Unix milliseconds first, then a counter that
// starts at a random value each millisecond, then random bits, so that ids made one after the
// other sort in that order. For rows written thousands at a time (ledger postings): each new
// id goes to the end of its unique index rather than to a random page of it.
QString newTimeOrderedUuid();
// Whether `text` looks like one of ours (used to answer 404 early for garbage ids).
bool isUuid(const QString &text);

} // namespace cardhour::sim::ids
