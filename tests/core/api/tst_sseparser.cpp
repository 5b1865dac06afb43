// SseParser: the event-stream format, fed whole and split at every byte.
#include "api/SseParser.h"

#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::core::SseEvent;
using cardhour::core::SseParser;

namespace {

// "type|data|lastEventId|hasId" per event, data with '\n' shown as "\\n".
QStringList describe(const QList<SseEvent> &events)
{
    QStringList out;
    for (const SseEvent &e : events) {
        out << u"%1|%2|%3|%4"_s.arg(e.type, QString::fromUtf8(e.data).replace(u'\n', u"\\n"_s),
                                    QString::fromUtf8(e.lastEventId), e.hasId ? u"id"_s : u"-"_s);
    }
    return out;
}

} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data();
    void parse();
    void retry_data();
    void retry();
    void reconnectKeepsLastEventId();
    void commentsAreCounted();
    void endlessLineStopsTheParser();
    void hugeEventStopsTheParser();
};

void TestSseParser::parse_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("provider hello") << "event: hello\ndata: {\"user_id\":\"u\"}\n\n"_ba
                                    << QStringList{u"hello|{\"user_id\":\"u\"}||-"_s};
    QTest::newRow("id and type") << "id: 17\nevent: instance\ndata: {}\n\n"_ba
                                 << QStringList{u"instance|{}|17|id"_s};
    QTest::newRow("default type") << "data: x\n\n"_ba << QStringList{u"message|x||-"_s};
    QTest::newRow("multi-line data") << "data: one\ndata: two\ndata:three\n\n"_ba
                                     << QStringList{u"message|one\\ntwo\\nthree||-"_s};
    QTest::newRow("empty data line") << "data\n\n"_ba << QStringList{u"message|||-"_s};
    QTest::newRow("two empty data lines")
        << "data:\ndata:\n\n"_ba << QStringList{u"message|\\n||-"_s};
    QTest::newRow("only one space stripped")
        << "data:  two spaces\n\n"_ba << QStringList{u"message| two spaces||-"_s};
    QTest::newRow("colon in value") << "data: a:b: c\n\n"_ba << QStringList{u"message|a:b: c||-"_s};
    QTest::newRow("comments only") << ": keep-alive\n\n: again\n\n"_ba << QStringList{};
    QTest::newRow("comment between data")
        << "data: a\n: note\ndata: b\n\n"_ba << QStringList{u"message|a\\nb||-"_s};
    QTest::newRow("no data: not dispatched")
        << "event: billing\nid: 3\n\ndata: y\n\n"_ba << QStringList{u"message|y|3|-"_s};
    QTest::newRow("unfinished event dropped")
        << "data: done\n\ndata: pending\n"_ba << QStringList{u"message|done||-"_s};
    QTest::newRow("CRLF") << "event: a\r\ndata: 1\r\n\r\n"_ba << QStringList{u"a|1||-"_s};
    QTest::newRow("CR") << "event: a\rdata: 1\r\r"_ba << QStringList{u"a|1||-"_s};
    QTest::newRow("mixed endings")
        << "data: 1\r\ndata: 2\rdata: 3\n\r\n"_ba << QStringList{u"message|1\\n2\\n3||-"_s};
    QTest::newRow("BOM at start") << "\xEF\xBB\xBF"
                                     "data: b\n\n"_ba
                                  << QStringList{u"message|b||-"_s};
    QTest::newRow("id persists") << "id: 5\ndata: a\n\ndata: b\n\n"_ba
                                 << QStringList{u"message|a|5|id"_s, u"message|b|5|-"_s};
    QTest::newRow("empty id resets") << "id: 5\ndata: a\n\nid\ndata: b\n\n"_ba
                                     << QStringList{u"message|a|5|id"_s, u"message|b||id"_s};
    QTest::newRow("id with NUL ignored") << [] {
        static const char raw[] = "id: 9\ndata: a\n\nid: 1\0002\ndata: b\n\n";
        return QByteArray(raw, sizeof raw - 1);
    }() << QStringList{u"message|a|9|id"_s, u"message|b|9|-"_s};
    QTest::newRow("unknown field ignored")
        << "foo: bar\ndata: z\n\n"_ba << QStringList{u"message|z||-"_s};
    QTest::newRow("type resets after dispatch")
        << "event: a\ndata: 1\n\ndata: 2\n\n"_ba << QStringList{u"a|1||-"_s, u"message|2||-"_s};
    QTest::newRow("utf-8 data") << "data: 余额 0.12 元\n\n"_ba
                                << QStringList{u"message|余额 0.12 元||-"_s};
}

