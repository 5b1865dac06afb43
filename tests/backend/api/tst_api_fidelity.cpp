// A sandbox box read the way scripts written for real NVIDIA hosts read one, with real
// containers: the lent cards' variables in every session, nvidia-smi's CSV and XML and the NVML
// stand-in (through ctypes, tests/backend/gpu/fidelity_check.py) agreeing with each other and
// with GET /v1/instances/{id}/metrics within one sample, a CPU loop raising utilisation in all
// three, the NVLink topology of the card type, and an sshd in which ssh-audit fails nothing.
#include "PodmanApiTest.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiFidelity : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void boxReadsLikeARentedHost();

private:
    // The cards as csv, xml and NVML agree on them, from the checker in the box.
    QJsonObject readCards(const QJsonObject &running, const QString &knownHosts, const KeyPair &key,
                          bool errors = false);
};

QJsonObject TestApiFidelity::readCards(const QJsonObject &running, const QString &knownHosts,
                                       const KeyPair &key, bool errors)
{
    const Cmd r = ssh(running, knownHosts, key,
                      u"python3 /tmp/fidelity_check.py box"_s + (errors ? u" --errors"_s : u""_s));
    if (!r.ok()) {
        qWarning("fidelity_check in the box: %s", qPrintable(r.describe()));
        return {};
    }
    return QJsonDocument::fromJson(r.out).object();
}

namespace {
double meanUtilization(const QJsonObject &reading)
{
    const QJsonArray gpus = reading.value(u"gpus"_s).toArray();
    double sum = 0;
    for (const QJsonValue &g : gpus)
        sum += g.toObject().value(u"utilization_pct"_s).toDouble();
    return gpus.isEmpty() ? -1 : sum / gpus.size();
}

// Whether the endpoint's sample of the moment the box read (within one sampling interval) has
// the numbers the box read: every card within the rounding nvidia-smi and NVML apply (whole %,
// MiB and degrees; power to 0.1 W in the sample).
bool matchesASample(const QJsonObject &reading, const QJsonArray &samples)
{
    const QJsonArray cards = reading.value(u"gpus"_s).toArray();
    const double readAt = reading.value(u"updated_at_unix"_s).toDouble();
    for (const QJsonValue &v : samples) {
        const QJsonArray gpus = v.toObject().value(u"gpus"_s).toArray();
        const QDateTime at =
            QDateTime::fromString(v.toObject().value(u"at"_s).toString(), Qt::ISODateWithMs);
        if (gpus.size() != cards.size() || !at.isValid()
            || std::abs(at.toMSecsSinceEpoch() / 1000.0 - readAt) > 1.0)
            continue;
        bool all = true;
        for (qsizetype i = 0; i < cards.size() && all; ++i) {
            const QJsonObject c = cards.at(i).toObject(), s = gpus.at(i).toObject();
            all = std::abs(c.value(u"utilization_pct"_s).toDouble()
                           - s.value(u"utilization_pct"_s).toDouble())
                    <= 0.55
                && std::abs(c.value(u"memory_used_mib"_s).toDouble()
                            - s.value(u"memory_used_mib"_s).toDouble())
                    <= 1.0
                && std::abs(c.value(u"temperature_c"_s).toDouble()
                            - s.value(u"temperature_c"_s).toDouble())
                    <= 0.55
                && std::abs(c.value(u"power_w"_s).toDouble() - s.value(u"power_w"_s).toDouble())
                    <= 0.06
                && c.value(u"memory_total_mib"_s).toDouble()
                    == s.value(u"memory_total_mib"_s).toDouble();
        }
        if (all)
            return true;
    }
    return false;
}
} // namespace

