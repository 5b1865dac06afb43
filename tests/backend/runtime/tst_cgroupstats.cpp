// CgroupStats on cgroup trees laid out as podman and Docker make them, v1 and v2, in a
// temporary folder (the real ones are read by the podman tests).
#include "runtime/CgroupStats.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestCgroupStats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reads_data();
    void reads();
    void missingAndGone();
};

namespace {
const QString kId = u"b64d5d520f5a62cfa6536df3eb7fdc36a2ebc71e702e3db025e7141c54ba6e3f"_s;

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}
} // namespace

void TestCgroupStats::reads_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("lookupId");
    QTest::newRow("v1 podman cgroupfs") << u"v1:libpod_parent/libpod-%1"_s << kId;
    QTest::newRow("v1 docker cgroupfs, short id") << u"v1:docker/%1"_s << kId.left(12);
    QTest::newRow("v2 podman systemd") << u"v2:machine.slice/libpod-%1.scope"_s << kId;
    QTest::newRow("v2 docker systemd") << u"v2:system.slice/docker-%1.scope"_s << kId;
}

void TestCgroupStats::reads()
{
    QFETCH(QString, layout);
    QFETCH(QString, lookupId);
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const bool v2 = layout.startsWith(u"v2:"_s);
    const QString rel = layout.mid(3).arg(kId);
    // A conmon folder with the same id must not be taken for the container.
    if (v2) {
        write(root.filePath(u"machine.slice/libpod-conmon-%1.scope/cpu.stat"_s.arg(kId)),
              "usage_usec 1\n");
        write(root.filePath(rel + u"/cpu.stat"_s), "usage_usec 2500000\nuser_usec 2000000\n");
        write(root.filePath(rel + u"/memory.current"_s), "104857600\n");
        write(root.filePath(rel + u"/memory.stat"_s), "anon 90000000\ninactive_file 4857600\n");
        write(root.filePath(rel + u"/memory.max"_s), "1073741824\n");
    } else {
        write(root.filePath(u"cpuacct/"_s + rel + u"/cpuacct.usage"_s), "2500000000\n");
        write(root.filePath(u"memory/"_s + rel + u"/memory.usage_in_bytes"_s), "104857600\n");
        write(root.filePath(u"memory/"_s + rel + u"/memory.stat"_s),
              "cache 5000000\ntotal_inactive_file 4857600\n");
        write(root.filePath(u"memory/"_s + rel + u"/memory.limit_in_bytes"_s),
              "9223372036854771712\n");
    }
    CgroupStats stats(root.path());
    const std::optional<CgroupStats::Reading> r = stats.read(lookupId);
    QVERIFY(r.has_value());
    QCOMPARE(r->cpuNanos, 2500000000LL);
    QCOMPARE(r->memoryBytes, 100000000LL);
    QCOMPARE(r->memoryLimitBytes, v2 ? 1073741824LL : 0LL); // v1's "no limit" is a huge number
}

void TestCgroupStats::missingAndGone()
{
    QTemporaryDir root;
    CgroupStats stats(root.path());
    QVERIFY(!stats.read(kId).has_value());
    QVERIFY(!stats.read(u"abc"_s).has_value()); // too short to match safely
    const QString dir = root.filePath(u"cpuacct/libpod_parent/libpod-"_s + kId);
    write(dir + u"/cpuacct.usage"_s, "5\n");
    QCOMPARE(stats.read(kId)->cpuNanos, 5LL);
    QVERIFY(QDir(dir).removeRecursively()); // the container stopped
    QVERIFY(!stats.read(kId).has_value());
}

QTEST_GUILESS_MAIN(TestCgroupStats)
#include "tst_cgroupstats.moc"
