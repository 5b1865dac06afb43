#include "Accounts.h"

#include "auth/Tokens.h"
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QRegularExpression>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Accounts::Accounts(Database &db, Bookkeeper &books, const Clock &clock, PasswordHasher hasher)
    : m_db(db), m_books(books), m_clock(clock), m_hasher(hasher), m_loginGuard(clock),
      m_signupGate(clock)
{}

QString Accounts::normalizeEmail(const QString &email)
{
    return email.trimmed().toLower();
}

bool Accounts::isValidEmail(const QString &email)
{
    // Deliberately plain: one @, a dotted domain, no spaces; the full RFC grammar accepts
    // things no mail server delivers to.
    static const QRegularExpression pattern(
        u"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
        "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"_s);
    return email.size() <= 254 && pattern.match(email).hasMatch();
}

Accounts::Session Accounts::signUp(const QString &rawEmail, const QString &password,
                                   const QString &clientAddress,
                                   const std::optional<SignupGate::Proof> &proof)
{
    if (!clientAddress.isEmpty()) {
        if (const auto challenge = m_signupGate.admit(clientAddress, proof)) {
            throw ApiError(429, ErrorCode::TooManyAttempts,
                           u"Many new accounts came from this address: this one needs a proof "
                           "of work (details.proof_of_work)."_s)
                .withDetails({{u"proof_of_work"_s,
                               QJsonObject{{u"nonce"_s, QString::fromLatin1(challenge->nonce)},
                                           {u"bits"_s, challenge->bits}}}});
        }
    }
    const QString email = normalizeEmail(rawEmail);
    if (!isValidEmail(email))
        throw ApiError(400, ErrorCode::InvalidEmail,
                       u"\"%1\" is not a valid e-mail address."_s.arg(email.left(100)));
    if (password.size() < 8)
        throw ApiError(400, ErrorCode::WeakPassword,
                       u"The password must be at least 8 characters long."_s);
    if (password.size() > 1024)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"The password must be at most 1024 characters long."_s);

    // Every attempt that gets this far costs a hash and may hand out trial credit: counted.
    if (!clientAddress.isEmpty())
        m_signupGate.recordSignup(clientAddress);
    // Hash outside the transaction: it takes a fraction of a second and holds no lock.
    const QByteArray hash = m_hasher.hash(password);
    if (hash.isEmpty())
        throw DbError("password hashing failed");

    const qint64 now = m_clock.nowMs();
    const QString userId = ids::newUuid();
    Transaction tx(m_db);
    if (m_db.scalar(u"SELECT 1 FROM users WHERE email = ?"_s, {email}).isValid())
        throw ApiError(409, ErrorCode::EmailTaken,
                       u"An account with this e-mail address already exists."_s);
    m_db.exec(u"INSERT INTO users(id, email, password_hash, created_at) VALUES (?,?,?,?)"_s,
              {userId, email, QString::fromLatin1(hash), now});
    Ledger::Posting trial;
    trial.kind = Ledger::Kind::TrialCredit;
    trial.userId = userId;
    trial.amountMicros = kTrialCreditMicros;
    trial.description = u"Trial credit for new accounts"_s;
    m_books.post(trial, now);
    qint64 expiresAtMs = 0;
    const QString token = issueToken(userId, &expiresAtMs);
    const QString deviceToken = issueDeviceToken(userId);
    tx.commit();
    return {token, userId, email, expiresAtMs, deviceToken};
}

Accounts::Session Accounts::logIn(const QString &rawEmail, const QString &password,
                                  const QString &clientAddress, const QString &deviceToken)
{
    const QString email = normalizeEmail(rawEmail);
    const LoginGuard::Attempt attempt{email, clientAddress, trustedDevice(email, deviceToken)};
    if (const qint64 wait = m_loginGuard.retryAfterMs(attempt); wait > 0) {
        throw ApiError(
            429, ErrorCode::TooManyAttempts,
            attempt.trustedDevice.isEmpty()
                ? u"Too many failed log-ins to this account. Try again in %1 s, or "
                  "log in from a device that has logged in to it before."_s.arg((wait + 999) / 1000)
                : u"Too many failed log-ins from this device. Try again in %1 s."_s.arg((wait + 999)
                                                                                        / 1000));
    }

    QSqlQuery q = m_db.exec(u"SELECT id, password_hash FROM users WHERE email = ?"_s, {email});
    const bool found = q.next();
    if (m_dummyHash.isEmpty())
        m_dummyHash = m_hasher.hash(u"not a password anyone has"_s);
    const QByteArray stored = found ? q.value(1).toString().toLatin1() : m_dummyHash;
    const bool ok = m_hasher.verify(password, stored) && found;
    if (!ok) {
        m_loginGuard.recordFailure(attempt);
        throw ApiError(401, ErrorCode::InvalidCredentials, u"Wrong e-mail address or password."_s);
    }
    m_loginGuard.recordSuccess(attempt);
    const QString userId = q.value(0).toString();
    // A hash made at a lower cost (an older version) is made again at today's, now that the
    // password is at hand; hashed before the transaction, like at sign-up.
    QByteArray rehashed;
    if (m_hasher.needsRehash(stored))
        rehashed = m_hasher.hash(password);
    Transaction tx(m_db);
    if (!rehashed.isEmpty())
        m_db.exec(u"UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?"_s,
                  {QString::fromLatin1(rehashed), userId, QString::fromLatin1(stored)});
    qint64 expiresAtMs = 0;
    const QString token = issueToken(userId, &expiresAtMs);
    // The device keeps its token; one that brought none (or a stale one) gets one now.
    const QString device = attempt.trustedDevice.isEmpty() ? issueDeviceToken(userId) : deviceToken;
    tx.commit();
    return {token, userId, email, expiresAtMs, device};
}

