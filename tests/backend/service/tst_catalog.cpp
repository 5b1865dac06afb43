// The catalog's validation: a bad value stops the provider at load, naming the file and key.
#include "service/Catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using namespace cardhour::sim;
using namespace Qt::StringLiterals;

namespace {
QJsonObject builtIn(const QString &name)
{
    Catalog::load(); // registers the built-in resources
    QFile file(u":/catalog/"_s + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no built-in catalog");
    return QJsonDocument::fromJson(file.readAll()).object();
}

void write(const QString &path, const QJsonObject &document)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.write(QJsonDocument(document).toJson()) > 0);
}
} // namespace

class TestCatalog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void builtInStorage()
    {
        const Catalog catalog = Catalog::load();
        QCOMPARE(catalog.storagePricePerGibHourMicros(), 200);
        QCOMPARE(catalog.gpu(u"rtx4090"_s)->diskGib, 50);
        QCOMPARE(catalog.gpu(u"h100-80g"_s)->diskGib, 200);
        QCOMPARE(catalog.storageRatePerHourMicros(50), 10'000);
        for (const GpuType &gpu : catalog.gpus())
            QVERIFY2(gpu.diskGib > 0, qPrintable(gpu.id));
    }

    // `key` set to `value` (or removed, when `value` is undefined) at the top level (`gpu`
    // empty) or in one GPU type; `error` is what the message must say, empty for a valid one.
    void storageValues_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("error");
        const QString price = u"storage_price_per_gib_hour_micros"_s;
        const QString priceError =
            u"\"storage_price_per_gib_hour_micros\" must be an integer in [0, 10000]"_s;
        const QString diskError = u"\"disk_gib\" of \"l40s\" must be an integer in [1, 65536]"_s;
        QTest::newRow("free storage") << QString() << price << QJsonValue(0) << QString();
        QTest::newRow("dearest storage") << QString() << price << QJsonValue(10'000) << QString();
        QTest::newRow("no storage price")
            << QString() << price << QJsonValue(QJsonValue::Undefined) << priceError;
        QTest::newRow("negative price") << QString() << price << QJsonValue(-1) << priceError;
        QTest::newRow("fractional price") << QString() << price << QJsonValue(0.5) << priceError;
        QTest::newRow("price as text") << QString() << price << QJsonValue(u"200"_s) << priceError;
        QTest::newRow("price too high") << QString() << price << QJsonValue(10'001) << priceError;
        QTest::newRow("absurd price") << QString() << price << QJsonValue(1e300) << priceError;
        QTest::newRow("smallest disk") << u"l40s"_s << u"disk_gib"_s << QJsonValue(1) << QString();
        QTest::newRow("no disk") << u"l40s"_s << u"disk_gib"_s << QJsonValue(QJsonValue::Undefined)
                                 << diskError;
        QTest::newRow("zero disk") << u"l40s"_s << u"disk_gib"_s << QJsonValue(0) << diskError;
        QTest::newRow("disk too large")
            << u"l40s"_s << u"disk_gib"_s << QJsonValue(65'537) << diskError;
        QTest::newRow("disk as null")
            << u"l40s"_s << u"disk_gib"_s << QJsonValue(QJsonValue::Null) << diskError;
    }
    void storageValues()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, error);
        QJsonObject gpus = builtIn(u"gpus.json"_s);
        const auto set = [&](QJsonObject &o) {
            if (value.isUndefined())
                o.remove(key);
            else
                o.insert(key, value);
        };
        if (gpu.isEmpty()) {
            set(gpus);
        } else {
            QJsonArray list = gpus.value(u"gpus"_s).toArray();
            for (qsizetype i = 0; i < list.size(); ++i) {
                QJsonObject o = list.at(i).toObject();
                if (o.value(u"id"_s).toString() == gpu) {
                    set(o);
                    list.replace(i, o);
                }
            }
            gpus.insert(u"gpus"_s, list);
        }
        QTemporaryDir dir;
        write(dir.filePath(u"gpus.json"_s), gpus);
        write(dir.filePath(u"images.json"_s), builtIn(u"images.json"_s));
        try {
            const Catalog catalog = Catalog::load(dir.path());
            QVERIFY2(error.isEmpty(), qPrintable(u"loaded, expected: "_s + error));
            if (gpu.isEmpty())
                QCOMPARE(catalog.storagePricePerGibHourMicros(), value.toInteger());
            else
                QCOMPARE(catalog.gpu(gpu)->diskGib, value.toInteger());
        } catch (const std::runtime_error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(!error.isEmpty(), qPrintable(message));
            QVERIFY2(message.contains(error), qPrintable(message));
            QVERIFY2(message.contains(u"gpus.json"_s), qPrintable(message));
        }
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
