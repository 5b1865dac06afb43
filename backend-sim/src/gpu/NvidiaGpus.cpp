#include "NvidiaGpus.h"

#include "runtime/Process.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// nvidia-smi prints "[N/A]" or "[Not Supported]" for what a card does not report.
double number(const QString &field)
{
    bool ok = false;
    const double value = field.trimmed().toDouble(&ok);
    return ok ? value : 0.0;
}

QList<QStringList> csvRows(const QByteArray &csv, int columns)
{
    QList<QStringList> rows;
    const QList<QByteArray> lines = csv.split('\n');
    for (const QByteArray &line : lines) {
        const QString text = QString::fromUtf8(line).trimmed();
        if (text.isEmpty())
            continue;
        QStringList fields = text.split(u',');
        if (fields.size() != columns)
            continue; // a warning line, or a name with a comma we cannot split safely
        for (QString &f : fields)
            f = f.trimmed();
        rows.append(fields);
    }
    return rows;
}

} // namespace

QStringList NvidiaGpus::inventoryArgs()
{
    return {u"--query-gpu=index,name,uuid,memory.total,pci.bus_id,power.limit"_s,
            u"--format=csv,noheader,nounits"_s};
}

QList<NvidiaGpus::Card> NvidiaGpus::parseInventory(const QByteArray &csv)
{
    QList<Card> cards;
    // With the power limit (as inventoryArgs asks) or without it (older callers' output).
    QList<QStringList> rows = csvRows(csv, 6);
    if (rows.isEmpty())
        rows = csvRows(csv, 5);
    for (const QStringList &f : rows) {
        bool ok = false;
        Card card;
        card.index = f.at(0).toInt(&ok);
        if (!ok || card.index < 0 || f.at(1).isEmpty())
            continue;
        card.name = f.at(1);
        card.uuid = f.at(2);
        card.memoryMib = int(number(f.at(3)));
        card.busId = f.at(4);
        card.powerLimitW = f.size() > 5 ? number(f.at(5)) : 0;
        cards.append(card);
    }
    return cards;
}

QStringList NvidiaGpus::readingArgs()
{
    return {u"--query-gpu=index,utilization.gpu,memory.used,temperature.gpu,power.draw"_s,
            u"--format=csv,noheader,nounits"_s};
}

QList<NvidiaGpus::Reading> NvidiaGpus::parseReadings(const QByteArray &csv)
{
    QList<Reading> readings;
    const QList<QStringList> rows = csvRows(csv, 5);
    for (const QStringList &f : rows) {
        bool ok = false;
        Reading r;
        r.index = f.at(0).toInt(&ok);
        if (!ok || r.index < 0)
            continue;
        r.utilizationPct = number(f.at(1));
        r.memoryUsedMib = number(f.at(2));
        r.temperatureC = number(f.at(3));
        r.powerW = number(f.at(4));
        readings.append(r);
    }
    return readings;
}

QString NvidiaGpus::findCdiSpec(const QStringList &folders)
{
    const QStringList dirs =
        folders.isEmpty() ? QStringList{u"/etc/cdi"_s, u"/var/run/cdi"_s} : folders;
    static const QRegularExpression kind(uR"(kind:\s*"?nvidia\.com/gpu"?)"_s);
    for (const QString &dir : dirs) {
        const QStringList files = QDir(dir).entryList({u"*.yaml"_s, u"*.yml"_s, u"*.json"_s},
                                                      QDir::Files | QDir::Readable, QDir::Name);
        for (const QString &name : files) {
            QFile file(QDir(dir).filePath(name));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QString text = QString::fromUtf8(file.read(1 << 20));
            if (kind.match(text).hasMatch() || text.contains(u"\"kind\":\"nvidia.com/gpu\""_s))
                return file.fileName();
        }
    }
    return {};
}

NvidiaGpus::Inventory NvidiaGpus::detect(const QString &nvidiaSmi, int timeoutMs)
{
    Inventory inventory;
    Process::Options options;
    options.timeoutMs = timeoutMs;
    const ProcessResult run = Process::run(nvidiaSmi, inventoryArgs(), options);
    if (!run.started) {
        // No driver tools is the usual case on a machine without NVIDIA cards, not a fault.
        inventory.problem = u"this machine has no NVIDIA GPU (no nvidia-smi to ask)"_s;
        return inventory;
    }
    if (run.timedOut) {
        inventory.problem = u"nvidia-smi did not answer within %1 s"_s.arg(timeoutMs / 1000);
        return inventory;
    }
    if (!run.ok()) {
        inventory.problem = u"nvidia-smi failed (exit %1): %2"_s.arg(run.exitCode)
                                .arg(QString::fromUtf8(run.out + run.err).simplified().left(300));
        return inventory;
    }
    inventory.cards = parseInventory(run.out);
    if (inventory.cards.isEmpty())
        inventory.problem = u"nvidia-smi lists no GPU"_s;
    inventory.cdiSpec = findCdiSpec();
    return inventory;
}

QString NvidiaGpus::catalogIdFor(const QString &name)
{
    QString id = name.toLower();
    for (const QString &noise : {u"nvidia"_s, u"geforce"_s, u"tesla"_s})
        id.remove(noise);
    id.replace(QRegularExpression(u"[^a-z0-9]+"_s), u"-"_s);
    while (id.startsWith(u'-'))
        id.remove(0, 1);
    while (id.endsWith(u'-'))
        id.chop(1);
    // "rtx-4090" → "rtx4090", as the catalog names consumer cards.
    id.replace(QRegularExpression(u"^rtx-"_s), u"rtx"_s);
    return id.isEmpty() ? u"nvidia-gpu"_s : id;
}

} // namespace cardhour::sim