void TestApiFidelity::boxReadsLikeARentedHost()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"fidelity@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"fidelity"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    const QString id = create(*sim, token, {keyId},
                              QJsonObject{{u"gpu_type"_s, u"h100-80g"_s}, {u"gpu_count"_s, 2}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    const QString knownHosts = knownHostsFor(running);

    // ---- the lent cards' variables: in a command's session and in a login shell
    QStringList lent;
    for (const QJsonValue &card : running.value(u"gpu_cards"_s).toArray())
        lent << QString::number(card.toInt());
    QCOMPARE(lent.size(), 2);
    const Cmd env = ssh(running, knownHosts, key,
                        u"echo $CUDA_VISIBLE_DEVICES/$NVIDIA_VISIBLE_DEVICES/$NCCL_SOCKET_IFNAME/"
                        "$NCCL_IB_DISABLE; su - root -c 'echo $CUDA_VISIBLE_DEVICES'"_s);
    QVERIFY2(env.ok(), qPrintable(env.describe()));
    QCOMPARE(QString::fromUtf8(env.out).trimmed(), u"0,1/%1/lo/1\n0,1"_s.arg(lent.join(u',')));

    // ---- topology as the card type has it, the library where the loader looks
    const Cmd topo = ssh(running, knownHosts, key, u"nvidia-smi topo -m; ldconfig -p"_s);
    QVERIFY2(topo.ok(), qPrintable(topo.describe()));
    QVERIFY2(topo.out.contains("GPU0\t X \tNV18") && topo.out.contains("SIMULATED"),
             topo.out.constData());
    QVERIFY2(topo.out.contains("libnvidia-ml.so.1"), topo.out.constData());

    // ---- csv, xml and NVML agree, and with the provider's metrics
    QFile script(QStringLiteral(CARDHOUR_FIDELITY_SCRIPT));
    QVERIFY(script.open(QIODevice::ReadOnly));
    const Cmd put = ssh(running, knownHosts, key,
                        u"echo %1 | base64 -d > /tmp/fidelity_check.py && echo ok"_s.arg(
                            QString::fromLatin1(script.readAll().toBase64())));
    QVERIFY2(put.ok(), qPrintable(put.describe()));
    const QString metrics = u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z"_s.arg(id);
    QTRY_VERIFY_WITH_TIMEOUT(
        !sim->authedGet(token, metrics).value(u"samples"_s).toArray().isEmpty(), 15000);
    const QJsonObject idle = readCards(running, knownHosts, key, true);
    QCOMPARE(idle.value(u"gpus"_s).toArray().size(), 2);
    QVERIFY2(matchesASample(idle, sim->authedGet(token, metrics).value(u"samples"_s).toArray()),
             QJsonDocument(idle).toJson().constData());

    // ---- real work in the box raises utilisation in all three readers
    const double before = meanUtilization(idle);
    const Cmd burn = ssh(
        running, knownHosts, key,
        u"for i in $(seq $(( $(nproc) * 2 ))); do setsid timeout 60 sh -c 'while :; do :; done' "
        "</dev/null >/dev/null 2>&1 & done; echo started"_s);
    QVERIFY2(burn.ok(), qPrintable(burn.describe()));
    // A deadline of wall time: each reading is an ssh round trip of seconds on a busy machine,
    // which QTRY's count of 50 ms steps does not see.
    QJsonObject busy;
    const QDeadlineTimer deadline(45'000);
    do {
        busy = readCards(running, knownHosts, key);
    } while (meanUtilization(busy) < before + 15 && !deadline.hasExpired());
    QVERIFY2(meanUtilization(busy) >= before + 15,
             qPrintable(u"idle %1 %, busy: %2"_s.arg(before).arg(
                 QString::fromUtf8(QJsonDocument(busy).toJson()))));
    QVERIFY2(matchesASample(busy, sim->authedGet(token, metrics).value(u"samples"_s).toArray()),
             QJsonDocument(busy).toJson().constData());
    QVERIFY(ssh(running, knownHosts, key, u"pkill -x timeout; echo stopped"_s).ok());

    // ---- ssh-audit fails nothing in the box's sshd
    const QString audit = QStandardPaths::findExecutable(u"ssh-audit"_s);
    QVERIFY2(!audit.isEmpty(), "ssh-audit is not installed (scripts/deps installs it)");
    const QJsonObject sshInfo = running.value(u"ssh"_s).toObject();
    const Cmd report = run(audit,
                           {u"-n"_s, u"-p"_s, QString::number(sshInfo.value(u"port"_s).toInt()),
                            sshInfo.value(u"host"_s).toString()});
    QVERIFY2(report.started && report.out.contains("(gen) banner"), qPrintable(report.describe()));
    QVERIFY2(!report.out.contains("[fail]"), report.out.constData());

    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
    QCOMPARE(waitFor(*sim, token, id, u"terminated"_s).value(u"state"_s).toString(),
             u"terminated"_s);
}

QTEST_GUILESS_MAIN(TestApiFidelity)
#include "tst_api_fidelity.moc"
