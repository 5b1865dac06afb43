#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::sim {

// Real NVIDIA GPUs on this host, through nvidia-smi (the NVML command line): what there is, and
// how busy each card is. Containers get cards through the Container Device Interface spec that
// the NVIDIA container toolkit writes (`nvidia.com/gpu=N`), so that is looked for too.
class NvidiaGpus
{
public:
    struct Card
    {
        int index = -1;
        QString name; // "NVIDIA H200"
        QString uuid; // "GPU-…"
        int memoryMib = 0;
        QString busId; // "00000000:19:00.0"
        double powerLimitW = 0; // 0: not reported
    };
    struct Reading
    {
        int index = -1;
        double utilizationPct = 0;
        double memoryUsedMib = 0;
        double temperatureC = 0;
        double powerW = 0; // 0 where the card does not report it ([N/A])
    };
    struct Inventory
    {
        QList<Card> cards;
        QString cdiSpec; // the CDI spec file naming nvidia.com/gpu; empty: none found
        QString problem; // why there are no cards (no nvidia-smi, driver not loaded, ...)
    };

    static QStringList inventoryArgs();
    static QList<Card> parseInventory(const QByteArray &csv);
    static QStringList readingArgs();
    static QList<Reading> parseReadings(const QByteArray &csv);
    // A CDI spec for kind nvidia.com/gpu in these folders (default /etc/cdi, /var/run/cdi).
    static QString findCdiSpec(const QStringList &folders = {});
    // Runs nvidia-smi once (bounded). No GPU is not an error: cards is empty and problem says why.
    static Inventory detect(const QString &nvidiaSmi = QStringLiteral("nvidia-smi"),
                            int timeoutMs = 10000);
    // A catalog id for a card model: "NVIDIA H200" → "h200", "NVIDIA GeForce RTX 4090" → "rtx4090".
    static QString catalogIdFor(const QString &name);
};

} // namespace cardhour::sim
