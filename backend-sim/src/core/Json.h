#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <exception>
#include <optional>

namespace cardhour::sim {

// An error the API reports to the caller: {"error":{"code":..,"message":..}} with `status`.
// Thrown by services and request parsers, turned into a response at the API boundary.
class ApiError : public std::exception
{
public:
    ApiError(int status, QString code, QString message)
        : m_status(status), m_code(std::move(code)), m_message(std::move(message)),
          m_what(m_message.toUtf8())
    {
    }
    int status() const { return m_status; }
    const QString &code() const { return m_code; }
    const QString &message() const { return m_message; }
    const char *what() const noexcept override { return m_what.constData(); }

private:
    int m_status;
    QString m_code;
    QString m_message;
    QByteArray m_what;
};

namespace json {

// "2026-11-30T12:00:00.000Z"
QString isoTime(qint64 msSinceEpoch);
QJsonValue isoTimeOrNull(std::optional<qint64> msSinceEpoch);

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
