// cardhourctl's contract with scripts: every command's --json output fits its schema in
// cardhourctl/schema (the API's objects of backend-sim/api/openapi.yaml, checked by
// cardhourctl/schema/validate.py with python3-jsonschema), and every exit status 0..6 comes
// out where cardhourctl/README.md says. Real cardhour-sim (in-process runtime, test clock).
#include "CtlProcess.h"
#include "SimProcess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::test::SimProcess;

namespace {

const QString kPassword = u"correct horse battery"_s;
using Run = cardhour::test::CtlRun;

} // namespace

class TestCardhourctlJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everyJsonOutputFitsItsSchema();
    void everySchemaIsUsed();
    void exitCodes_data();
    void exitCodes();
    void missingKeyFileIsAUsageError();

private:
    Run ctl(const QStringList &arguments, const QByteArray &input = {},
            const QString &service = {});
    QString schemaErrors(const QString &schema, const QString &json, bool lines = false);
    SimProcess m_sim;
    QTemporaryDir m_data;
    QString m_service;
    QStringList m_schemasUsed;
};

void TestCardhourctlJson::initTestCase()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    QVERIFY(m_data.isValid());
    QVERIFY2(m_sim.start({u"--test-clock"_s, u"--runtime"_s, u"inprocess"_s, u"--allow-chaos"_s}),
             qPrintable(m_sim.lastError()));
    m_service = u"cardhourctl-json-%1"_s.arg(QCoreApplication::applicationPid());
}

Run TestCardhourctlJson::ctl(const QStringList &arguments, const QByteArray &input,
                             const QString &service)
{
    return cardhour::test::runCtl(
        arguments,
        {{u"CARDHOUR_PROVIDER_URL"_s, m_sim.baseUrl().toString()},
         {u"CARDHOUR_KEYCHAIN_SERVICE"_s, service.isEmpty() ? m_service : service},
         {u"XDG_DATA_HOME"_s, m_data.path()}},
        input);
}

QString TestCardhourctlJson::schemaErrors(const QString &schema, const QString &json, bool lines)
{
    m_schemasUsed.append(schema);
    const QString path = m_data.filePath(u"output.json"_s);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return file.errorString();
    file.write(json.toUtf8());
    file.close();
    QProcess check;
    QStringList args{QStringLiteral(CARDHOUR_SCHEMA_DIR "/validate.py"), schema, path};
    if (lines)
        args.append(u"--lines"_s);
    check.start(u"python3"_s, args);
    if (!check.waitForFinished(60000))
        return u"validate.py did not finish"_s;
    if (check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0)
        return {};
    return QString::fromUtf8(check.readAllStandardError() + check.readAllStandardOutput());
}

