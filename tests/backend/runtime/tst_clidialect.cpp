// CliDialect: what podman and docker print, parsed the same. The samples are real output of
// podman 4.3 (`ps -a --format json`) and of the docker 28 CLI (`ps -a --format json`), with ids
// shortened.
#include "runtime/CliDialect.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestCliDialect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void containerList_data();
    void containerList();
    void diskOfTheListing_data();
    void diskOfTheListing();
    void labels_data();
    void labels();
    void ports_data();
    void ports();
    void volumes();
    void portsFromInspect();
    void classify_data();
    void classify();
    void engineArgs();
    void sizes_data();
    void sizes();
    void stats();
    void listeningPorts();
    void establishedConnections();
};

namespace {

const QByteArray kPodmanPs = R"([
  {"AutoRemove":false,"Command":["/usr/local/sbin/cardhour-entrypoint"],"Created":1764515888,
   "Id":"535765c5306a","Image":"localhost/cardhour/base:latest",
   "Labels":{"cardhour.instance":"i-1","cardhour.managed":"true","cardhour.owner":"u-1",
             "cardhour.provider":"prov","cardhour.image":"base"},
   "Names":["cardhour-i-1"],
   "Ports":[{"host_ip":"127.0.0.1","container_port":22,"host_port":40022,"range":1,"protocol":"tcp"},
            {"host_ip":"127.0.0.1","container_port":8888,"host_port":40023,"range":1,"protocol":"tcp"}],
   "State":"running","Status":"Up 3 seconds"},
  {"Id":"99aa","Labels":{"cardhour.instance":"i-2","cardhour.managed":"true","cardhour.provider":"prov"},
   "Ports":[{"hostPort":41000,"containerPort":22,"protocol":"tcp"}],"State":"exited"},
  {"Id":"other","Labels":{"cardhour.instance":"i-3","cardhour.managed":"true","cardhour.provider":"someone-else"},
   "State":"running"},
  {"Id":"unlabelled","Labels":null,"State":"running"}
])";

const QByteArray kDockerPs =
    R"({"Command":"\"/usr/local/sbin/cardhour-entrypoint\"","ID":"8990324b7523","Image":"localhost/cardhour/base:latest","Labels":"cardhour.image=base,cardhour.instance=i-1,cardhour.managed=true,cardhour.owner=u-1,cardhour.provider=prov","Names":"cardhour-i-1","Ports":"127.0.0.1:40022-\u003e22/tcp, 127.0.0.1:40023-\u003e8888/tcp","State":"running","Status":"Up Less than a second"})"
    "\n"
    R"({"ID":"99aa","Labels":"cardhour.instance=i-2,cardhour.managed=true,cardhour.provider=prov","Ports":"127.0.0.1:41000-\u003e22/tcp","State":"exited"})"
    "\n"
    R"({"ID":"other","Labels":"cardhour.instance=i-3,cardhour.managed=true,cardhour.provider=someone-else","State":"running"})"
    "\n";

} // namespace

void TestCliDialect::containerList_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::newRow("podman") << kPodmanPs;
    QTest::newRow("docker") << kDockerPs;
}

void TestCliDialect::containerList()
{
    QFETCH(QByteArray, output);
    const QList<cli::ContainerInfo> found = cli::parseContainerList(output, u"prov"_s);
    QCOMPARE(found.size(), 2); // another provider's and unlabelled containers are not ours
    const cli::ContainerInfo &first = found.at(0);
    QCOMPARE(first.instanceId, u"i-1"_s);
    QCOMPARE(first.ownerId, u"u-1"_s);
    QVERIFY(!first.containerId.isEmpty());
    QVERIFY(first.running);
    QCOMPARE(first.sshPort, 40022);
    QCOMPARE(first.ports.value(8888), 40023);
    QCOMPARE(first.ports.size(), 2);
    const cli::ContainerInfo &second = found.at(1);
    QCOMPARE(second.instanceId, u"i-2"_s);
    QVERIFY(!second.running);
    QCOMPARE(second.state, u"exited"_s);
    QCOMPARE(second.sshPort, 41000);
    QVERIFY(cli::parseContainerList("", u"prov"_s).isEmpty());
    QVERIFY(cli::parseContainerList("[]", u"prov"_s).isEmpty());
    QVERIFY(cli::parseContainerList("not json at all\n{", u"prov"_s).isEmpty());
}

