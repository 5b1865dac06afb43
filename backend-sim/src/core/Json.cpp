#include "Json.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QTimeZone>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim::json {

namespace {
ApiError fieldError(const QString &key, const QString &what)
{
    return ApiError(400, ErrorCode::InvalidField, u"Field \"%1\" %2."_s.arg(key, what));
}
} // namespace

QString isoTime(qint64 msSinceEpoch)
{
    return QDateTime::fromMSecsSinceEpoch(msSinceEpoch, QTimeZone::utc())
        .toString(u"yyyy-MM-ddTHH:mm:ss.zzzZ"_s);
}

QJsonValue isoTimeOrNull(std::optional<qint64> msSinceEpoch)
{
    return msSinceEpoch ? QJsonValue(isoTime(*msSinceEpoch)) : QJsonValue(QJsonValue::Null);
}

QJsonValue nullableTime(const QVariant &msSinceEpoch)
{
    return msSinceEpoch.isNull() ? QJsonValue(QJsonValue::Null)
                                 : QJsonValue(isoTime(msSinceEpoch.toLongLong()));
}

QJsonObject parseObject(const QByteArray &body)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        throw ApiError(
            400, ErrorCode::InvalidJson,
            u"Request body is not valid JSON: %1 at offset %2."_s.arg(error.errorString())
                .arg(error.offset));
    if (!document.isObject())
        throw ApiError(400, ErrorCode::InvalidJson, u"Request body must be a JSON object."_s);
    return document.object();
}

std::optional<QString> optionalString(const QJsonObject &object, const QString &key, int maxLength)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        throw fieldError(key, u"must be a string"_s);
    const QString text = value.toString();
    if (text.size() > maxLength)
        throw fieldError(key, u"is longer than %1 characters"_s.arg(maxLength));
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control)
            throw fieldError(key, u"contains control characters"_s);
    }
    return text;
}

QString requiredString(const QJsonObject &object, const QString &key, int maxLength)
{
    const std::optional<QString> text = optionalString(object, key, maxLength);
    if (!text)
        throw fieldError(key, u"is required"_s);
    if (text->trimmed().isEmpty())
        throw fieldError(key, u"must not be empty"_s);
    return *text;
}

qint64 requiredInteger(const QJsonObject &object, const QString &key, qint64 min, qint64 max)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        throw fieldError(key, u"is required"_s);
    if (!value.isDouble())
        throw fieldError(key, u"must be an integer"_s);
    const double number = value.toDouble();
    constexpr double exactLimit = 9007199254740992.0; // 2^53
    if (!std::isfinite(number) || std::trunc(number) != number || std::fabs(number) >= exactLimit)
        throw fieldError(key, u"must be an integer"_s);
    const auto integer = static_cast<qint64>(number);
    if (integer < min || integer > max)
        throw fieldError(key, u"must be between %1 and %2"_s.arg(min).arg(max));
    return integer;
}

QStringList stringList(const QJsonObject &object, const QString &key, int maxItems, int maxLength)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isArray())
        throw fieldError(key, u"must be an array of strings"_s);
    const QJsonArray array = value.toArray();
    if (array.size() > maxItems)
        throw fieldError(key, u"has more than %1 items"_s.arg(maxItems));
    QStringList result;
    for (const QJsonValue &item : array) {
        if (!item.isString() || item.toString().size() > maxLength || item.toString().isEmpty())
            throw fieldError(key, u"must be an array of non-empty strings"_s);
        result.append(item.toString());
    }
    return result;
}

void rejectUnknownFields(const QJsonObject &object, const QStringList &allowed)
{
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!allowed.contains(it.key()))
            throw ApiError(400, ErrorCode::UnknownField,
                           u"Unknown field \"%1\"; expected one of: %2."_s.arg(
                               it.key().left(64), allowed.join(u", "_s)));
    }
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace cardhour::sim::json
