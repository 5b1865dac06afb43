// EgressFilter: the rules a box gets (the private, link-local and loopback ranges and the
// host's own addresses refused; its loopback, answers and name lookups open), that
// iptables-restore takes them (as root, in a network namespace of the test's own), and how a
// container's process is found and entered (a fake engine, a stand-in for nsenter).
#include "FakeEngine.h"
#include "runtime/EgressFilter.h"

#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using cardhour::sim::test::FakeEngine;

class TestEgressFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusesPrivateRangesAndTheHost();
    void iptablesRestoreTakesTheRules();
    void entersTheContainersNetwork();
    void aBoxThatCannotBeFilteredIsAnError();
    void turnedOffAsksNothing();

private:
    QString standIn(const QString &name, const QByteArray &body);
    QTemporaryDir m_dir;
};

QString TestEgressFilter::standIn(const QString &name, const QByteArray &body)
{
    const QString path = m_dir.filePath(name);
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\n" + body);
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

void TestEgressFilter::refusesPrivateRangesAndTheHost()
{
    const QList<QHostAddress> host{QHostAddress(u"203.0.113.7"_s), QHostAddress(u"127.0.0.1"_s),
                                   QHostAddress(u"2001:db8::7"_s),
                                   QHostAddress(u"fe80::fc:ff:fe00:1%eth0"_s)};
    const QByteArray v4 = EgressFilter::rules(QAbstractSocket::IPv4Protocol, host);
    for (const QByteArray &range :
         {"169.254.0.0/16"_ba, "10.0.0.0/8"_ba, "172.16.0.0/12"_ba, "192.168.0.0/16"_ba,
          "100.64.0.0/10"_ba, "127.0.0.0/8"_ba, "203.0.113.7/32"_ba})
        QVERIFY2(v4.contains("-A OUTPUT -d " + range + " -p tcp -j REJECT --reject-with tcp-reset"),
                 range.constData());
    QVERIFY(!v4.contains("2001:db8::7"));
    QVERIFY(!v4.contains("127.0.0.1/32")); // loopback: in 127.0.0.0/8 already
    // What stays open comes first: the box's loopback, answers, name lookups.
    const qsizetype firstReject = v4.indexOf("REJECT");
    for (const QByteArray &open :
         {"-A OUTPUT -o lo -j ACCEPT"_ba, "--ctstate ESTABLISHED,RELATED -j ACCEPT"_ba,
          "-p udp --dport 53 -j ACCEPT"_ba})
        QVERIFY2(v4.indexOf(open) >= 0 && v4.indexOf(open) < firstReject, open.constData());
    QVERIFY(v4.startsWith("*filter\n") && v4.endsWith("COMMIT\n"));

    const QByteArray v6 = EgressFilter::rules(QAbstractSocket::IPv6Protocol, host);
    for (const QByteArray &range : {"fe80::/10"_ba, "fc00::/7"_ba, "2001:db8::7/128"_ba})
        QVERIFY2(v6.contains("-A OUTPUT -d " + range
                             + " -j REJECT --reject-with "
                               "icmp6-port-unreachable"),
                 range.constData());
    QVERIFY(!v6.contains("203.0.113.7"));
    QVERIFY(!v6.contains("%")); // a scoped link-local address: in fe80::/10, no scope written
}

void TestEgressFilter::iptablesRestoreTakesTheRules()
{
#ifdef Q_OS_UNIX
    if (geteuid() != 0)
        QSKIP("needs root: a network namespace of the test's own");
#endif
    const QString unshare = QStandardPaths::findExecutable(u"unshare"_s);
    const QString restore = QStandardPaths::findExecutable(
        u"iptables-restore"_s, {u"/usr/sbin"_s, u"/sbin"_s, u"/usr/bin"_s});
    if (unshare.isEmpty() || restore.isEmpty())
        QSKIP("no unshare or iptables-restore here");
    for (const auto family : {QAbstractSocket::IPv4Protocol, QAbstractSocket::IPv6Protocol}) {
        const bool v4 = family == QAbstractSocket::IPv4Protocol;
        const QString file = m_dir.filePath(v4 ? u"rules.v4"_s : u"rules.v6"_s);
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            EgressFilter::rules(family,
                                {QHostAddress(u"203.0.113.7"_s), QHostAddress(u"2001:db8::7"_s),
                                 QHostAddress(u"fe80::fc:ff:fe00:1%eth0"_s)}));
        out.close();
        const QString tool = v4 ? u"iptables"_s : u"ip6tables"_s;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(unshare,
                {u"--net"_s, u"sh"_s, u"-c"_s, u"%1-restore %2 && %1 -S OUTPUT"_s.arg(tool, file)});
        QVERIFY(p.waitForFinished(20000));
        const QByteArray listed = p.readAll();
        QVERIFY2(p.exitCode() == 0, listed.constData());
        QVERIFY2(listed.contains(v4 ? "-d 169.254.0.0/16 -p tcp -j REJECT --reject-with tcp-reset"
                                    : "-d fe80::/10 -p tcp -j REJECT --reject-with tcp-reset"),
                 listed.constData());
    }
}