void TestCliDialect::diskOfTheListing_data()
{
    QTest::addColumn<QByteArray>("output");
    QTest::addColumn<QString>("startedAt");
    QTest::addColumn<qint64>("ownDiskBytes");
    QTest::newRow("podman ps --size")
        << R"([{"Id":"535765c5306a","StartedAt":1764515890,"State":"running",
                "Labels":{"cardhour.instance":"i-1","cardhour.managed":"true",
                          "cardhour.provider":"prov","cardhour.disk-gib":"50"},
                "Size":{"rootFsSize":712345678,"rwSize":123456}}])"_ba
        << u"1764515890"_s << qint64(123456);
    QTest::newRow("podman ps")
        << R"([{"Id":"535765c5306a","StartedAt":1764515890,"State":"running","Size":null,
                "Labels":{"cardhour.instance":"i-1","cardhour.managed":"true",
                          "cardhour.provider":"prov","cardhour.disk-gib":"50"}}])"_ba
        << u"1764515890"_s << qint64(-1);
    // docker: no start time; sizes in decimal units, the image's layers in brackets.
    QTest::newRow("docker ps --size")
        << R"j({"ID":"8990324b7523","Labels":"cardhour.disk-gib=50,cardhour.instance=i-1,cardhour.managed=true,cardhour.provider=prov","Size":"178B (virtual 555MB)","State":"running","Status":"Up 2 minutes"})j"
           "\n"_ba
        << QString() << qint64(178);
    QTest::newRow("docker ps --size, kB")
        << R"j({"ID":"8990324b7523","Labels":"cardhour.disk-gib=50,cardhour.instance=i-1,cardhour.managed=true,cardhour.provider=prov","Size":"12.3kB (virtual 80.1MB)","State":"running"})j"
           "\n"_ba
        << QString() << qint64(12300);
    QTest::newRow("docker ps, no size field")
        << R"({"ID":"8990324b7523","Labels":"cardhour.disk-gib=50,cardhour.instance=i-1,cardhour.managed=true,cardhour.provider=prov","State":"running"})"
           "\n"_ba
        << QString() << qint64(-1);
}

void TestCliDialect::diskOfTheListing()
{
    QFETCH(QByteArray, output);
    QFETCH(QString, startedAt);
    QFETCH(qint64, ownDiskBytes);
    const QList<cli::ContainerInfo> found = cli::parseContainerList(output, u"prov"_s);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().diskGib, 50);
    QCOMPARE(found.first().startedAt, startedAt);
    QCOMPARE(found.first().ownDiskBytes, ownDiskBytes);
}

void TestCliDialect::labels_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("object") << R"({"L":{"a":"1","cardhour.instance":"x"}})"_ba
                            << u"cardhour.instance"_s << u"x"_s;
    QTest::newRow("string") << R"({"L":"a=1,cardhour.instance=x"})"_ba << u"cardhour.instance"_s
                            << u"x"_s;
    QTest::newRow("value with =") << R"({"L":"a=b=c"})"_ba << u"a"_s << u"b=c"_s;
    QTest::newRow("empty value") << R"({"L":"a=,b=2"})"_ba << u"b"_s << u"2"_s;
    QTest::newRow("null") << R"({"L":null})"_ba << u"a"_s << QString();
}

void TestCliDialect::labels()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QFETCH(QString, value);
    const QHash<QString, QString> labels =
        cli::parseLabels(QJsonDocument::fromJson(json).object().value(u"L"_s));
    QCOMPARE(labels.value(key), value);
}

