// The PDF statement on its own (no provider): read back with pdftotext, every posting of a long
// month is there under repeated headers; ids are never broken; each column holds its text (a
// name whole on its posting's line, times and amounts whole, descriptions wrapped); a page is
// rendered with pdftoppm for people to look at (<build>/screenshots/statement-columns-1.png).
#include "Format.h"
#include "PdfText.h"
#include "StatementPdf.h"
#include "billing/Statement.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace cardhour;
using test::amountAfter;
using test::pdfText;

class TestStatementPdf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    }
    void longStatementSpansPages();
    void idsAreNeverBrokenInThePdf();
    void pdfColumnsHoldTheirText();

private:
    QTemporaryDir m_scratch;
};

void TestStatementPdf::longStatementSpansPages()
{
    // 300 postings do not fit one page: every one is still there, under a repeated header.
    QList<core::Posting> postings;
    qint64 balance = 0;
    for (int i = 1; i <= 300; ++i) {
        core::Posting p;
        p.seq = i;
        p.kind = i == 1 ? u"topup"_s : u"compute"_s;
        p.amountMicros = i == 1 ? 1'000'000'000 : -(1'000 + i);
        balance += p.amountMicros;
        p.balanceAfterMicros = balance;
        p.instanceId = i == 1 ? QString() : u"h%1"_s.arg(i % 7);
        p.description = u"Compute: run %1, 60 s at 1.900000 yuan/h"_s.arg(i);
        p.createdAt = QDateTime(QDate(2026, 5, 1), QTime(0, 0), QTimeZone::utc()).addSecs(i * 60);
        postings.prepend(p);
    }
    const core::Statement s = core::Statement::build(postings, 2026, 5, QTimeZone::utc());
    QCOMPARE(s.postings.size(), 300);
    const QString path = m_scratch.filePath(u"long.pdf"_s);
    QString error;
    QVERIFY2(ui::StatementPdf::write(s, {}, false, path, &error), qPrintable(error));
    const QString text = pdfText(path);
    QVERIFY(text.contains(u"Page 3"_s));
    for (const core::Posting &p : s.postings)
        QVERIFY2(text.contains(u"run %1,"_s.arg(p.seq)), qPrintable(QString::number(p.seq)));
    QVERIFY(text.count(u"Description"_s) >= 3); // the postings' header on every page
    QCOMPARE(amountAfter(text, u"Compute"_s).value_or(-1), s.computeMicros);
    QCOMPARE(amountAfter(text, u"Closing balance"_s).value_or(-1), balance);
}