void TestCardhourctlJson::everyJsonOutputFitsItsSchema()
{
    QVERIFY(!m_sim.signUp(u"json@example.com"_s, kPassword).isEmpty());
    struct Step
    {
        QStringList arguments;
        QString schema;
    };
    const auto check = [&](const QStringList &arguments, const QString &schema) {
        const Run r =
            ctl(arguments + QStringList{u"--json"_s},
                arguments.first() == u"login"_s ? kPassword.toUtf8() + '\n' : QByteArray());
        if (r.code != 0)
            return QString::fromUtf8(r.describe());
        return schemaErrors(schema, r.out);
    };
    QCOMPARE(check({u"login"_s, u"--email"_s, u"json@example.com"_s}, u"login.json"_s), QString());
    const QList<Step> before = {
        {{u"whoami"_s}, u"whoami.json"_s},
        {{u"gpus"_s}, u"gpus.json"_s},
        {{u"images"_s}, u"images.json"_s},
        {{u"datasets"_s}, u"datasets.json"_s},
        {{u"keys"_s, u"generate"_s, u"local-only"_s, u"--no-upload"_s}, u"key-local.json"_s},
        {{u"keys"_s, u"generate"_s, u"json"_s}, u"ssh-key.json"_s},
        {{u"keys"_s, u"list"_s}, u"keys-list.json"_s},
        {{u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"2"_s, u"--name"_s, u"j1"_s,
          u"--wait"_s},
         u"instance.json"_s},
        {{u"ls"_s}, u"instances.json"_s},
        {{u"show"_s, u"j1"_s}, u"instance.json"_s},
        {{u"wait"_s, u"j1"_s, u"--state"_s, u"running"_s}, u"instance.json"_s},
        {{u"top"_s}, u"top.json"_s},
        {{u"bill"_s}, u"bill.json"_s},
        {{u"topup"_s, u"5"_s}, u"topup.json"_s},
        {{u"ledger"_s}, u"ledger.json"_s},
        {{u"snapshot"_s, u"create"_s, u"j1"_s, u"--name"_s, u"js"_s, u"--wait"_s},
         u"snapshot.json"_s},
        {{u"snapshot"_s, u"ls"_s}, u"snapshots.json"_s},
        {{u"stop"_s, u"j1"_s}, u"instance.json"_s},
        {{u"wait"_s, u"j1"_s, u"--state"_s, u"stopped"_s}, u"instance.json"_s},
        {{u"start"_s, u"j1"_s}, u"instance.json"_s},
        // Rehearsed failures (the client's sandbox allows them): armed, listed, cleared.
        {{u"chaos"_s, u"add"_s, u"fail-launch"_s, u"--reason"_s, u"json rehearsal"_s},
         u"chaos-fault.json"_s},
        {{u"chaos"_s, u"ls"_s}, u"chaos-faults.json"_s},
        {{u"chaos"_s, u"clear"_s, u"--all"_s}, u"chaos-faults.json"_s},
    };
    for (const Step &step : before) {
        const QString errors = check(step.arguments, step.schema);
        QVERIFY2(errors.isEmpty(), qPrintable(step.arguments.join(u' ') + u": "_s + errors));
    }

    // A restore, then the snapshot removed and both hosts terminated.
    Run r = ctl({u"snapshot"_s, u"ls"_s, u"--json"_s});
    const QString snapshot = r.json().array().first()[u"id"_s].toString();
    QVERIFY(!snapshot.isEmpty());
    r = ctl(
        {u"launch"_s, u"--snapshot"_s, snapshot, u"--name"_s, u"j2"_s, u"--wait"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"instance.json"_s, r.out), QString());
    QCOMPARE(r.json()[u"snapshot_id"_s].toString(), snapshot);
    QCOMPARE(r.json()[u"gpu_count"_s].toInt(), 2); // the snapshot's, not --cards' default
    QCOMPARE(check({u"rm"_s, u"j2"_s, u"--yes"_s}, u"instance.json"_s), QString());
    QCOMPARE(check({u"snapshot"_s, u"rm"_s, snapshot}, u"snapshot.json"_s), QString());
    QCOMPARE(check({u"rm"_s, u"j1"_s, u"--yes"_s}, u"instance.json"_s), QString());

    // The model library: a file uploaded (the window's own uploader), listed, removed.
    QTemporaryDir models;
    QFile weights(models.filePath(u"weights.bin"_s));
    QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write(QByteArray(3000, 'w')) == 3000);
    weights.close();
    QCOMPARE(check({u"models"_s, u"upload"_s, weights.fileName(), u"--name"_s, u"jm"_s},
                   u"model.json"_s),
             QString());
    QCOMPARE(check({u"models"_s}, u"models.json"_s), QString());
    QCOMPARE(check({u"models"_s, u"rm"_s, u"jm"_s}, u"model.json"_s), QString());

    // events: one JSON object per line.
    r = ctl({u"events"_s, u"--count"_s, u"1"_s, u"--timeout"_s, u"20"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"event.json"_s, r.out, true), QString());

    // A document that does not fit is refused: the check can fail.
    QVERIFY(!schemaErrors(u"instance.json"_s, u"{\"id\": 1}"_s).isEmpty());
    QVERIFY(!schemaErrors(u"gpus.json"_s, u"[{\"id\": \"x\", \"vram_gib\": 24}]"_s).isEmpty());
}