void TestCliDialect::ports_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QList<int>>("expected"); // container, host, container, host, ...
    QTest::newRow("podman array")
        << R"({"P":[{"host_port":40022,"container_port":22,"protocol":"tcp"}]})"_ba
        << QList<int>{22, 40022};
    QTest::newRow("podman range")
        << R"({"P":[{"host_port":40000,"container_port":8000,"range":3}]})"_ba
        << QList<int>{8000, 40000, 8001, 40001, 8002, 40002};
    QTest::newRow("podman udp skipped")
        << R"({"P":[{"host_port":5353,"container_port":53,"protocol":"udp"}]})"_ba << QList<int>{};
    QTest::newRow("docker one") << R"({"P":"127.0.0.1:40022->22/tcp"})"_ba << QList<int>{22, 40022};
    QTest::newRow("docker two")
        << R"({"P":"127.0.0.1:40022->22/tcp, 127.0.0.1:40023->8888/tcp"})"_ba
        << QList<int>{22, 40022, 8888, 40023};
    QTest::newRow("docker range") << R"({"P":"0.0.0.0:40000-40001->8000-8001/tcp"})"_ba
                                  << QList<int>{8000, 40000, 8001, 40001};
    QTest::newRow("docker ipv6") << R"({"P":"[::1]:40022->22/tcp"})"_ba << QList<int>{22, 40022};
    QTest::newRow("docker unpublished") << R"({"P":"22/tcp"})"_ba << QList<int>{};
    QTest::newRow("docker udp") << R"({"P":"127.0.0.1:5353->53/udp"})"_ba << QList<int>{};
    QTest::newRow("empty") << R"({"P":""})"_ba << QList<int>{};
}

void TestCliDialect::ports()
{
    QFETCH(QByteArray, json);
    QFETCH(QList<int>, expected);
    const QHash<int, int> ports =
        cli::parsePorts(QJsonDocument::fromJson(json).object().value(u"P"_s));
    QCOMPARE(ports.size(), expected.size() / 2);
    for (int i = 0; i + 1 < expected.size(); i += 2)
        QCOMPARE(ports.value(expected.at(i)), expected.at(i + 1));
}

void TestCliDialect::volumes()
{
    const QByteArray podman =
        R"([{"Name":"cardhour-ws-i-1","Labels":{"cardhour.instance":"i-1"}}])";
    const QByteArray docker =
        R"({"Driver":"local","Labels":"cardhour.instance=i-1,cardhour.x=1","Name":"cardhour-ws-i-1"})"
        "\n";
    for (const QByteArray &output : {podman, docker}) {
        const QList<cli::VolumeInfo> volumes = cli::parseVolumeList(output);
        QCOMPARE(volumes.size(), 1);
        QCOMPARE(volumes.first().name, u"cardhour-ws-i-1"_s);
        QCOMPARE(volumes.first().labels.value(u"cardhour.instance"_s), u"i-1"_s);
    }
}

void TestCliDialect::portsFromInspect()
{
    const QByteArray inspect = R"([{"HostConfig":{"PortBindings":{
        "22/tcp":[{"HostIp":"127.0.0.1","HostPort":"40022"}],
        "8888/tcp":[{"HostIp":"127.0.0.1","HostPort":"40023"}],
        "53/udp":[{"HostIp":"127.0.0.1","HostPort":"5353"}]}}}])";
    const QHash<int, int> ports = cli::portsFromInspect(inspect);
    QCOMPARE(ports.size(), 2);
    QCOMPARE(ports.value(22), 40022);
    QCOMPARE(ports.value(8888), 40023);
    QVERIFY(cli::portsFromInspect("[]").isEmpty());
}