void TestEgressFilter::entersTheContainersNetwork()
{
    FakeEngine engine;
    engine.answer(u"inspect --type container --format json c1"_s,
                  FakeEngine::ok(R"([{"Id":"c1","State":{"Running":true,"Pid":4242}}])"));
    const QString log = m_dir.filePath(u"nsenter.log"_s);
    EgressFilter::Settings settings;
    settings.dataDir = m_dir.path();
    settings.nsenter = standIn(u"nsenter"_s, "echo \"$*\" >> " + log.toUtf8() + "\n");
    EgressFilter filter(engine, settings);
    std::optional<QString> error;
    bool gone = false;
    filter.apply(u"c1"_s, [&error, &gone](const QString &e, bool g) {
        error = e;
        gone = g;
    });
    QTRY_VERIFY(error.has_value());
    QVERIFY2(error->isEmpty(), qPrintable(*error));
    QFile calls(log);
    QVERIFY(calls.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = calls.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines.at(0).startsWith("--target 4242 --net"), lines.at(0).constData());
    QVERIFY2(
        lines.at(0).endsWith("iptables-restore " + m_dir.filePath(u"egress-rules.v4"_s).toUtf8()),
        lines.at(0).constData());
    QVERIFY2(
        lines.at(1).endsWith("ip6tables-restore " + m_dir.filePath(u"egress-rules.v6"_s).toUtf8()),
        lines.at(1).constData());
    QFile rules(m_dir.filePath(u"egress-rules.v4"_s));
    QVERIFY(rules.open(QIODevice::ReadOnly));
    QVERIFY(rules.readAll().contains("169.254.0.0/16"));
}

void TestEgressFilter::aBoxThatCannotBeFilteredIsAnError()
{
    FakeEngine engine;
    engine.answer(u"inspect"_s, FakeEngine::ok(R"([{"Id":"c1","State":{"Pid":4242}}])"));
    EgressFilter::Settings settings;
    settings.dataDir = m_dir.path();
    settings.nsenter =
        standIn(u"nsenter-denied"_s, "echo 'nsenter: Operation not permitted'; exit 1\n");
    EgressFilter filter(engine, settings);
    std::optional<QString> error;
    bool gone = false;
    filter.apply(u"c1"_s, [&error, &gone](const QString &e, bool g) {
        error = e;
        gone = g;
    });
    QTRY_VERIFY(error.has_value());
    QVERIFY2(error->contains(u"--allow-private-network"_s), qPrintable(*error));
    QVERIFY2(error->contains(u"Operation not permitted"_s), qPrintable(*error));
    QVERIFY(!gone); // a box that runs unfiltered: the launch fails

    // No process to enter (the container ended): an error too, not a box let out.
    FakeEngine ended;
    ended.answer(u"inspect"_s, FakeEngine::failed("Error: no such container c2"));
    EgressFilter second(ended, settings);
    error.reset();
    second.apply(u"c2"_s, [&error, &gone](const QString &e, bool g) {
        error = e;
        gone = g;
    });
    QTRY_VERIFY(error.has_value());
    QVERIFY2(error->contains(u"no such container"_s), qPrintable(*error));
    QVERIFY(gone); // the launch reports the exit itself
}

void TestEgressFilter::turnedOffAsksNothing()
{
    FakeEngine engine;
    EgressFilter::Settings settings;
    settings.enabled = false;
    EgressFilter filter(engine, settings);
    std::optional<QString> error;
    bool gone = false;
    filter.apply(u"c1"_s, [&error, &gone](const QString &e, bool g) {
        error = e;
        gone = g;
    });
    QVERIFY(error.has_value() && error->isEmpty());
    QVERIFY(engine.calls.isEmpty());
}

QTEST_GUILESS_MAIN(TestEgressFilter)

#include "tst_egressfilter.moc"
