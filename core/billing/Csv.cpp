#include "billing/Csv.h"

using namespace Qt::StringLiterals;

namespace cardhour::core {

QString csvField(const QString &text, bool isText)
{
    QString value = text;
    // A leading TAB or CR hides a formula from a look at the cell but not from every
    // spreadsheet (OWASP's CSV injection list): neutralised like = + - @.
    if (isText && !value.isEmpty()
        && (value.front() == u'=' || value.front() == u'+' || value.front() == u'-'
            || value.front() == u'@' || value.front() == u'\t' || value.front() == u'\r'))
        value.prepend(u'\'');
    if (value.contains(u',') || value.contains(u'"') || value.contains(u'\n')
        || value.contains(u'\r')) {
        value.replace(u"\""_s, u"\"\""_s);
        return u'"' + value + u'"';
    }
    return value;
}

} // namespace cardhour::core