void TestCliDialect::classify_data()
{
    QTest::addColumn<QString>("err");
    QTest::addColumn<int>("failure");
    using F = cli::Failure;
    QTest::newRow("podman image") << u"Error: localhost/cardhour/nope:latest: image not known"_s
                                  << int(F::ImageMissing);
    QTest::newRow("docker image")
        << u"docker: Error response from daemon: No such image: localhost/cardhour/nope:latest"_s
        << int(F::ImageMissing);
    QTest::newRow("podman name")
        << u"Error: creating container storage: the container name \"zz1\" is already in use by "
           u"5357. You have to "
           "remove that container to be able to reuse that name: that name is already in use"_s
        << int(F::NameInUse);
    QTest::newRow("docker name")
        << u"docker: Error response from daemon: Conflict. The container name \"/dk1\" is already "
           u"in use by container "
           "\"0ffe\". You have to remove (or rename) that container to be able to reuse that name."_s
        << int(F::NameInUse);
    QTest::newRow("podman port")
        << u"Error: cannot listen on the TCP port: listen tcp4 127.0.0.1:41022: bind: address already in use"_s
        << int(F::PortInUse);
    QTest::newRow("rootless port")
        << u"Error: rootlessport listen tcp 127.0.0.1:45123: bind: address already in use"_s
        << int(F::PortInUse);
    // slirp4netns's own port handler: its bind failed (the port was taken since it was chosen).
    QTest::newRow("slirp4netns port")
        << u"Error: unable to start container \"98061fc3585f\": from slirp4netns while setting up "
           u"port redirection: map[desc:bad request: add_hostfwd: slirp_add_hostfwd failed]"_s
        << int(F::PortInUse);
    // A start whose own `runc start` exit podman's service lost, tried again: it had started.
    QTest::newRow("podman already running")
        << u"time=\"2026-12-02T16:16:54Z\" level=error msg=\"cannot start an already running "
           u"container\"\nError: unable to start container \"e864dd547d1b\": `/usr/bin/runc start "
           u"e864dd547d1b` failed: exit status 1"_s
        << int(F::AlreadyRunning);
    QTest::newRow("docker port") << u"docker: Error response from daemon: driver failed "
                                    u"programming external connectivity on endpoint x: "
                                    "Bind for 127.0.0.1:40022 failed: port is already allocated."_s
                                 << int(F::PortInUse);
    QTest::newRow("podman no container")
        << u"Error: no container with name or ID \"x\" found: no such container"_s
        << int(F::NoSuchContainer);
    QTest::newRow("docker no container")
        << u"Error response from daemon: No such container: x"_s << int(F::NoSuchContainer);
    QTest::newRow("podman volume")
        << u"Error: volume with name zzv already exists: volume already exists"_s
        << int(F::VolumeExists);
    QTest::newRow("podman network")
        << u"Error response from daemon: network name cardhour-net-x already used: network "
           u"already exists"_s
        << int(F::NetworkExists);
    QTest::newRow("docker network")
        << u"Error response from daemon: network with name cardhour-net-x already exists"_s
        << int(F::NetworkExists);
    QTest::newRow("other") << u"Error: OCI runtime error: runc create failed"_s << int(F::Other);
    QTest::newRow("empty") << QString() << int(F::Other);
}

void TestCliDialect::classify()
{
    QFETCH(QString, err);
    QFETCH(int, failure);
    QCOMPARE(int(cli::classify(err)), failure);
}

void TestCliDialect::engineArgs()
{
    QCOMPARE(cli::forceRemoveArgs(cli::Engine::Podman, {u"a"_s, u"b"_s}),
             (QStringList{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s, u"a"_s, u"b"_s}));
    QCOMPARE(cli::forceRemoveArgs(cli::Engine::Docker, {u"a"_s}),
             (QStringList{u"rm"_s, u"-f"_s, u"a"_s}));
    QCOMPARE(cli::infoArgs(cli::Engine::Docker).last(), u"{{json .}}"_s);
    QCOMPARE(cli::infoArgs(cli::Engine::Podman).last(), u"json"_s);
    QCOMPARE(cli::engineName(cli::Engine::Docker), u"docker"_s);
    // Real cards: CDI devices for podman, one quoted --gpus list for docker, nothing for none.
    QCOMPARE(
        cli::gpuDeviceArgs(cli::Engine::Podman, {2, 5}),
        (QStringList{u"--device"_s, u"nvidia.com/gpu=2"_s, u"--device"_s, u"nvidia.com/gpu=5"_s}));
    QCOMPARE(cli::gpuDeviceArgs(cli::Engine::Docker, {2, 5}),
             (QStringList{u"--gpus"_s, u"\"device=2,5\""_s}));
    QVERIFY(cli::gpuDeviceArgs(cli::Engine::Podman, {}).isEmpty());
}

void TestCliDialect::sizes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("bytes");
    QTest::newRow("bytes") << u"0B"_s << 0LL;
    QTest::newRow("kB") << u"593.9kB"_s << 593900LL;
    QTest::newRow("KiB") << u"921.6KiB"_s << 943718LL;
    QTest::newRow("MB") << u"1.712MB"_s << 1712000LL;
    QTest::newRow("GiB") << u" 2GiB "_s << 2147483648LL;
    QTest::newRow("not a size") << u"--"_s << -1LL;
    QTest::newRow("no unit") << u"12"_s << -1LL;
}

void TestCliDialect::sizes()
{
    QFETCH(QString, text);
    QFETCH(qint64, bytes);
    QCOMPARE(cli::parseSize(text), bytes);
}

