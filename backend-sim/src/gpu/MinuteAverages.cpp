#include "MinuteAverages.h"

#include "store/Database.h"
#include "store/RawStatement.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSqlQuery>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// As QJsonDocument writes a number (a float widened to double, shortest form; JSON has no
// infinity), without building a document per instance.
void appendNumber(QByteArray &json, float value)
{
    if (std::isfinite(value))
        json += QByteArray::number(double(value), 'g', QLocale::FloatingPointShortest);
    else
        json += "null";
}
} // namespace

MinuteAverages::MinuteAverages(Database &db) : m_db(db) {}

MinuteAverages::~MinuteAverages() = default;

QByteArray MinuteAverages::cardsJson(const QList<TelemetryCardSample> &cards)
{
    QByteArray json;
    json.reserve(2 + cards.size() * 24);
    json += '[';
    for (qsizetype i = 0; i < cards.size(); ++i) {
        const TelemetryCardSample &card = cards.at(i);
        json += i == 0 ? "[" : ",[";
        appendNumber(json, card.utilizationPct);
        json += ',';
        appendNumber(json, card.memoryUsedMib);
        json += ',';
        appendNumber(json, card.temperatureC);
        json += ',';
        appendNumber(json, card.powerW);
        json += ']';
    }
    json += ']';
    return json;
}

void MinuteAverages::add(const QString &instanceId, const TelemetrySample &average)
{
    m_queued.append({instanceId, average.atMs, average.cpuPercent, average.memoryMib,
                     cardsJson(average.cards)});
}

void MinuteAverages::write()
{
    if (m_queued.isEmpty())
        return;
    const QList<Row> rows = std::exchange(m_queued, {});
    if (!m_insert)
        m_insert = std::make_unique<RawChunkedStatement>(m_db, [](int count) {
            return u"INSERT INTO telemetry_minutes (instance_id, minute_ms, cpu_percent,"
                   " memory_mib, gpus) VALUES "_s
                + Database::placeholderRows(count, 5)
                + u" ON CONFLICT (instance_id, minute_ms) DO UPDATE SET"
                  " cpu_percent = excluded.cpu_percent, memory_mib = excluded.memory_mib,"
                  " gpus = excluded.gpus"_s;
        });
    Database::inChunks(rows.size(), [&](qsizetype first, int count) {
        RawStatement &insert = m_insert->forRows(count);
        try {
            for (int r = 0; r < count; ++r) {
                const Row &row = rows.at(first + r);
                const int at = r * 5;
                insert.bind(at + 1, row.instanceId);
                insert.bind(at + 2, row.minuteMs);
                if (row.cpuPercent >= 0)
                    insert.bindReal(at + 3, double(row.cpuPercent));
                else
                    insert.bindNull(at + 3);
                if (row.memoryMib >= 0)
                    insert.bindReal(at + 4, double(row.memoryMib));
                else
                    insert.bindNull(at + 4);
                insert.bind(at + 5, QString::fromLatin1(row.gpus));
            }
            insert.run();
        } catch (const std::exception &error) {
            qWarning("telemetry: could not keep %d minute averages (from %s on): %s", count,
                     qPrintable(rows.at(first).instanceId), error.what());
        }
    });
}

void MinuteAverages::dropBefore(qint64 beforeMs)
{
    try {
        m_db.write(u"DELETE FROM telemetry_minutes WHERE minute_ms < ?"_s, {beforeMs});
    } catch (const std::exception &error) {
        qWarning("telemetry: could not drop old minutes: %s", error.what());
    }
}

QList<TelemetrySample> MinuteAverages::read(const QString &instanceId, qint64 sinceMs,
                                            qint64 untilMs) const
{
    QList<TelemetrySample> out;
    QSqlQuery q = m_db.exec(
        u"SELECT minute_ms, cpu_percent, memory_mib, gpus FROM telemetry_minutes"
        " WHERE instance_id = ? AND minute_ms >= ? AND minute_ms < ? ORDER BY minute_ms"_s,
        {instanceId, sinceMs - sinceMs % 60000, untilMs});
    while (q.next()) {
        TelemetrySample sample;
        sample.atMs = q.value(0).toLongLong();
        sample.cpuPercent = q.value(1).isNull() ? -1.0f : q.value(1).toFloat();
        sample.memoryMib = q.value(2).isNull() ? -1.0f : q.value(2).toFloat();
        const QJsonArray gpus = QJsonDocument::fromJson(q.value(3).toString().toUtf8()).array();
        for (const QJsonValue &g : gpus) {
            const QJsonArray v = g.toArray();
            sample.cards.append(
                TelemetryCardSample{float(v.at(0).toDouble()), float(v.at(1).toDouble()),
                                    float(v.at(2).toDouble()), float(v.at(3).toDouble())});
        }
        out.append(sample);
    }
    return out;
}

} // namespace cardhour::sim
