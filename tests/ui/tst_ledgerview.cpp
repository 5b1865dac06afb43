// The ledger view over a known ledger: filters (kind, instance, text, date range) through the
// real widgets, sorting by a header click, the CSV export exactly (quoting, formula guard, exact
// yuan from micro-yuan) through the real file dialog, and the spend per hour/day. Saves
// <build>/screenshots/ledger.png.
#include "LedgerModel.h"
#include "LedgerView.h"
#include "SpendChart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::core::Posting;

namespace {

QDateTime utc(const QString &iso)
{
    return QDateTime::fromString(iso, Qt::ISODateWithMs).toUTC();
}

Posting posting(qint64 seq, const QString &kind, qint64 amount, qint64 after, const QString &at,
                const QString &description, const QString &instance = {},
                const QString &periodEnd = {})
{
    Posting p;
    p.seq = seq;
    p.id = u"p-%1"_s.arg(seq);
    p.kind = kind;
    p.amountMicros = amount;
    p.balanceAfterMicros = after;
    p.createdAt = utc(at);
    p.description = description;
    p.instanceId = instance;
    if (!periodEnd.isEmpty())
        p.periodEnd = utc(periodEnd);
    return p;
}

// Newest first, as the provider sends it.
QList<Posting> knownLedger()
{
    return {
        posting(5, u"storage"_s, -10'000, 11'487'417, u"2026-11-30T11:30:00.250Z"_s,
                u"Storage for \"eval, big\"\nwhile stopped"_s, u"i-2"_s,
                u"2026-11-30T11:30:00.000Z"_s),
        posting(4, u"compute"_s, -1'001'000, 11'497'417, u"2026-11-30T11:00:00.000Z"_s,
                u"=cmd|' /C calc'!A0"_s, u"i-2"_s, u"2026-11-30T10:59:59.000Z"_s),
        posting(3, u"topup"_s, 2'500'000, 12'498'417, u"2026-11-30T08:00:00.000Z"_s,
                u"Sandbox top-up (simulated payment)"_s),
        posting(2, u"compute"_s, -1'583, 9'998'417, u"2026-11-29T10:15:00.100Z"_s,
                u"Compute: 1x RTX 4090"_s, u"i-1"_s, u"2026-11-29T10:15:00.000Z"_s),
        posting(1, u"trial_credit"_s, 10'000'000, 10'000'000, u"2026-11-29T09:00:00.000Z"_s,
                u"Trial credit"_s),
    };
}

const QString kHeader = u"seq,time_utc,kind,instance_id,instance_name,description,amount_yuan,"
                        "balance_after_yuan\r\n"_s;
const QString kRow5 = u"5,2026-11-30T11:30:00.250Z,storage,i-2,\"eval, big\",\"Storage for "
                      "\"\"eval, big\"\"\nwhile stopped\",-0.010000,11.487417\r\n"_s;
const QString kRow4 =
    u"4,2026-11-30T11:00:00.000Z,compute,i-2,\"eval, big\",'=cmd|' /C calc'!A0,-1.001000,11.497417\r\n"_s;
const QString kRow3 = u"3,2026-11-30T08:00:00.000Z,topup,,,Sandbox top-up (simulated payment),"
                      "2.500000,12.498417\r\n"_s;
const QString kRow2 =
    u"2,2026-11-29T10:15:00.100Z,compute,i-1,train-1,Compute: 1x RTX 4090,-0.001583,9.998417\r\n"_s;
const QString kRow1 =
    u"1,2026-11-29T09:00:00.000Z,trial_credit,,,Trial credit,10.000000,10.000000\r\n"_s;

QList<qint64> seqsShown(const ui::LedgerView &view)
{
    QList<qint64> seqs;
    const QAbstractItemModel *model = view.filter();
    for (int row = 0; row < model->rowCount(); ++row)
        seqs.append(model->index(row, ui::LedgerModel::TimeColumn)
                        .data(ui::LedgerModel::SortRole)
                        .toLongLong());
    return seqs;
}

} // namespace

class TestLedgerView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plainYuan_data();
    void plainYuan();
    void csvField_data();
    void csvField();
    void filters();
    void sortsByHeader();
    void exportsCsvThroughTheDialog();
    void exportFailureIsReported();
    void spendPerHourAndDay();

private:
    void setUp(ui::LedgerView &view);
};

void TestLedgerView::plainYuan_data()
{
    QTest::addColumn<qint64>("micros");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64(0) << u"0.000000"_s;
    QTest::newRow("one micro") << qint64(1) << u"0.000001"_s;
    QTest::newRow("minus one micro") << qint64(-1) << u"-0.000001"_s;
    QTest::newRow("rate") << qint64(1'900'000) << u"1.900000"_s;
    QTest::newRow("large") << qint64(1'000'000'000'000) << u"1000000.000000"_s;
    QTest::newRow("lowest") << std::numeric_limits<qint64>::min() << u"-9223372036854.775808"_s;
}

void TestLedgerView::plainYuan()
{
    QFETCH(qint64, micros);
    QFETCH(QString, text);
    QCOMPARE(ui::ledger::plainYuan(micros), text);
}