void TestCliDialect::stats()
{
    // podman, with statsArgs()'s format: raw counters.
    const QByteArray podman = "23499f9f3303 263468963 1712128 18956156928\n"
                              "8f8911853595 9438577085 921600 1073741824\n"
                              "garbage line\n";
    const QHash<QString, cli::StatsLine> p = cli::parseStats(cli::Engine::Podman, podman);
    QCOMPARE(p.size(), 2);
    QCOMPARE(p.value(u"8f8911853595"_s).cpuNanos, 9438577085LL);
    QCOMPARE(p.value(u"8f8911853595"_s).memoryBytes, 921600LL);
    QCOMPARE(p.value(u"8f8911853595"_s).memoryLimitBytes, 1073741824LL);
    // docker: percentages and sizes for people.
    const QByteArray docker = "8990324b7523\t83.28%\t921.6KiB / 1GiB\n6d06e089e0c9\t--\t-- / --\n";
    const QHash<QString, cli::StatsLine> d = cli::parseStats(cli::Engine::Docker, docker);
    QCOMPARE(d.size(), 1);
    QCOMPARE(d.value(u"8990324b7523"_s).cpuNanos, -1LL);
    QCOMPARE(d.value(u"8990324b7523"_s).cpuPercent, 83.28);
    QCOMPARE(d.value(u"8990324b7523"_s).memoryLimitBytes, 1073741824LL);
}

void TestCliDialect::listeningPorts()
{
    // /proc/net/tcp then /proc/net/tcp6 of a box: sshd on 22 (all addresses), a notebook on
    // 127.0.0.1:8888, an established connection to 8888 and one in TIME_WAIT, which are not
    // listening; the header lines are skipped.
    const QByteArray tables =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
        "   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
        "   1: 0100007F:22B8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
        "   2: 0100007F:D431 0100007F:22B8 01 00000000:00000000 00:00000000 00000000     0\n"
        "   3: 0100007F:1F90 0100007F:C350 06 00000000:00000000 03:00001770 00000000     0\n"
        "  sl  local_address                         remote_address                        st\n"
        "   0: 00000000000000000000000000000000:1A0B 00000000000000000000000000000000:0000 0A "
        "00000000:00000000 00:00000000 00000000     0\n";
    QCOMPARE(cli::listeningPorts(tables), QSet<int>({22, 8888, 6667}));
    QCOMPARE(cli::listeningPorts({}), QSet<int>());
    QCOMPARE(cli::listeningPorts("cat: /proc/net/tcp6: No such file or directory\n"), QSet<int>());
}

void TestCliDialect::establishedConnections()
{
    // A box's tables: sshd listening on 22 with two sessions in (one over IPv6), the notebook's
    // forward (sshd to 127.0.0.1:8888: the notebook's side is local port 8888, sshd's side is
    // not), one session ending (TIME_WAIT) and one the box opened to the outside (local port
    // 51234), which are not connections into it.
    const QByteArray tables =
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
        "   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
        "   1: 6402000A:0016 0202000A:A1B2 01 00000000:00000000 00:00000000 00000000     0\n"
        "   2: 0100007F:22B8 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0\n"
        "   3: 0100007F:D431 0100007F:22B8 01 00000000:00000000 00:00000000 00000000     0\n"
        "   4: 6402000A:0016 0202000A:A1B3 06 00000000:00000000 03:00001770 00000000     0\n"
        "   5: 6402000A:C822 08080808:0050 01 00000000:00000000 00:00000000 00000000     0\n"
        "  sl  local_address                         remote_address                        st\n"
        "   0: 0000000000000000FFFF00006402000A:0016 0000000000000000FFFF00000202000A:B000 01 "
        "00000000:00000000 00:00000000 00000000     0\n";
    QCOMPARE(cli::establishedTo(tables, {22}), 2);
    QCOMPARE(cli::establishedTo(tables, {22, 8888}), 3);
    QCOMPARE(cli::establishedTo(tables, {8888}), 1);
    QCOMPARE(cli::establishedTo({}, {22}), 0);
    QCOMPARE(cli::establishedTo("cat: /proc/net/tcp6: No such file or directory\n", {22}), 0);
}

QTEST_GUILESS_MAIN(TestCliDialect)
#include "tst_clidialect.moc"
