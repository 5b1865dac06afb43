#include "api/SseParser.h"

using namespace Qt::StringLiterals;

namespace cardhour::core {

QList<SseEvent> SseParser::feed(QByteArrayView chunk)
{
    QList<SseEvent> out;
    if (m_overflowed)
        return out;
    qsizetype pos = 0;
    // A CR that ended the previous chunk and an LF that starts this one are one line end.
    if (m_lastWasCr && !chunk.isEmpty() && chunk.at(0) == '\n')
        pos = 1;
    m_lastWasCr = false;
    while (pos < chunk.size()) {
        qsizetype end = pos;
        while (end < chunk.size() && chunk.at(end) != '\n' && chunk.at(end) != '\r')
            ++end;
        if (m_line.size() + (end - pos) > kMaxLineBytes) {
            overflow();
            return out;
        }
        if (end == chunk.size()) {
            m_line.append(chunk.sliced(pos));
            break;
        }
        // A complete line: what was buffered plus this piece.
        if (m_line.isEmpty()) {
            processLine(chunk.sliced(pos, end - pos), &out);
        } else {
            m_line.append(chunk.sliced(pos, end - pos));
            const QByteArray line = std::exchange(m_line, QByteArray());
            processLine(line, &out);
        }
        if (m_overflowed)
            return out;
        if (chunk.at(end) == '\r') {
            if (end + 1 < chunk.size()) {
                if (chunk.at(end + 1) == '\n')
                    ++end;
            } else {
                m_lastWasCr = true;
            }
        }
        pos = end + 1;
    }
    return out;
}

void SseParser::overflow()
{
    m_overflowed = true;
    m_line.clear();
    m_data.clear();
}

void SseParser::resetConnection()
{
    m_overflowed = false;
    m_line.clear();
    m_lastWasCr = false;
    m_bomChecked = false;
    m_data.clear();
    m_type.clear();
    m_eventHasId = false;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> *out)
{
    if (!m_bomChecked) {
        m_bomChecked = true;
        if (line.startsWith("\xEF\xBB\xBF"))
            line = line.sliced(3);
    }
    if (line.isEmpty()) {
        // Dispatch. An event with no data line at all is dropped, as the standard says.
        if (m_data.isEmpty()) {
            m_type.clear();
            m_eventHasId = false;
            return;
        }
        SseEvent event;
        m_data.chop(1); // the LF after the last data line
        event.data = std::exchange(m_data, QByteArray());
        if (!m_type.isEmpty())
            event.type = std::exchange(m_type, QString());
        event.lastEventId = m_lastEventId;
        event.hasId = std::exchange(m_eventHasId, false);
        out->append(event);
        return;
    }
    if (line.startsWith(':')) {
        ++m_comments;
        return;
    }
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);

    if (field == "data") {
        if (m_data.size() + value.size() + 1 > kMaxEventDataBytes)
            return overflow();
        m_data.append(value);
        m_data.append('\n');
    } else if (field == "event") {
        m_type = QString::fromUtf8(value);
    } else if (field == "id") {
        if (!value.contains('\0')) {
            m_lastEventId = value.toByteArray();
            m_eventHasId = true;
        }
    } else if (field == "retry") {
        bool digits = !value.isEmpty();
        for (const char c : value)
            digits = digits && c >= '0' && c <= '9';
        if (digits) {
            bool ok = false;
            const int ms = value.toByteArray().toInt(&ok);
            if (ok)
                m_retryMs = ms;
        }
    }
    // Any other field is ignored.
}

} // namespace cardhour::core
