#include "Requests.h"

#include "SandboxSecret.h"
#include "core/ApiError.h"
#include "core/Json.h"

#include <QJsonArray>
#include <QUuid>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim::requests {

Credentials parseCredentials(const QByteArray &body, CredentialsFor purpose)
{
    const QJsonObject o = json::parseObject(body);
    const QString extra = purpose == CredentialsFor::LogIn ? u"device_token"_s : u"proof"_s;
    json::rejectUnknownFields(o, {u"email"_s, u"password"_s, extra});
    Credentials c;
    c.email = json::requiredString(o, u"email"_s, 254);
    // Length rules (at least 8) belong to sign-up; log-in only needs a string.
    const QJsonValue password = o.value(u"password"_s);
    if (!password.isString())
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"password\" must be a string."_s);
    c.password = password.toString();
    if (c.password.size() > 1024)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"password\" is longer than 1024 characters."_s);
    if (purpose == CredentialsFor::LogIn && o.contains(u"device_token"_s))
        c.deviceToken = json::requiredString(o, u"device_token"_s, 64);
    if (purpose == CredentialsFor::SignUp && o.contains(u"proof"_s)) {
        const QJsonValue proof = o.value(u"proof"_s);
        if (!proof.isObject())
            throw ApiError(400, ErrorCode::InvalidField, u"Field \"proof\" must be an object."_s);
        const QJsonObject p = proof.toObject();
        json::rejectUnknownFields(p, {u"nonce"_s, u"counter"_s});
        c.proof = SignupGate::Proof{json::requiredString(p, u"nonce"_s, 64).toLatin1(),
                                    json::requiredString(p, u"counter"_s, 20).toLatin1()};
    }
    return c;
}

QByteArray parseSandboxNonce(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"nonce"_s});
    const QByteArray nonce = json::requiredString(o, u"nonce"_s, 128).toLatin1();
    if (!SandboxSecret::isValidNonce(nonce))
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"nonce\" must be 32 to 128 hexadecimal digits."_s);
    return nonce;
}

InstanceService::CreateRequest parseCreateInstance(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o,
                              {u"name"_s, u"gpu_type"_s, u"gpu_count"_s, u"image"_s,
                               u"ssh_key_ids"_s, u"datasets"_s, u"models"_s, u"snapshot_id"_s,
                               u"stop_policy"_s, u"price_class"_s, u"restart_when_available"_s});
    InstanceService::CreateRequest r;
    r.stopPolicy = StopPolicy::fromJson(o.value(u"stop_policy"_s));
    const QString priceClass =
        json::optionalString(o, u"price_class"_s, 32).value_or(u"on_demand"_s);
    if (priceClass != u"on_demand"_s && priceClass != u"interruptible"_s)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"price_class\" must be \"on_demand\" or \"interruptible\"."_s);
    r.interruptible = priceClass == u"interruptible"_s;
    const QJsonValue restart = o.value(u"restart_when_available"_s);
    if (!restart.isUndefined() && !restart.isBool())
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"restart_when_available\" must be true or false."_s);
    r.restartWhenAvailable = restart.toBool();
    if (r.restartWhenAvailable && !r.interruptible)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"restart_when_available\" needs \"price_class\": "
                       "\"interruptible\" (only the provider interrupts such a host)."_s);
    r.snapshotId = json::optionalString(o, u"snapshot_id"_s, 64).value_or(QString());
    const bool restore = o.contains(u"snapshot_id"_s);
    if (restore && r.snapshotId.isEmpty())
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"snapshot_id\" must not be empty."_s);
    // A restore takes the GPU type and count and the image from its snapshot unless given.
    r.gpuType = restore ? json::optionalString(o, u"gpu_type"_s, 64).value_or(QString())
                        : json::requiredString(o, u"gpu_type"_s, 64);
    r.image = restore ? json::optionalString(o, u"image"_s, 64).value_or(QString())
                      : json::requiredString(o, u"image"_s, 64);
    r.gpuCount =
        static_cast<int>(o.contains(u"gpu_count"_s) ? json::requiredInteger(o, u"gpu_count"_s, 1, 8)
                             : restore              ? 0
                                                    : 1);
    r.sshKeyIds = json::stringList(o, u"ssh_key_ids"_s, 32, 64);
    r.sshKeyIds.removeDuplicates();
    r.datasets = json::stringList(o, u"datasets"_s, 16, 64);
    r.datasets.removeDuplicates();
    r.models = json::stringList(o, u"models"_s, 16, 64);
    r.models.removeDuplicates();
    const std::optional<QString> name = json::optionalString(o, u"name"_s, 64);
    if (name && name->trimmed().isEmpty())
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"name\" must not be empty."_s);
    r.name = name ? name->trimmed()
        : restore ? QString() // named after the snapshot's GPU type once that is known
                  : u"%1-%2"_s.arg(r.gpuType, QUuid::createUuid().toString(QUuid::Id128).left(6));
    return r;
}

QString parseNewSnapshot(const QByteArray &body)
{
    if (body.trimmed().isEmpty())
        return {};
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"name"_s});
    const std::optional<QString> name = json::optionalString(o, u"name"_s, 64);
    if (name && name->trimmed().isEmpty())
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"name\" must not be empty."_s);
    return name ? name->trimmed() : QString();
}

NewSshKey parseNewSshKey(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"name"_s, u"public_key"_s});
    NewSshKey k;
    // Not a requiredString: a pasted .pub line ends in a newline, and a pasted private key or
    // two keys hold line breaks; the key parser trims the one and explains the others.
    const QJsonValue publicKey = o.value(u"public_key"_s);
    if (!publicKey.isString() || publicKey.toString().trimmed().isEmpty())
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"public_key\" must be a non-empty string."_s);
    if (publicKey.toString().size() > 16 * 1024)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"public_key\" is longer than 16384 characters."_s);
    k.publicKey = publicKey.toString();
    const std::optional<QString> name = json::optionalString(o, u"name"_s, 64);
    k.name = name ? name->trimmed() : QString();
    return k;
}

QString parseInstanceKey(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"key_id"_s});
    return json::requiredString(o, u"key_id"_s, 64);
}

qint64 parseTopup(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"amount_micros"_s});
    return json::requiredInteger(o, u"amount_micros"_s, kMinTopupMicros, kMaxTopupMicros);
}

qint64 parseClockAdvance(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"seconds"_s});
    const QJsonValue v = o.value(u"seconds"_s);
    const double seconds = v.toDouble(-1);
    constexpr double kTenYears = 10.0 * 365 * 24 * 3600;
    if (!v.isDouble() || !std::isfinite(seconds) || seconds < 0 || seconds > kTenYears)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"seconds\" must be a number from 0 to 315360000."_s);
    return static_cast<qint64>(std::llround(seconds * 1000.0));
}

Page parsePage(const QString &limit, const QString &before)
{
    Page page;
    if (!limit.isEmpty()) {
        bool ok = false;
        page.limit = limit.toInt(&ok);
        if (!ok || page.limit < 1 || page.limit > 500)
            throw ApiError(400, ErrorCode::InvalidQuery,
                           u"limit must be an integer from 1 to 500."_s);
    }
    if (!before.isEmpty()) {
        bool ok = false;
        page.before = before.toLongLong(&ok);
        if (!ok || page.before < 1)
            throw ApiError(400, ErrorCode::InvalidQuery,
                           u"before must be a positive sequence number."_s);
    }
    return page;
}

} // namespace cardhour::sim::requests