void TestStatementPdf::idsAreNeverBrokenInThePdf()
{
    // A snapshot and its host without names print as their ids, whole on one line, whichever
    // hex digits they hold: an id of the widest glyphs once wrapped at its hyphens, so that
    // pdftotext (and anyone copying it) saw two halves, and "ff" became one ligature glyph.
    const QStringList ids{
        u"dddddddd-dddd-dddd-dddd-dddddddddddd"_s, u"00000000-0000-0000-0000-000000000000"_s,
        u"bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"_s, u"99999999-9999-9999-9999-999999999999"_s,
        // A font's "ff" ligature came out of pdftotext as U+FB00.
        u"4fff0b4c-9902-4fff-8b6b-ffffffffffff"_s};
    QList<core::Posting> postings;
    qint64 balance = 0;
    for (int i = 0; i < ids.size(); ++i) {
        core::Posting p;
        p.seq = i + 1;
        p.kind = u"storage"_s;
        p.amountMicros = -(1'234'567'891 + i);
        balance += p.amountMicros;
        p.balanceAfterMicros = balance;
        p.instanceId = ids.at((i + 1) % ids.size());
        p.snapshotId = ids.at(i);
        p.description = u"Snapshot storage"_s;
        p.createdAt = QDateTime(QDate(2026, 5, 2), QTime(0, 0), QTimeZone::utc()).addSecs(i * 60);
        postings.prepend(p);
    }
    const core::Statement s = core::Statement::build(postings, 2026, 5, QTimeZone::utc());
    QCOMPARE(s.snapshots.size(), ids.size());
    const QString path = m_scratch.filePath(u"ids.pdf"_s);
    QString error;
    QVERIFY2(ui::StatementPdf::write(s, {}, false, path, &error), qPrintable(error));
    const QString text = pdfText(path);
    const qsizetype byHost = text.indexOf(u"By host"_s);
    const qsizetype bySnapshot = text.indexOf(u"By snapshot"_s);
    QVERIFY(byHost >= 0 && bySnapshot > byHost);
    for (const QString &id : ids) {
        // In the host table and in the snapshot table (as a snapshot and as a host).
        QVERIFY2(text.indexOf(id, byHost) >= 0 && text.indexOf(id, byHost) < bySnapshot,
                 qPrintable(id + u"\n"_s + text.left(3000)));
        QVERIFY2(text.mid(bySnapshot).count(id) >= 2,
                 qPrintable(id + u"\n"_s + text.mid(bySnapshot, 3000)));
    }
}

void TestStatementPdf::pdfColumnsHoldTheirText()
{
    // Hosts with long names, in English and in Chinese, beside long descriptions: each name is
    // whole on its posting's line, next to the amount (the Host column was a tenth of the page
    // wide, so a long name was shrunk and broken over lines, cut off from its row).
    const QHash<QString, QString> names{{u"h1"_s, u"llama-70b-finetune-run-42"_s},
                                        {u"h2"_s, u"训练主机一号（长名字）"_s},
                                        {u"h3"_s, u"eval"_s}};
    QList<core::Posting> postings;
    qint64 balance = 1'234'567'000'000;
    int seq = 0;
    for (const QString &id : {u"h1"_s, u"h2"_s, u"h3"_s}) {
        core::Posting p;
        p.seq = ++seq;
        p.kind = u"compute"_s;
        p.amountMicros = -(1'234'567'891 + seq);
        balance += p.amountMicros;
        p.balanceAfterMicros = balance;
        p.instanceId = id;
        p.description =
            u"Compute: %1, 3600 s at 1.900000 yuan/h (capped at the spending limit)"_s.arg(
                names.value(id));
        p.createdAt = QDateTime(QDate(2026, 5, 2), QTime(1, 0), QTimeZone::utc()).addSecs(seq);
        postings.prepend(p);
    }
    const core::Statement s = core::Statement::build(postings, 2026, 5, QTimeZone("Asia/Shanghai"));
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/statement-columns.pdf"_s;
    QString error;
    QVERIFY2(ui::StatementPdf::write(s, names, true, path, &error), qPrintable(error));
    const QString text = pdfText(path);
    const QString postingsPart = text.mid(text.lastIndexOf(u"Postings"_s));
    for (const core::Posting &p : s.postings) {
        const QString name = names.value(p.instanceId);
        const QString amount = ui::Format::exactMoney(p.amountMicros);
        const QString time = ui::Format::dateTime(p.createdAt, s.zone, true);
        bool found = false;
        for (const QString &line : postingsPart.split(u'\n'))
            found = found
                || (line.contains(time) && line.contains(u"Compute "_s) && line.contains(name)
                    && line.contains(amount));
        QVERIFY2(found, qPrintable(name + u" / "_s + amount + u"\n"_s + postingsPart));
    }
    // Thousands grouped, every digit kept: the amounts still add up.
    for (const core::Posting &p : s.postings) {
        const QString after = ui::Format::exactMoney(p.balanceAfterMicros);
        QVERIFY2(after.startsWith(u"¥1,23"_s) && text.contains(after), qPrintable(after));
    }
    QCOMPARE(amountAfter(text, u"Closing balance"_s).value_or(-1), balance);
    // A page to look at.
    QProcess render;
    render.start(QStringLiteral(CARDHOUR_PDFTOPPM),
                 {u"-png"_s, u"-r"_s, u"80"_s, u"-f"_s, u"1"_s, u"-l"_s, u"1"_s, path,
                  QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/statement-columns"_s});
    QVERIFY(render.waitForFinished(30000) && render.exitCode() == 0);
}

QTEST_MAIN(TestStatementPdf)
#include "tst_statementpdf.moc"