void TestLedgerView::csvField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("field");
    QTest::newRow("plain") << u"abc"_s << u"abc"_s;
    QTest::newRow("comma") << u"a,b"_s << u"\"a,b\""_s;
    QTest::newRow("quote") << u"say \"hi\""_s << u"\"say \"\"hi\"\"\""_s;
    QTest::newRow("newline") << u"a\nb"_s << u"\"a\nb\""_s;
    QTest::newRow("cr") << u"a\rb"_s << u"\"a\rb\""_s;
    QTest::newRow("formula") << u"=1+1"_s << u"'=1+1"_s;
    QTest::newRow("formula with comma") << u"@SUM(A1,A2)"_s << u"\"'@SUM(A1,A2)\""_s;
    QTest::newRow("leading tab") << u"\t=1+1"_s << u"'\t=1+1"_s;
    QTest::newRow("leading cr") << u"\r=1+1"_s << u"\"'\r=1+1\""_s;
    QTest::newRow("minus") << u"-2+3"_s << u"'-2+3"_s;
    QTest::newRow("chinese") << u"存储费"_s << u"存储费"_s;
    QTest::newRow("empty") << QString() << QString();
}

void TestLedgerView::csvField()
{
    QFETCH(QString, text);
    QFETCH(QString, field);
    QCOMPARE(ui::ledger::csvField(text), field);
}

void TestLedgerView::setUp(ui::LedgerView &view)
{
    view.setTimeZone(QTimeZone::utc());
    view.setInstanceNames({{u"i-1"_s, u"train-1"_s}, {u"i-2"_s, u"eval, big"_s}});
    view.setPostings(knownLedger());
    view.resize(1000, 640);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
}

void TestLedgerView::filters()
{
    ui::LedgerView view(nullptr);
    setUp(view);
    auto *count = view.findChild<QLabel *>(u"ledgerCount"_s);
    QCOMPARE(seqsShown(view), (QList<qint64>{5, 4, 3, 2, 1}));
    QCOMPARE(count->text(), u"Postings: 5"_s);

    auto *kind = view.findChild<QComboBox *>(u"ledgerKindFilter"_s);
    kind->setCurrentIndex(kind->findData(u"compute"_s));
    QCOMPARE(seqsShown(view), (QList<qint64>{4, 2}));
    QCOMPARE(count->text(), u"Postings: 2 of 5 shown"_s);
    kind->setCurrentIndex(0);

    auto *instance = view.findChild<QComboBox *>(u"ledgerInstanceFilter"_s);
    QCOMPARE(instance->count(), 3); // all + the two instances, by name
    QCOMPARE(instance->itemText(1), u"eval, big"_s); // by name
    QCOMPARE(instance->itemText(2), u"train-1"_s);
    instance->setCurrentIndex(instance->findData(u"i-2"_s));
    QCOMPARE(seqsShown(view), (QList<qint64>{5, 4}));
    instance->setCurrentIndex(0);

    auto *search = view.findChild<QLineEdit *>(u"ledgerSearch"_s);
    QTest::keyClicks(search, u"TOP-UP"_s);
    QCOMPARE(seqsShown(view), (QList<qint64>{3}));
    search->clear();
    QTest::keyClicks(search, u"train"_s); // an instance's name
    QCOMPARE(seqsShown(view), (QList<qint64>{2}));
    search->clear();

    auto *fromCheck = view.findChild<QCheckBox *>(u"ledgerFromCheck"_s);
    auto *from = view.findChild<QDateEdit *>(u"ledgerFrom"_s);
    auto *toCheck = view.findChild<QCheckBox *>(u"ledgerToCheck"_s);
    auto *to = view.findChild<QDateEdit *>(u"ledgerTo"_s);
    QVERIFY(!from->isEnabled());
    from->setDate(QDate(2026, 11, 30));
    QCOMPARE(seqsShown(view).size(), 5); // not applied until checked
    QTest::mouseClick(fromCheck, Qt::LeftButton);
    QVERIFY(from->isEnabled());
    QCOMPARE(seqsShown(view), (QList<qint64>{5, 4, 3}));
    from->setDate(QDate(2026, 11, 29));
    to->setDate(QDate(2026, 11, 29));
    QTest::mouseClick(toCheck, Qt::LeftButton);
    QCOMPARE(seqsShown(view), (QList<qint64>{2, 1}));
    // Filters combine.
    kind->setCurrentIndex(kind->findData(u"trial_credit"_s));
    QCOMPARE(seqsShown(view), (QList<qint64>{1}));
    kind->setCurrentIndex(kind->findData(u"storage"_s));
    QCOMPARE(seqsShown(view), (QList<qint64>{}));
    QVERIFY(!view.findChild<QPushButton *>(u"ledgerExportButton"_s)->isEnabled());
}

