// Fuzzes the request-body parsers of the API (JSON parsing, field validation, limits).
// Every input must end in a value or an ApiError, never in a crash or another exception.
#include "api/Requests.h"
#include "core/Json.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>

using namespace cardhour::sim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int which = data[0] % 8;
    const QByteArray body(reinterpret_cast<const char *>(data + 1),
                          static_cast<qsizetype>(size - 1));
    try {
        switch (which) {
        case 0:
            (void)requests::parseCredentials(body, requests::CredentialsFor::SignUp);
            (void)requests::parseCredentials(body, requests::CredentialsFor::LogIn);
            break;
        case 1:
            (void)requests::parseCreateInstance(body);
            break;
        case 2:
            (void)requests::parseNewSshKey(body);
            break;
        case 3:
            (void)requests::parseTopup(body);
            break;
        case 4:
            (void)requests::parseClockAdvance(body);
            break;
        case 5: {
            const qsizetype half = body.size() / 2;
            (void)requests::parsePage(QString::fromUtf8(body.left(half)),
                                      QString::fromUtf8(body.mid(half)));
            break;
        }
        case 6:
            (void)requests::parseInstanceKey(body);
            break;
        case 7:
            (void)requests::parseSandboxNonce(body);
            break;
        }
    } catch (const ApiError &error) {
        if (error.status() != 400)
            __builtin_trap(); // parsers only ever answer "bad input"
    }
    return 0;
}
