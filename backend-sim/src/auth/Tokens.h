#pragma once

#include <QByteArray>

namespace cardhour::sim::tokens {

// 32 bytes from the OS CSPRNG (OpenSSL RAND_bytes), base64url without padding (43 chars).
QByteArray generate();
// SHA-256 of the token text, lower-case hex (64 chars): the only form ever stored.
QByteArray hashForStorage(QByteArrayView token);
// Constant-time equality (CRYPTO_memcmp); different lengths compare unequal.
bool constantTimeEquals(QByteArrayView a, QByteArrayView b);
// Random bytes from the OS CSPRNG.
QByteArray randomBytes(int count);

} // namespace cardhour::sim::tokens
