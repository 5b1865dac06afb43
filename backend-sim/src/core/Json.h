#pragma once

#include "core/ApiError.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QVariant>

#include <optional>

namespace cardhour::sim {

namespace json {

// "2026-11-30T12:00:00.000Z"
QString isoTime(qint64 msSinceEpoch);
QJsonValue isoTimeOrNull(std::optional<qint64> msSinceEpoch);
// A time column that may be NULL (ms since the epoch, as the store keeps times): ISO or null.
QJsonValue nullableTime(const QVariant &msSinceEpoch);

// Parses a request body that must be one JSON object; throws ApiError 400 `invalid_json`.
QJsonObject parseObject(const QByteArray &body);

// Field readers that throw ApiError 400 `invalid_field` naming the field.
QString requiredString(const QJsonObject &object, const QString &key, int maxLength);
std::optional<QString> optionalString(const QJsonObject &object, const QString &key, int maxLength);
// An integral JSON number within [min, max] (JSON numbers are doubles: only |n| < 2^53 is exact).
qint64 requiredInteger(const QJsonObject &object, const QString &key, qint64 min, qint64 max);
QStringList stringList(const QJsonObject &object, const QString &key, int maxItems, int maxLength);
// Refuses members other than `allowed` so typos do not pass silently.
void rejectUnknownFields(const QJsonObject &object, const QStringList &allowed);

QByteArray compact(const QJsonObject &object);

} // namespace json
} // namespace cardhour::sim
