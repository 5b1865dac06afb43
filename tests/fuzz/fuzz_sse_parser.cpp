// Fuzz target for the client's SseParser (core/api): the input is fed whole and again in
// two chunks split where its first byte says; both must give the same events, since a
// network read may end anywhere. Each event's data also goes through the model parsers the
// EventStream uses, which must take any JSON (or none) without crashing.
#include "api/Models.h"
#include "api/SseParser.h"

#include <QByteArray>
#include <QJsonDocument>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using cardhour::core::BillingSummary;
using cardhour::core::Instance;
using cardhour::core::SseEvent;
using cardhour::core::SseParser;

namespace {

bool same(const QList<SseEvent> &a, const QList<SseEvent> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].type != b[i].type || a[i].data != b[i].data || a[i].lastEventId != b[i].lastEventId
            || a[i].hasId != b[i].hasId)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    SseParser whole;
    const QList<SseEvent> events = whole.feed(input);

    const qsizetype split =
        input.isEmpty() ? 0 : qsizetype(uint8_t(input.at(0))) % (input.size() + 1);
    SseParser chunked;
    QList<SseEvent> again = chunked.feed(QByteArrayView(input).first(split));
    again += chunked.feed(QByteArrayView(input).sliced(split));
    if (!same(events, again) || whole.lastEventId() != chunked.lastEventId()
        || whole.retryMs() != chunked.retryMs())
        std::abort();

    for (const SseEvent &event : events) {
        const QJsonObject object = QJsonDocument::fromJson(event.data).object();
        (void)Instance::fromJson(object);
        (void)BillingSummary::fromJson(object);
    }
    return 0;
}
