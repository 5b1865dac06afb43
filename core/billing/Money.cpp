#include "billing/Money.h"

using namespace Qt::StringLiterals;

namespace cardhour::core {

QString Money::format(qint64 micros, int decimals)
{
    decimals = qBound(0, decimals, 6);
    const bool negative = micros < 0;
    const quint64 magnitude = negative ? quint64(-(micros + 1)) + 1 : quint64(micros);
    QString text = u"¥"_s + QString::number(magnitude / 1'000'000);
    if (decimals > 0) {
        const QString fraction = u"%1"_s.arg(qulonglong(magnitude % 1'000'000), 6, 10, QChar(u'0'));
        text += u'.' + fraction.left(decimals);
    }
    return negative ? u"−"_s + text : text;
}

std::optional<qint64> Money::parseYuan(const QString &text, int maxDecimals)
{
    QString value = text.trimmed();
    value.replace(u'，', u'.').replace(u',', u'.').replace(u'。', u'.');
    if (value.startsWith(u'¥') || value.startsWith(u'￥'))
        value = value.mid(1).trimmed();
    const qsizetype point = value.indexOf(u'.');
    const QString whole = point < 0 ? value : value.left(point);
    const QString fraction = point < 0 ? QString() : value.mid(point + 1);
    if (whole.isEmpty() && fraction.isEmpty())
        return std::nullopt;
    if (fraction.size() > maxDecimals || whole.size() > 12)
        return std::nullopt;
    for (const QString &part : {whole, fraction}) {
        for (QChar c : part) {
            if (c < u'0' || c > u'9')
                return std::nullopt;
        }
    }
    const qint64 yuan = whole.isEmpty() ? 0 : whole.toLongLong();
    const qint64 micros = fraction.isEmpty() ? 0 : (fraction + u"000000"_s).left(6).toLongLong();
    return yuan * 1'000'000 + micros;
}

} // namespace cardhour::core