QString Accounts::issueToken(const QString &userId, qint64 *expiresAtMs)
{
    const QByteArray token = tokens::generate();
    const qint64 now = m_clock.nowMs();
    m_db.exec(u"INSERT INTO tokens(hash, user_id, created_at) VALUES (?,?,?)"_s,
              {QString::fromLatin1(tokens::hashForStorage(token)), userId, now});
    *expiresAtMs = now + kTokenLifetimeMs;
    return QString::fromLatin1(token);
}

QString Accounts::issueDeviceToken(const QString &userId)
{
    const QByteArray token = tokens::generate();
    m_db.exec(u"INSERT INTO login_devices(token_hash, user_id, created_at) VALUES (?,?,?)"_s,
              {QString::fromLatin1(tokens::hashForStorage(token)), userId, m_clock.nowMs()});
    // The newest kDevicesPerAccount are kept: the table does not grow with every log-in of a
    // client that lost its token.
    m_db.exec(u"DELETE FROM login_devices WHERE user_id = ? AND token_hash NOT IN ("
              "SELECT token_hash FROM login_devices WHERE user_id = ?"
              " ORDER BY created_at DESC, rowid DESC LIMIT ?)"_s,
              {userId, userId, kDevicesPerAccount});
    return QString::fromLatin1(token);
}

QByteArray Accounts::trustedDevice(const QString &email, const QString &deviceToken)
{
    if (deviceToken.size() != 43) // as tokens::generate() makes them
        return {};
    const QByteArray hash = tokens::hashForStorage(deviceToken.toLatin1());
    const bool belongs =
        m_db.scalar(u"SELECT 1 FROM login_devices d JOIN users u ON u.id = d.user_id"
                    " WHERE d.token_hash = ? AND u.email = ?"_s,
                    {QString::fromLatin1(hash), email})
            .isValid();
    return belongs ? hash : QByteArray();
}

void Accounts::logOut(const QString &token)
{
    m_db.exec(u"UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL"_s,
              {m_clock.nowMs(), QString::fromLatin1(tokens::hashForStorage(token.toLatin1()))});
}

std::optional<QString> Accounts::authenticate(const QByteArray &token, bool *expired)
{
    if (expired)
        *expired = false;
    if (token.size() != 43) // 32 bytes in unpadded base64url
        return std::nullopt;
    forgetIfChanged();
    // qHash is seeded per process: a caller cannot aim presented tokens at one bucket.
    const size_t slot = qHash(QByteArrayView(token), QHashSeed::globalSeed());
    const KnownToken *known = nullptr;
    for (auto it = m_knownTokens.constFind(slot); it != m_knownTokens.cend() && it.key() == slot;
         ++it) {
        if (tokens::constantTimeEquals(it->token, token))
            known = &*it;
    }
    if (!known) {
        const QByteArray hash = tokens::hashForStorage(token);
        KnownToken found{token, {}, 0};
        QByteArray stored;
        m_db.forEachRow(
            u"SELECT hash, user_id, created_at FROM tokens WHERE hash = ? AND revoked_at IS NULL"_s,
            {QString::fromLatin1(hash)}, [&](const QSqlQuery &q) {
                stored = q.value(0).toString().toLatin1();
                found.userId = q.value(1).toString();
                found.createdAtMs = q.value(2).toLongLong();
            });
        // The lookup is by hash, so timing says nothing about the token; compare anyway.
        if (stored.isEmpty() || !tokens::constantTimeEquals(stored, hash))
            return std::nullopt;
        known = &*m_knownTokens.insert(slot, std::move(found));
    }
    if (m_clock.nowMs() >= known->createdAtMs + kTokenLifetimeMs) {
        if (expired)
            *expired = true;
        return std::nullopt;
    }
    return known->userId;
}

void Accounts::forgetIfChanged()
{
    if (m_knownAt == m_db.writeVersion())
        return;
    m_knownTokens.clear();
    m_knownUsers.clear();
    m_knownAt = m_db.writeVersion();
}

QJsonObject Accounts::userJson(const QString &userId)
{
    forgetIfChanged();
    if (const auto known = m_knownUsers.constFind(userId); known != m_knownUsers.cend())
        return *known;
    QJsonObject user;
    m_db.forEachRow(u"SELECT id, email, created_at FROM users WHERE id = ?"_s, {userId},
                    [&user](const QSqlQuery &q) {
                        user = {{u"id"_s, q.value(0).toString()},
                                {u"email"_s, q.value(1).toString()},
                                {u"created_at"_s, json::isoTime(q.value(2).toLongLong())}};
                    });
    if (user.isEmpty())
        throw ApiError(401, ErrorCode::Unauthorized, u"The account no longer exists."_s);
    m_knownUsers.insert(userId, user);
    return user;
}

} // namespace cardhour::sim