void TestCardhourctlJson::everySchemaIsUsed()
{
    // forward, open, cp and ssh-config need an SSH address, so real containers:
    // tst_cardhourctl_files checks them.
    QStringList unchecked;
    for (const QString &name :
         QDir(QStringLiteral(CARDHOUR_SCHEMA_DIR)).entryList({u"*.json"_s}, QDir::Files)) {
        if (!m_schemasUsed.contains(name)
            && !QStringList{u"forward.json"_s, u"open.json"_s, u"cp.json"_s, u"ssh-config.json"_s}
                    .contains(name))
            unchecked.append(name);
    }
    QVERIFY2(unchecked.isEmpty(), qPrintable(unchecked.join(u", "_s)));
}

void TestCardhourctlJson::exitCodes_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("service"); // a suffix for another keychain service
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("0 done") << QStringList{u"gpus"_s} << QString() << 0 << QString();
    QTest::newRow("1 provider unreachable")
        << QStringList{u"ls"_s, u"--provider"_s, u"http://127.0.0.1:1"_s} << QString() << 1
        << u"cardhourctl"_s;
    QTest::newRow("1 provider refused") << QStringList{u"launch"_s, u"--gpu"_s, u"no-such-gpu"_s}
                                        << QString() << 1 << u"no-such-gpu"_s;
    QTest::newRow("2 usage") << QStringList{u"snapshot"_s, u"polish"_s} << QString() << 2
                             << u"polish"_s;
    QTest::newRow("2 cp without a host")
        << QStringList{u"cp"_s, u"a"_s, u"b"_s} << QString() << 2 << u"names a host"_s;
    QTest::newRow("3 not logged in")
        << QStringList{u"ls"_s} << u"-nobody"_s << 3 << u"cardhourctl login"_s;
    QTest::newRow("4 no such host")
        << QStringList{u"show"_s, u"no-such-host"_s} << QString() << 4 << u"no-such-host"_s;
    QTest::newRow("4 no such snapshot")
        << QStringList{u"snapshot"_s, u"rm"_s, u"no-such-snapshot"_s} << QString() << 4
        << u"no-such-snapshot"_s;
    QTest::newRow("4 no app to open")
        << QStringList{u"open"_s, u"no-such-host"_s} << QString() << 4 << u"no-such-host"_s;
    QTest::newRow("5 refused for money")
        << QStringList{u"launch"_s, u"--gpu"_s, u"rtx4090"_s} << u"-broke"_s << 5 << QString();
    QTest::newRow("6 timed out") << QStringList{u"events"_s,  u"--type"_s, u"never"_s,
                                                u"--count"_s, u"1"_s,      u"--timeout"_s,
                                                u"0.5"_s}
                                 << QString() << 6 << QString();
}

void TestCardhourctlJson::exitCodes()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, service);
    QFETCH(int, code);
    QFETCH(QString, message);
    if (service == u"-broke"_s) {
        // An account without money: its trial credit spent on the test clock.
        if (ctl({u"whoami"_s}, {}, m_service + service).code != 0) {
            QVERIFY(!m_sim.signUp(u"broke@example.com"_s, kPassword).isEmpty());
            Run r = ctl({u"login"_s, u"--email"_s, u"broke@example.com"_s},
                        kPassword.toUtf8() + '\n', m_service + service);
            QVERIFY2(r.code == 0, r.describe());
            // Until it runs (billed once its hardware check passed): then the clock moves.
            r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"4"_s, u"--wait"_s}, {},
                    m_service + service);
            QVERIFY2(r.code == 0, r.describe());
            QVERIFY(m_sim.advance(24 * 3600.0));
            QTRY_VERIFY_WITH_TIMEOUT(ctl({u"bill"_s, u"--json"_s}, {}, m_service + service)
                                             .json()[u"balance_micros"_s]
                                             .toInteger()
                                         <= 0,
                                     20000);
        }
    }
    const Run r = ctl(arguments, {}, service.isEmpty() ? QString() : m_service + service);
    QVERIFY2(r.code == code, r.describe());
    QVERIFY2(r.err.contains(message), r.describe());
}

void TestCardhourctlJson::missingKeyFileIsAUsageError()
{
    const Run r = ctl({u"keys"_s, u"upload"_s, u"/missing/id_ed25519.pub"_s});
    QVERIFY2(r.code == 2, r.describe());
    QVERIFY2(r.err.contains(u"/missing/id_ed25519.pub: no such file"_s), r.describe());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCardhourctlJson)
#include "tst_cardhourctl_json.moc"