void TestSseParser::parse()
{
    QFETCH(QByteArray, stream);
    QFETCH(QStringList, expected);

    SseParser whole;
    QCOMPARE(describe(whole.feed(stream)), expected);

    // The same stream one byte at a time: a CRLF split across chunks is still one line end.
    SseParser bytewise;
    QList<SseEvent> events;
    for (qsizetype i = 0; i < stream.size(); ++i)
        events += bytewise.feed(QByteArrayView(stream).sliced(i, 1));
    QCOMPARE(describe(events), expected);
}

void TestSseParser::retry_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<int>("expected"); // -1: none

    QTest::newRow("digits") << "retry: 2500\n\n"_ba << 2500;
    QTest::newRow("not digits") << "retry: 25s\n\n"_ba << -1;
    QTest::newRow("negative") << "retry: -5\n\n"_ba << -1;
    QTest::newRow("empty") << "retry:\n\n"_ba << -1;
    QTest::newRow("last one wins") << "retry: 100\nretry: 300\n\n"_ba << 300;
    QTest::newRow("bad one keeps the good") << "retry: 100\nretry: x\n\n"_ba << 100;
}

void TestSseParser::retry()
{
    QFETCH(QByteArray, stream);
    QFETCH(int, expected);
    SseParser parser;
    QVERIFY(parser.feed(stream).isEmpty());
    QCOMPARE(parser.retryMs().value_or(-1), expected);
}

void TestSseParser::reconnectKeepsLastEventId()
{
    SseParser parser;
    QCOMPARE(parser.feed("id: 41\ndata: a\n\ndata: half"_ba).size(), 1);
    parser.resetConnection();
    QCOMPARE(parser.lastEventId(), "41"_ba);
    // The half event of the lost connection is gone; the new connection starts clean.
    const QList<SseEvent> events = parser.feed("data: b\n\n"_ba);
    QCOMPARE(describe(events), QStringList{u"message|b|41|-"_s});
}

void TestSseParser::commentsAreCounted()
{
    SseParser parser;
    parser.feed(": keep-alive\n\n: keep-alive\n\n"_ba);
    QCOMPARE(parser.commentCount(), 2);
}

void TestSseParser::endlessLineStopsTheParser()
{
    // A server that never ends its line (issue 13): the client keeps at most the cap, not all.
    SseParser parser;
    QCOMPARE(parser.feed("data: before\n\n").size(), 1);
    const QByteArray piece(64 * 1024, 'x');
    QByteArray start = "data: ";
    QVERIFY(parser.feed(start).isEmpty());
    for (qsizetype sent = 0; sent <= SseParser::kMaxLineBytes; sent += piece.size())
        QVERIFY(parser.feed(piece).isEmpty());
    QVERIFY(parser.overflowed());
    // Stopped: even a proper event is not parsed on this connection any more.
    QVERIFY(parser.feed("\n\ndata: after\n\n").isEmpty());
    // A new connection starts clean.
    parser.resetConnection();
    QVERIFY(!parser.overflowed());
    QCOMPARE(parser.feed("data: again\n\n").size(), 1);

    // The same in one chunk, and a line just under the cap still passes.
    SseParser once;
    QVERIFY(once.feed("data: " + QByteArray(SseParser::kMaxLineBytes, 'y') + "\n\n").isEmpty());
    QVERIFY(once.overflowed());
    SseParser under;
    const QList<SseEvent> ok =
        under.feed("data: " + QByteArray(SseParser::kMaxLineBytes - 6, 'z') + "\n\n");
    QCOMPARE(ok.size(), 1);
    QVERIFY(!under.overflowed());
}

void TestSseParser::hugeEventStopsTheParser()
{
    // Many short data lines that never dispatch add up to one event: capped as well.
    SseParser parser;
    const QByteArray line = "data: " + QByteArray(1000, 'd') + '\n';
    bool stopped = false;
    for (int i = 0; i < 5000 && !stopped; ++i) {
        QVERIFY(parser.feed(line).isEmpty());
        stopped = parser.overflowed();
    }
    QVERIFY(stopped);
}

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
