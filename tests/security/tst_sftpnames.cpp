// The name check of SFTP downloads (issue 13 item 2) on its own: what a tampered server could
// list, including names no real directory can hold (`/`).
#include "ssh/SftpTransfer.h"

#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::core::SftpTransfer;

class TestSftpNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names_data();
    void names();
    void staysInside_data();
    void staysInside();
};

void TestSftpNames::names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("safe");
    QTest::newRow("plain") << u"weights.bin"_s << true;
    QTest::newRow("spaces and CJK") << u"labels 标签.txt"_s << true;
    QTest::newRow("dot file") << u".bashrc"_s << true;
    QTest::newRow("dots inside") << u"a..b"_s << true;
    QTest::newRow("empty") << QString() << false;
    QTest::newRow("dot") << u"."_s << false;
    QTest::newRow("dot dot") << u".."_s << false;
    QTest::newRow("slash") << u"../../.bashrc"_s << false;
    QTest::newRow("absolute") << u"/etc/passwd"_s << false;
    QTest::newRow("backslash") << u"..\\evil"_s << false;
    QTest::newRow("drive") << u"C:evil"_s << false;
    QTest::newRow("stream") << u"a:b"_s << false;
    QTest::newRow("NUL") << u"a"_s + QChar(0) + u"b"_s << false;
    QTest::newRow("newline") << u"a\nb"_s << false;
    QTest::newRow("escape") << u"\x1b[31mred"_s << false;
    QTest::newRow("DEL") << u"a\x7f"_s << false;
    QTest::newRow("C1") << u"a"_s + QChar(0x9b) << false;
}

void TestSftpNames::names()
{
    QFETCH(QString, name);
    QFETCH(bool, safe);
    const QString reason = SftpTransfer::unsafeNameReason(name);
    QCOMPARE(reason.isEmpty(), safe);
}

void TestSftpNames::staysInside_data()
{
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("inside");
    QTest::newRow("file in root") << u"/tmp/down"_s << u"/tmp/down/a.bin"_s << true;
    QTest::newRow("nested") << u"/tmp/down/"_s << u"/tmp/down/x/y/z"_s << true;
    QTest::newRow("the root") << u"/tmp/down"_s << u"/tmp/down"_s << true;
    QTest::newRow("parent") << u"/tmp/down"_s << u"/tmp/down/../evil"_s << false;
    QTest::newRow("sibling prefix") << u"/tmp/down"_s << u"/tmp/downloads/a"_s << false;
    QTest::newRow("elsewhere") << u"/tmp/down"_s << u"/home/u/.bashrc"_s << false;
}

void TestSftpNames::staysInside()
{
    QFETCH(QString, root);
    QFETCH(QString, path);
    QFETCH(bool, inside);
    QCOMPARE(SftpTransfer::staysInside(root, path), inside);
}

QTEST_GUILESS_MAIN(TestSftpNames)
#include "tst_sftpnames.moc"
