#include "ProviderUrl.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

QUrl refuse(QString *problem, const QString &why)
{
    if (problem)
        *problem = why;
    return {};
}

} // namespace

QString ProviderUrl::examples()
{
    return tr("for example https://gpu.example.com or http://127.0.0.1:8787");
}

QUrl ProviderUrl::parse(const QString &input, QString *problem)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return refuse(problem, tr("Enter the provider's address, %1.").arg(examples()));
    if (text.contains(QRegularExpression(u"\\s"_s)))
        return refuse(
            problem, tr("“%1” has a space in it: an address has none (%2).").arg(text, examples()));
    // "name:/..." or "name://..." names a scheme; "host:port" does not (no slash after the colon).
    static const QRegularExpression schemeShape(u"^([A-Za-z][A-Za-z0-9+.-]*):(/*)"_s);
    const QRegularExpressionMatch scheme = schemeShape.match(text);
    const bool namesScheme = scheme.hasMatch() && !scheme.captured(2).isEmpty();
    if (namesScheme) {
        const QString name = scheme.captured(1).toLower();
        if (name != u"http"_s && name != u"https"_s)
            return refuse(problem,
                          tr("“%1:” is not a provider's scheme: the address starts "
                             "with http:// or https:// (%2).")
                              .arg(scheme.captured(1), examples()));
        if (scheme.captured(2) != u"//"_s)
            return refuse(problem,
                          tr("“%1” needs two slashes after “%2:” (%3).")
                              .arg(text, scheme.captured(1), examples()));
    } else if (text.contains(u"//"_s)) {
        return refuse(problem,
                      tr("“%1” has a broken scheme: the address starts with http:// or "
                         "https:// (%2).")
                          .arg(text, examples()));
    }
    const QUrl url(namesScheme ? text : u"http://"_s + text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || url.port() == 0) {
        // The commonest slip: a port that is not a number ("localhost:abc").
        static const QRegularExpression badPort(u"^(?:https?://)?[^/:]+:([^/]*)"_s,
                                                QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch port = badPort.match(text);
        if (port.hasMatch() && !port.captured(1).isEmpty()) {
            bool number = false;
            const int value = port.captured(1).toInt(&number);
            if (!number || value < 1 || value > 65535)
                return refuse(problem,
                              tr("“%1” is not a port: a port is a number from 1 to "
                                 "65535 (%2).")
                                  .arg(port.captured(1), examples()));
        }
        return refuse(problem,
                      tr("“%1” is not an address with a host name (%2).").arg(text, examples()));
    }
    if (!url.userInfo().isEmpty())
        return refuse(problem,
                      tr("“%1” has a user name in it: CardHour asks for the account "
                         "after connecting (%2).")
                          .arg(text, examples()));
    if (url.hasQuery() || url.hasFragment())
        return refuse(problem,
                      tr("“%1” has a query or fragment (after ? or #): a provider's "
                         "address has none (%2).")
                          .arg(text, examples()));
    QUrl result = url;
    result.setScheme(url.scheme().toLower());
    if (problem)
        problem->clear();
    return result;
}

} // namespace cardhour::core
