#pragma once

#include <QCoreApplication>
#include <QString>
#include <QUrl>

namespace cardhour::core {

// A provider's address as a person types it: "https://gpu.example.com", "127.0.0.1:8787"
// (http:// is assumed without a scheme). Strict, unlike QUrl::fromUserInput, which makes
// "http://x:99999" a host named "http" and "::::" a file: what is not an http(s) address with
// a host (and a port of 1 to 65535, if any) is refused with a sentence that says what is wrong
// and shows a good address. The window's connect step, its --provider and cardhourctl use it.
class ProviderUrl
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::ProviderUrl)
public:
    // The address, or an empty QUrl with the reason in `problem`.
    static QUrl parse(const QString &text, QString *problem = nullptr);
    // "https://gpu.example.com or http://127.0.0.1:8787": what the messages offer.
    static QString examples();
};

} // namespace cardhour::core