void TestLedgerView::sortsByHeader()
{
    ui::LedgerView view(nullptr);
    setUp(view);
    auto *table = view.findChild<QTableView *>(u"ledgerTable"_s);
    QHeaderView *header = table->horizontalHeader();
    const int x = header->sectionViewportPosition(ui::LedgerModel::AmountColumn)
        + header->sectionSize(ui::LedgerModel::AmountColumn) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(header->sortIndicatorSection(), int(ui::LedgerModel::AmountColumn));
    // Sorted by the amount in micro-yuan, not by its text ("−¥1.001…" < "−¥0.01…" as text).
    const QList<qint64> ascending{4, 5, 2, 3, 1};
    QList<qint64> expected = ascending;
    if (header->sortIndicatorOrder() == Qt::DescendingOrder)
        std::reverse(expected.begin(), expected.end());
    QCOMPARE(seqsShown(view), expected);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    std::reverse(expected.begin(), expected.end());
    QCOMPARE(seqsShown(view), expected);

    table->sortByColumn(ui::LedgerModel::InstanceColumn, Qt::AscendingOrder);
    // No instance first, then "eval, big", then "train-1".
    const QList<qint64> byInstance = seqsShown(view);
    QCOMPARE(QSet<qint64>(byInstance.begin(), byInstance.begin() + 2), (QSet<qint64>{1, 3}));
    QCOMPARE(QSet<qint64>(byInstance.begin() + 2, byInstance.begin() + 4), (QSet<qint64>{4, 5}));
    QCOMPARE(byInstance.last(), qint64(2));
}

void TestLedgerView::exportsCsvThroughTheDialog()
{
    ui::LedgerView view(nullptr);
    setUp(view);
    QCOMPARE(view.csv(), kHeader + kRow5 + kRow4 + kRow3 + kRow2 + kRow1);

    auto *instance = view.findChild<QComboBox *>(u"ledgerInstanceFilter"_s);
    instance->setCurrentIndex(instance->findData(u"i-2"_s));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"ledger.csv"_s);
    QTest::mouseClick(view.findChild<QPushButton *>(u"ledgerExportButton"_s), Qt::LeftButton);
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = view.findChild<QFileDialog *>(u"ledgerExportDialog"_s)));
    dialog->selectFile(path);
    static_cast<QDialog *>(dialog)->accept(); // as the Save button does
    QFile file(path);
    QTRY_VERIFY(file.exists());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), kHeader + kRow5 + kRow4);
    QVERIFY(view.findChild<QLabel *>(u"ledgerCount"_s)->text().endsWith(u"(rows: 2)."_s));

    // Oldest first, as the table shows it after sorting by time.
    instance->setCurrentIndex(0);
    view.findChild<QTableView *>(u"ledgerTable"_s)
        ->sortByColumn(ui::LedgerModel::TimeColumn, Qt::AscendingOrder);
    QCOMPARE(view.csv(), kHeader + kRow1 + kRow2 + kRow3 + kRow4 + kRow5);

    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY(view.grab().save(QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/ledger.png"_s));
}

void TestLedgerView::exportFailureIsReported()
{
    ui::LedgerView view(nullptr);
    setUp(view);
    QTemporaryDir dir;
    QString error;
    QVERIFY(!view.exportCsv(dir.filePath(u"no/such/folder/ledger.csv"_s), &error));
    QVERIFY(!error.isEmpty());
}

void TestLedgerView::spendPerHourAndDay()
{
    const QList<ui::ledger::SpendBucket> hours =
        ui::ledger::spendBuckets(knownLedger(), ui::ledger::Bucket::Hour, QTimeZone::utc());
    // 2026-11-29 10:00 to 2026-11-30 11:00, every hour, empty ones included.
    QCOMPARE(hours.size(), 26);
    QCOMPARE(hours.first().start, utc(u"2026-11-29T10:00:00Z"_s));
    QCOMPARE(hours.first().micros, qint64(1'583));
    QCOMPARE(hours.at(1).micros, qint64(0));
    QCOMPARE(hours.at(24).start, utc(u"2026-11-30T10:00:00Z"_s));
    QCOMPARE(hours.at(24).micros, qint64(1'001'000)); // its period ended at 10:59:59
    QCOMPARE(hours.last().micros, qint64(10'000));
    const QList<ui::ledger::SpendBucket> days =
        ui::ledger::spendBuckets(knownLedger(), ui::ledger::Bucket::Day, QTimeZone::utc());
    QCOMPARE(days.size(), 2);
    QCOMPARE(days.at(0).micros, qint64(1'583));
    QCOMPARE(days.at(1).micros, qint64(1'011'000));

    ui::LedgerView view(nullptr);
    setUp(view);
    ui::SpendChart *chart = view.spendChart();
    QCOMPARE(chart->shownBuckets().size(), 26);
    auto *bucket = chart->findChild<QComboBox *>(u"spendBucket"_s);
    bucket->setCurrentIndex(bucket->findData(int(ui::ledger::Bucket::Day)));
    QCOMPARE(chart->shownBuckets().size(), 2);
    QCOMPARE(chart->findChild<QLabel *>(u"spendTotal"_s)->text(),
             u"Spent in the periods shown: ¥1.01"_s);
}

QTEST_MAIN(TestLedgerView)
#include "tst_ledgerview.moc"
