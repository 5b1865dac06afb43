#pragma once

#include <QByteArrayView>
#include <QString>

#include <memory>

struct evp_md_ctx_st;

namespace cardhour::sim {

// SHA-256 through OpenSSL, which uses the CPU's SHA instructions: several times faster than
// QCryptographicHash of Qt 6.4 (portable C), which matters for gigabytes of model uploads.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void addData(QByteArrayView data);
    void reset();
    // The digest of what was added, in lower-case hex (the hash itself stays as it was).
    QString hex() const;
    static QString hexOf(QByteArrayView data);

private:
    std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st *)> m_ctx;
};

} // namespace cardhour::sim
