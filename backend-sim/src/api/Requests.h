#pragma once

#include "auth/SignupGate.h"
#include "service/InstanceService.h"

#include <QByteArray>
#include <QString>

// Parsing and validation of request bodies: pure functions (no database), so they are
// unit-tested and fuzzed directly. Each throws ApiError 400 with a message naming the field.
namespace cardhour::sim::requests {

struct Credentials
{
    QString email;
    QString password;
    QString deviceToken; // log-in: "device_token", optional
    std::optional<SignupGate::Proof> proof; // sign-up: "proof": {"nonce", "counter"}, optional
};
enum class CredentialsFor {
    SignUp,
    LogIn
};
Credentials parseCredentials(const QByteArray &body, CredentialsFor purpose);

// POST /v1/_sandbox/prove: {"nonce": 32 to 128 hex digits}.
QByteArray parseSandboxNonce(const QByteArray &body);

InstanceService::CreateRequest parseCreateInstance(const QByteArray &body);

struct NewSshKey
{
    QString name;
    QString publicKey;
};
NewSshKey parseNewSshKey(const QByteArray &body);

// {"name": "..."} (optional, body may be empty): a new snapshot's name.
QString parseNewSnapshot(const QByteArray &body);

// {"key_id": "..."}: one of the caller's keys to install on an instance.
QString parseInstanceKey(const QByteArray &body);

// Sandbox top-up: 0.01 to 100 000 yuan per payment.
constexpr qint64 kMinTopupMicros = 10'000;
constexpr qint64 kMaxTopupMicros = 100'000'000'000;
qint64 parseTopup(const QByteArray &body);

// Test clock: whole or fractional seconds, 0 to 10 years; returns milliseconds.
qint64 parseClockAdvance(const QByteArray &body);

// Paging: `limit` 1..500 (default 50), `before` a sequence number (default 0 = newest).
struct Page
{
    int limit = 50;
    qint64 before = 0;
};
Page parsePage(const QString &limit, const QString &before);

} // namespace cardhour::sim::requests
