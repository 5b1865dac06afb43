// The Billing page against a real cardhour-sim (test clock, in-process runtime): a host that
// runs, stops and is terminated, a kept snapshot and a top-up give the ledger every kind of
// posting; the month's statement on screen, in CSV and in the PDF (read back with pdftotext) has
// the ledger's totals to the micro-yuan, in the provider's zone, its snapshot by name (the PDF's
// layout on its own: tst_statementpdf); the cost comparison gives the brief's 3,009.60 yuan and
// the real usage of the ledger; bad figures are named and kept; the figures are remembered.
// Every tab is photographed in light and dark, English and Chinese.
#include "AppSettings.h"
#include "CoreTestSupport.h"
#include "CostCalculator.h"
#include "Format.h"
#include "InstanceTableModel.h"
#include "LedgerModel.h"
#include "LedgerView.h"
#include "PdfText.h"
#include "SimProcess.h"
#include "SpendingLimitsPanel.h"
#include "StatementPanel.h"
#include "StatementPdf.h"
#include "StopText.h"
#include "Translations.h"
#include "api/ProviderClient.h"
#include "billing/Money.h"
#include "charts/CostChart.h"
#include "pages/BillingPage.h"
#include "pages/HostCard.h"
#include "session/ClientSession.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::amountAfter;
using cardhour::test::await;
using cardhour::test::pdfText;
using cardhour::test::SimProcess;

namespace {

struct Expected
{
    qint64 compute = 0;
    qint64 storage = 0;
    qint64 snapshots = 0;
    qint64 credits = 0;
    qint64 opening = 0;
    qint64 closing = 0;
    int postings = 0;
};

} // namespace

class TestBillingPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void statementEqualsTheLedger();
    void costComparison();
    void badFiguresAreNamedAndKept();
    void spendingLimits();
    void figuresAreRemembered();
    void plannedStopOnTheHostCard();
    void everyTabInEveryThemeAndLanguage();

private:
    Expected expectedFor(const core::Statement &statement);
    void shoot(QWidget *widget, const QString &name);

    SimProcess m_sim;
    core::ClientSession m_session{core::ClientSession::Options{}};
    core::ProviderClient &m_client = *m_session.client(); // set up by the test
    QString m_instanceId;
    QString m_snapshotId;
    QTemporaryDir m_scratch;
};

void TestBillingPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_billingpage"_s);
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY(m_scratch.isValid());
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    // Connected as the window connects: the provider's /v1/health gives its time zone.
    QSignalSpy asked(&m_session, &core::ClientSession::loginNeeded);
    m_session.connectToUrl(m_sim.baseUrl());
    QTRY_VERIFY_WITH_TIMEOUT(asked.count() > 0, 20000);
    QCOMPARE(m_session.timeZone(), QTimeZone("Asia/Shanghai"));
    const auto session = await(m_client.signUp(u"bill@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    m_client.setToken(session.value->token);
    QVERIFY(await(m_client.topUp(100'000'000)).ok);

    // A run of two cards, a kept snapshot, storage while stopped: every kind of charge.
    const auto created = await(m_client.createInstance(
        core::NewInstance{u"train"_s, u"rtx4090"_s, 2, u"base"_s, {}, {}, {}}));
    QVERIFY2(created.ok, created.why());
    m_instanceId = created.value->id;
    QVERIFY(test::awaitState(m_client, m_instanceId, core::InstanceState::Running));
    const auto snapshot = await(m_client.createSnapshot(m_instanceId, u"ckpt"_s));
    QVERIFY2(snapshot.ok, snapshot.why());
    m_snapshotId = snapshot.value->id;
    QTRY_VERIFY(await(m_client.snapshot(snapshot.value->id)).value->state != u"creating"_s);
    QVERIFY(m_sim.advance(3600));
    QVERIFY(await(m_client.stopInstance(m_instanceId)).ok);
    QVERIFY(test::awaitState(m_client, m_instanceId, core::InstanceState::Stopped));
    QVERIFY(m_sim.advance(7200));
    QVERIFY(await(m_client.terminateInstance(m_instanceId)).ok);
    QVERIFY(await(m_client.deleteSnapshot(snapshot.value->id)).ok);
    // Wait for the storage and the snapshot fee to be posted.
    const auto bothPosted = [this] {
        const auto page = await(m_client.ledger(500));
        if (!page.ok)
            return false;
        bool storage = false;
        bool snapshotFee = false;
        for (const core::Posting &p : page.value->postings) {
            storage |= core::Statement::categoryOf(p) == core::StatementCategory::Storage;
            snapshotFee |= core::Statement::categoryOf(p) == core::StatementCategory::Snapshots;
        }
        return storage && snapshotFee;
    };
    QTRY_VERIFY_WITH_TIMEOUT(bothPosted(), 15000);
}

void TestBillingPage::cleanupTestCase()
{
    m_sim.kill();
    QSettings().clear();
}

void TestBillingPage::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

// The month's totals straight from the provider's JSON, not through the client's models.
Expected TestBillingPage::expectedFor(const core::Statement &statement)
{
    Expected e;
    const auto reply = m_sim.authedGet(m_client.token(), u"/v1/billing/ledger?limit=500"_s);
    const QJsonArray postings = reply.value(u"postings"_s).toArray();
    qint64 lastSeqBefore = -1;
    qint64 lastSeqIn = -1;
    for (const QJsonValue &v : postings) {
        const QJsonObject p = v.toObject();
        const QDateTime at =
            QDateTime::fromString(p.value(u"created_at"_s).toString(), Qt::ISODateWithMs);
        const qint64 seq = p.value(u"seq"_s).toInteger();
        const qint64 amount = p.value(u"amount_micros"_s).toInteger();
        const qint64 after = p.value(u"balance_after_micros"_s).toInteger();
        if (at < statement.start) {
            if (seq > lastSeqBefore) {
                lastSeqBefore = seq;
                e.opening = after;
            }
            continue;
        }
        if (at >= statement.end)
            continue;
        ++e.postings;
        if (seq > lastSeqIn) {
            lastSeqIn = seq;
            e.closing = after;
        }
        const QString kind = p.value(u"kind"_s).toString();
        if (kind == u"compute"_s)
            e.compute -= amount;
        else if (kind == u"storage"_s && !p.value(u"snapshot_id"_s).toString().isEmpty())
            e.snapshots -= amount;
        else if (kind == u"storage"_s)
            e.storage -= amount;
        else
            e.credits += amount;
    }
    return e;
}

void TestBillingPage::statementEqualsTheLedger()
{
    ui::BillingPage page(&m_session, ui::AppSettings{});
    page.resize(1000, 640);
    page.show();
    page.ledger()->setInstanceNames({{m_instanceId, u"train"_s}});
    page.ledger()->reload(); // not the limits: the zone is the one /v1/health states
    QTRY_VERIFY(!page.ledger()->isLoading() && page.ledger()->model()->rowCount() >= 5);
    page.tabs()->setCurrentWidget(page.statements());

    ui::StatementPanel *panel = page.statements();
    const QTimeZone shanghai("Asia/Shanghai");
    const QDate newest =
        page.ledger()->model()->postings().first().createdAt.toTimeZone(shanghai).date();
    panel->setMonth(newest.year() * 100 + newest.month());
    const core::Statement &s = panel->statement();
    QCOMPARE(s.zone, shanghai);
    QVERIFY(panel->findChild<QLabel *>(u"statementZone"_s)->text().contains(u"Asia/Shanghai"_s));
    // The ledger beside it tells time in the same zone (it once showed UTC).
    const core::Posting &first = page.ledger()->model()->postings().first();
    QCOMPARE(page.ledger()->model()->index(0, ui::LedgerModel::TimeColumn).data().toString(),
             first.createdAt.toTimeZone(shanghai).toString(u"yyyy-MM-dd HH:mm:ss"_s));
    const Expected e = expectedFor(s);
    QVERIFY(e.compute > 0 && e.storage > 0 && e.snapshots > 0 && e.credits > 0);
    QCOMPARE(s.computeMicros, e.compute);
    QCOMPARE(s.storageMicros, e.storage);
    QCOMPARE(s.snapshotMicros, e.snapshots);
    QCOMPARE(s.creditMicros, e.credits);
    QCOMPARE(s.openingBalanceMicros, e.opening);
    QCOMPARE(s.closingBalanceMicros, e.closing);
    QCOMPARE(s.postings.size(), e.postings);
    QCOMPARE(s.expectedClosingMicros(), s.closingBalanceMicros);
    QCOMPARE(s.hosts.size(), 1);
    QCOMPARE(s.hosts.first().totalMicros(), e.compute + e.storage + e.snapshots);
    // The snapshot's fees by its id (the ledger's snapshot_id), not by their words.
    QCOMPARE(s.snapshots.size(), 1);
    QCOMPARE(s.snapshots.first().snapshotId, m_snapshotId);
    QCOMPARE(s.snapshots.first().instanceId, m_instanceId);
    QCOMPARE(s.snapshots.first().micros, e.snapshots);
    QCOMPARE(panel->findChild<QTableWidget *>(u"statementSnapshots"_s)->rowCount(), 1);
    QCOMPARE(panel->findChild<QTableWidget *>(u"statementPostings"_s)->rowCount(), e.postings);
    shoot(&page, u"billing-statement"_s);

    // CSV: the same integers, in exact yuan.
    const QString csvPath = m_scratch.filePath(u"statement.csv"_s);
    QString error;
    QVERIFY2(panel->exportCsv(csvPath, &error), qPrintable(error));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QString csvText = QString::fromUtf8(csv.readAll());
    auto csvValue = [&csvText](const QString &key) {
        const QRegularExpression re(u"^"_s + key + u",(-?[0-9]+\\.[0-9]{6})\\r$"_s,
                                    QRegularExpression::MultilineOption);
        const auto m = re.match(csvText);
        return m.hasMatch() ? core::Money::parseYuan(m.captured(1).remove(u'-'), 6).value_or(-1)
                            : -1;
    };
    QCOMPARE(csvValue(u"compute_yuan"_s), e.compute);
    QCOMPARE(csvValue(u"storage_yuan"_s), e.storage);
    QCOMPARE(csvValue(u"snapshots_yuan"_s), e.snapshots);
    QCOMPARE(csvValue(u"closing_balance_yuan"_s), e.closing);
    // 11 + blank + 2 (hosts) + blank + 2 (snapshots) + blank + header
    QCOMPARE(csvText.count(u"\r\n"_s), 19 + e.postings);
    // The snapshot by its id and by the name its owner gave it (the ledger's snapshot_name).
    QVERIFY(csvText.contains(u"\r\n%1,ckpt,%2,%3\r\n"_s.arg(m_snapshotId, m_instanceId,
                                                            ui::ledger::plainYuan(e.snapshots))));

    // PDF, read back by poppler's pdftotext: the totals are the ledger's.
    const QString pdfPath = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/statement-en.pdf"_s;
    QVERIFY2(panel->exportPdf(pdfPath, &error), qPrintable(error));
    const QString text = pdfText(pdfPath);
    QVERIFY2(text.contains(u"CardHour statement"_s), qPrintable(text.left(400)));
    QVERIFY(text.contains(u"Time zone: Asia/Shanghai (the provider's)"_s));
    QCOMPARE(amountAfter(text, u"Compute"_s).value_or(-1), e.compute);
    QCOMPARE(amountAfter(text, u"Storage of stopped hosts"_s).value_or(-1), e.storage);
    QCOMPARE(amountAfter(text, u"Snapshots"_s).value_or(-1), e.snapshots);
    QCOMPARE(amountAfter(text, u"Top-ups and trial credit"_s).value_or(-1), e.credits);
    QCOMPARE(amountAfter(text, u"Total charges"_s).value_or(-1),
             e.compute + e.storage + e.snapshots);
    QCOMPARE(amountAfter(text, u"Opening balance"_s).value_or(-1), e.opening);
    QCOMPARE(amountAfter(text, u"Closing balance"_s).value_or(-1), e.closing);
    QVERIFY(text.contains(u"Postings: %1"_s.arg(e.postings)));
    QVERIFY(text.contains(u"train"_s));
    // The snapshot by its name, deleted as it is; its id is not what people call it.
    const QString bySnapshot = text.mid(text.indexOf(u"By snapshot"_s));
    QVERIFY2(
        text.contains(u"By snapshot"_s)
            && QRegularExpression(u"^\\s*ckpt\\s+train\\s+¥"_s, QRegularExpression::MultilineOption)
                   .match(bySnapshot)
                   .hasMatch()
            && !text.contains(m_snapshotId),
        qPrintable(bySnapshot.left(900)));
    // Every posting's line is there: its amount and the balance after it.
    for (const core::Posting &p : s.postings) {
        QVERIFY2(text.contains(ui::Format::exactMoney(p.balanceAfterMicros)),
                 qPrintable(ui::Format::exactMoney(p.balanceAfterMicros)));
    }

    // A path that cannot be written loses nothing and says why.
    QVERIFY(!panel->exportPdf(u"/nonexistent-dir/statement.pdf"_s, &error));
    QVERIFY(!error.isEmpty());
}

void TestBillingPage::costComparison()
{
    ui::BillingPage page(&m_session, ui::AppSettings{});
    page.resize(1000, 640);
    page.show();
    page.tabs()->setCurrentWidget(page.calculator());
    page.reload();
    ui::CostCalculator *calc = page.calculator();
    auto *type = calc->findChild<QComboBox *>(u"costGpuType"_s);
    QTRY_VERIFY(type->count() > 0);
    type->setCurrentIndex(type->findData(u"rtx4090"_s));
    QCOMPARE(calc->findChild<QSpinBox *>(u"costCards"_s)->value(), 8); // the brief's example
    QCOMPARE(calc->findChild<QSpinBox *>(u"costHours"_s)->value(), 198);
    const auto types = await(m_client.gpuTypes());
    QVERIFY(types.ok);
    qint64 price = 0;
    for (const core::GpuType &t : *types.value)
        price = t.id == u"rtx4090"_s ? t.pricePerHourMicros : price;
    QCOMPARE(price, 1'900'000);
    QVERIFY(calc->jobComparison());
    QCOMPARE(calc->jobComparison()->providerMicros, 3'009'600'000); // not the brief's 3,024
    QVERIFY2(calc->jobArithmetic().contains(u"= ¥3,009.60."_s), qPrintable(calc->jobArithmetic()));
    QVERIFY(calc->jobArithmetic().contains(u"1584.00 × ¥4.55 = ¥7,207.20."_s));
    const auto bars = calc->findChild<ui::CostChart *>(u"costJobChart"_s)->bars();
    QCOMPARE(bars.size(), 3);
    QCOMPARE(bars[0].micros, 3'009'600'000);
    QCOMPARE(bars[1].micros, 7'207'200'000);
    QCOMPARE(bars[2].micros, 1'627'397'260);

    // The last 30 days: the run of two cards for an hour, as the ledger charged it.
    QTRY_VERIFY(calc->usageComparison() && calc->usageComparison()->cardSeconds > 0);
    qint64 charged = 0;
    qint64 cardSeconds = 0;
    for (const core::Posting &p : page.ledger()->model()->postings()) {
        if (p.kind == u"compute"_s) {
            charged -= p.amountMicros;
            cardSeconds += p.periodStart.secsTo(p.periodEnd) * 2;
        }
    }
    QCOMPARE(calc->usageComparison()->providerMicros, charged);
    QCOMPARE(calc->usageComparison()->cardSeconds, cardSeconds);
    QVERIFY(cardSeconds >= 2 * 3600);
    shoot(&page, u"billing-cost"_s);
}

void TestBillingPage::badFiguresAreNamedAndKept()
{
    ui::CostCalculator calc(&m_session, core::CostInputs{}, {});
    calc.show();
    QSignalSpy edited(&calc, &ui::CostCalculator::inputsEdited);
    auto *price = calc.findChild<QLineEdit *>(u"costCardPrice"_s);
    QCOMPARE(price->text(), u"13500.00"_s);
    price->setText(u"13,500.5.5"_s);
    auto *error = calc.findChild<QLabel *>(u"costInputError"_s);
    QVERIFY(error->isVisible());
    QVERIFY(error->text().contains(u"Card price"_s));
    QCOMPARE(price->text(), u"13,500.5.5"_s);
    QVERIFY(!calc.inputs());
    QCOMPARE(edited.count(), 0);
    calc.findChild<QLineEdit *>(u"costCloudPrice"_s)->setText(u"0"_s);
    QVERIFY(error->text().contains(u"Card price"_s)); // the first bad field is named
    price->setText(u"9999"_s);
    QVERIFY(error->text().contains(u"Public cloud price"_s));
    calc.findChild<QLineEdit *>(u"costCloudPrice"_s)->setText(u"3.2"_s);
    QVERIFY(!error->isVisible());
    QVERIFY(edited.count() >= 1);
    const auto last = edited.last().at(0).value<core::CostInputs>();
    QCOMPARE(last.cardPriceMicros, 9'999'000'000);
    QCOMPARE(last.cloudPerCardHourMicros, 3'200'000);
    shoot(&calc, u"billing-cost-fixed"_s);
}

void TestBillingPage::spendingLimits()
{
    ui::BillingPage page(&m_session, ui::AppSettings{});
    page.resize(1000, 640);
    page.show();
    page.tabs()->setCurrentWidget(page.limits());
    page.reload();
    ui::SpendingLimitsPanel *panel = page.limits();
    QTRY_VERIFY(panel->limits());
    const QString zone = panel->limits()->timeZone;
    QVERIFY(QTimeZone(zone.toUtf8()).isValid());
    QVERIFY(panel->findChild<QLabel *>(u"limitsZone"_s)->text().contains(zone));
    // The statements now count months in the provider's zone, and say so.
    QCOMPARE(page.statements()->statement().zone, QTimeZone(zone.toUtf8()));
    QVERIFY(page.statements()
                ->findChild<QLabel *>(u"statementZone"_s)
                ->text()
                .contains(u"%1 (the provider's)"_s.arg(zone)));

    auto *status = panel->findChild<QLabel *>(u"limitsStatus"_s);
    auto *save = panel->findChild<QPushButton *>(u"limitsSaveButton"_s);
    auto field = [panel](const QString &name) { return panel->findChild<QLineEdit *>(name); };
    auto provider = [this](const QString &period) {
        const auto reply = m_sim.authedGet(m_client.token(), u"/v1/spending-limits"_s);
        for (const QJsonValue &v : reply.value(u"periods"_s).toArray()) {
            if (v.toObject().value(u"period"_s).toString() == period)
                return v.toObject();
        }
        return QJsonObject();
    };

    // Bad input: named, kept, nothing sent.
    field(u"limitsMax_day"_s)->setText(u"abc"_s);
    QTest::mouseClick(save, Qt::LeftButton);
    QVERIFY2(status->text().contains(u"Today"_s), qPrintable(status->text()));
    QCOMPARE(field(u"limitsMax_day"_s)->text(), u"abc"_s);
    QVERIFY(provider(u"day"_s).value(u"max_micros"_s).isNull());
    field(u"limitsMax_day"_s)->setText(u"5"_s);
    field(u"limitsAlert_day"_s)->setText(u"10"_s);
    QTest::mouseClick(save, Qt::LeftButton);
    QVERIFY(status->text().contains(u"above the maximum"_s));
    QVERIFY(provider(u"day"_s).value(u"max_micros"_s).isNull());
    field(u"limitsMax_day"_s)->clear();
    field(u"limitsAlert_day"_s)->clear();

    // "Never more than 50 yuan this month", with an alert at 40.
    field(u"limitsMax_month"_s)->setText(u"50"_s);
    field(u"limitsAlert_month"_s)->setText(u"40"_s);
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY(status->text().startsWith(u"Saved"_s));
    QCOMPARE(provider(u"month"_s).value(u"max_micros"_s).toInteger(), 50'000'000);
    QCOMPARE(provider(u"month"_s).value(u"alert_micros"_s).toInteger(), 40'000'000);
    const qint64 spent = provider(u"month"_s).value(u"spent_micros"_s).toInteger();
    QVERIFY2(panel->findChild<QLabel *>(u"limitsSpent_month"_s)
                 ->text()
                 .startsWith(u"%1 of ¥50.00"_s.arg(ui::Format::money(spent))),
             qPrintable(panel->findChild<QLabel *>(u"limitsSpent_month"_s)->text()));
    shoot(&page, u"billing-limits"_s);

    // Emptied: no maximum any more.
    field(u"limitsMax_month"_s)->clear();
    field(u"limitsMax_month"_s)->setModified(true);
    QTest::mouseClick(save, Qt::LeftButton);
    QTRY_VERIFY(provider(u"month"_s).value(u"max_micros"_s).isNull());
    QCOMPARE(provider(u"month"_s).value(u"alert_micros"_s).toInteger(), 40'000'000);
}

void TestBillingPage::figuresAreRemembered()
{
    QSettings store;
    store.clear();
    QCOMPARE(ui::AppSettings::load(store).costInputs.cardPriceMicros, 13'500'000'000);
    ui::AppSettings s;
    s.costInputs.cardPriceMicros = 20'000'000'000;
    s.costInputs.years = 4;
    s.costInputs.cloudPerCardHourMicros = 6'100'000;
    s.costGpuType = u"l40s"_s;
    s.costCards = 2;
    s.costHours = 40;
    s.save(store);
    const ui::AppSettings back = ui::AppSettings::load(store);
    QCOMPARE(back.costInputs.cardPriceMicros, 20'000'000'000);
    QCOMPARE(back.costInputs.upkeepPerYearMicros, 4'500'000'000);
    QCOMPARE(back.costInputs.years, 4);
    QCOMPARE(back.costInputs.cloudPerCardHourMicros, 6'100'000);
    QCOMPARE(back.costGpuType, u"l40s"_s);
    QCOMPARE(back.costCards, 2);
    QCOMPARE(back.costHours, 40);
    // A figure edited by hand into nonsense gives the brief's defaults back.
    store.setValue(u"cost/years"_s, 0);
    QCOMPARE(ui::AppSettings::load(store).costInputs.years, 3);
    QCOMPARE(ui::AppSettings::load(store).costInputs.cardPriceMicros, 13'500'000'000);
}

void TestBillingPage::plannedStopOnTheHostCard()
{
    // "Stop this host at ..." kept by the provider: the card counts down and names the reason;
    // when the time comes the host stops and says why.
    const auto health = await(m_client.health());
    QVERIFY(health.ok);
    core::NewInstance request{u"timed"_s, u"rtx3090"_s, 1, u"base"_s, {}, {}, {}};
    request.stopPolicy.stopAt = health.value->time.addSecs(2 * 3600);
    const auto created = await(m_client.createInstance(request));
    QVERIFY2(created.ok, created.why());
    const auto running =
        test::awaitState(m_client, created.value->id, core::InstanceState::Running);
    QVERIFY(running);
    QVERIFY(running->plannedStop);
    QCOMPARE(running->plannedStop->reason, u"max_duration"_s);

    ui::InstanceTableModel model;
    model.setTimeZone(m_session.timeZone());
    model.upsert(*running);
    ui::HostCard card(&model, running->id);
    card.show();
    card.refreshLive();
    auto *line = card.findChild<QLabel *>(u"cardPlannedStop"_s);
    QVERIFY(line && line->isVisible());
    QVERIFY2(line->text().startsWith(u"Stops at "_s) && line->text().contains(u"(in "_s)
                 && line->text().endsWith(u"its stop time"_s),
             qPrintable(line->text()));
    // In the provider's zone, as every time is.
    QVERIFY2(
        line->text().contains(
            request.stopPolicy.stopAt.toTimeZone(QTimeZone("Asia/Shanghai")).toString(u"HH:mm"_s)),
        qPrintable(line->text()));
    shoot(&card, u"hostcard-planned-stop"_s);

    QVERIFY(m_sim.advance(2 * 3600 + 2));
    const auto stopped =
        test::awaitState(m_client, created.value->id, core::InstanceState::Stopped);
    QVERIFY(stopped);
    QCOMPARE(stopped->stateReason, u"max_duration"_s);
    model.upsert(*stopped);
    card.refresh();
    QVERIFY(!line->isVisible());
    QVERIFY2(ui::InstanceTableModel::stateText(*stopped).contains(u"its stop time"_s),
             qPrintable(ui::InstanceTableModel::stateText(*stopped)));
    QCOMPARE(ui::StopText::reason(u"spending_limit"_s), u"a spending limit was reached"_s);
    QCOMPARE(ui::StopText::reason(u"idle"_s), u"its cards stayed idle"_s);
    QCOMPARE(ui::StopText::reason(u"max_cost"_s), u"its maximum cost"_s);
    QVERIFY(ui::StopText::reason(u"stopped_by_user"_s).isEmpty());
    QVERIFY(await(m_client.terminateInstance(created.value->id)).ok);
}

void TestBillingPage::everyTabInEveryThemeAndLanguage()
{
    ui::Translations translations;
    ui::AppSettings settings;
    ui::BillingPage page(&m_session, settings);
    page.resize(1100, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.ledger()->setInstanceNames({{m_instanceId, u"train"_s}});
    page.reload();
    QTRY_VERIFY(!page.ledger()->isLoading() && page.ledger()->model()->rowCount() >= 5);
    auto *type = page.calculator()->findChild<QComboBox *>(u"costGpuType"_s);
    QTRY_VERIFY(type->count() > 0);
    const QStringList tabs{u"ledger"_s, u"statements"_s, u"limits"_s, u"cost"_s};
    for (const QString &language : {u"en"_s, u"zh_CN"_s}) {
        QVERIFY(translations.setLanguage(language));
        for (const QString &theme : {u"light"_s, u"dark"_s}) {
            ui::Theme::apply(theme);
            for (int i = 0; i < tabs.size(); ++i) {
                page.tabs()->setCurrentIndex(i);
                QTest::qWait(50);
                shoot(&page, u"billing-%1-%2-%3"_s.arg(tabs.at(i), theme, language));
            }
        }
        const QString pdf =
            QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/statement-%1.pdf"_s.arg(language);
        QString error;
        QVERIFY2(page.statements()->exportPdf(pdf, &error), qPrintable(error));
    }
    QVERIFY(translations.setLanguage(u"en"_s));
    ui::Theme::apply(u"light"_s);
}

QTEST_MAIN(TestBillingPage)
#include "tst_billingpage.moc"
