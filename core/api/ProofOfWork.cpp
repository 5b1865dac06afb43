#include "ProofOfWork.h"

#include "api/ApiError.h"

#include <QCryptographicHash>
#include <QThread>

#include <bit>
#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::core::proof_of_work {

std::optional<Challenge> Challenge::fromError(const ApiError &error)
{
    const QJsonObject pow = error.details.value(u"proof_of_work"_s).toObject();
    const QString nonce = pow.value(u"nonce"_s).toString();
    const int bits = pow.value(u"bits"_s).toInt(-1);
    if (nonce.isEmpty() || nonce.size() > 64 || bits < 0 || bits > kMaxBits)
        return std::nullopt;
    return Challenge{nonce.toLatin1(), bits};
}

bool meets(QByteArrayView nonce, QByteArrayView counter, int bits)
{
    QCryptographicHash sha(QCryptographicHash::Sha256);
    sha.addData(nonce);
    sha.addData(":");
    sha.addData(counter);
    const QByteArray digest = sha.result();
    int zeros = 0;
    for (const char byte : digest) {
        const auto b = static_cast<unsigned char>(byte);
        zeros += std::countl_zero(b);
        if (b != 0 || zeros >= bits)
            break;
    }
    return zeros >= bits;
}

Answer solve(const Challenge &challenge)
{
    for (quint64 counter = 0;; ++counter) {
        QByteArray text = QByteArray::number(counter);
        if (meets(challenge.nonce, text, challenge.bits))
            return {challenge.nonce, std::move(text)};
    }
}

void solveAsync(const Challenge &challenge, QObject *context, std::function<void(Answer)> done)
{
    auto answer = std::make_shared<Answer>();
    QThread *worker = QThread::create([challenge, answer] { *answer = solve(challenge); });
    // finished is queued to `context`'s thread, and dropped with `context`.
    QObject::connect(worker, &QThread::finished, context,
                     [answer, done = std::move(done)] { done(*answer); });
    QObject::connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start(QThread::LowPriority);
}

} // namespace cardhour::core::proof_of_work
