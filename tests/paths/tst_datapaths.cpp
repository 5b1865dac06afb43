// DataPaths: one layout on disk for the client and the sandbox, and the move from the layout
// before issue 12 (<data>/CardHour/CardHour/ssh, <data>/CardHour/cardhour-sim/sandbox). Every
// case runs in a scratch XDG_DATA_HOME; the sandbox's state is written and read by the real
// cardhour-sim (SimProcess, `cardhour-sim datasets ...`).
#include "DataPaths.h"
#include "SimProcess.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLockFile>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using cardhour::DataPaths;
using cardhour::test::SimProcess;

namespace {

constexpr auto kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

// Owner, group and other bits (Qt's "user" bits only repeat the owner's for the current user).
QFileDevice::Permissions modeOf(const QString &path)
{
    return QFile::permissions(path) & QFileDevice::Permissions::fromInt(0x7077);
}

struct Cmd
{
    int exitCode = -1;
    QString out;
    QString err;
};

// cardhour-sim ARGS..., with this process's environment (so its XDG_DATA_HOME).
Cmd runSim(const QStringList &arguments)
{
    QProcess process;
    process.start(SimProcess::binaryPath(), arguments);
    Cmd cmd;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        cmd.err = u"cardhour-sim did not finish"_s;
        return cmd;
    }
    cmd.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    cmd.out = QString::fromUtf8(process.readAllStandardOutput());
    cmd.err = QString::fromUtf8(process.readAllStandardError());
    return cmd;
}

bool writeFile(const QString &path, const QByteArray &bytes,
               QFileDevice::Permissions permissions = {})
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return false;
    file.close();
    return permissions == QFileDevice::Permissions() || file.setPermissions(permissions);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every path under `root` with its link target, size and modification time: what "nothing
// changed" compares (folders without their time: the migration's lock file touches the root).
QStringList snapshotTree(const QString &root)
{
    QStringList lines;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        lines << u"%1 %2 %3 %4"_s.arg(info.filePath())
                     .arg(info.isSymLink() ? info.symLinkTarget() : QString())
                     .arg(info.isDir() ? 0 : info.size())
                     .arg(info.isDir() ? 0 : info.lastModified().toMSecsSinceEpoch());
    }
    lines.sort();
    return lines;
}

bool listsDataset(const cardhour::test::Reply &reply, const QString &name)
{
    const QJsonArray all =
        reply.json.isArray() ? reply.array() : reply.value(u"datasets"_s).toArray();
    for (const QJsonValue &value : all) {
        if (value.toObject().value(u"name"_s).toString() == name)
            return true;
    }
    return false;
}

} // namespace

class TestDataPaths : public QObject
{
    Q_OBJECT

private:
    QString dataHome() const { return m_home->path() + u"/data"_s; }
    QString root() const { return dataHome() + u"/CardHour"_s; }
    QString oldSsh() const { return root() + u"/CardHour/ssh"_s; }
    QString oldSandbox() const { return root() + u"/cardhour-sim/sandbox"_s; }
    QString newSsh() const { return root() + u"/ssh"_s; }
    QString newSandbox() const { return root() + u"/sandbox"_s; }
    QString datasetFolder() const { return m_home->path() + u"/my-dataset"_s; }

    // What the client before issue 12 left in its folder: a generated key (0600) with its index,
    // and the managed known_hosts.
    void writeOldClientFiles()
    {
        QVERIFY(writeFile(oldSsh() + u"/id_ed25519_work"_s, "PRIVATE KEY\n", kOwnerOnly));
        QVERIFY(writeFile(oldSsh() + u"/id_ed25519_work.pub"_s, "ssh-ed25519 AAAA work\n"));
        QVERIFY(writeFile(oldSsh() + u"/keys.json"_s,
                          u"{\"keys\":[{\"private_path\":\"%1/id_ed25519_work\","
                          "\"generated\":true}]}"_s.arg(oldSsh())
                              .toUtf8()));
        QVERIFY(writeFile(oldSsh() + u"/known_hosts"_s, "[127.0.0.1]:2222 ssh-ed25519 AAAAhost\n"));
        QVERIFY(QFile::setPermissions(oldSsh(), kOwnerOnly | QFileDevice::ExeOwner));
    }

    // What cardhour-sim before issue 12 left when started alone: its SQLite with an account, and
    // a dataset added by `cardhour-sim datasets add` (both written by the real binary).
    void writeOldSandbox()
    {
        QVERIFY(QDir().mkpath(oldSandbox()));
        SimProcess sim;
        QVERIFY2(sim.start({}, oldSandbox()), qPrintable(sim.lastError()));
        QVERIFY2(!sim.signUp(u"alice@example.com"_s).isEmpty(), qPrintable(sim.lastError()));
        QVERIFY(sim.terminate());
        QVERIFY(writeFile(datasetFolder() + u"/train.csv"_s, "a,b\n1,2\n"));
        const Cmd added = runSim(
            {u"datasets"_s, u"add"_s, u"demo"_s, datasetFolder(), u"--data"_s, oldSandbox()});
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        QVERIFY(QFileInfo::exists(oldSandbox() + u"/cardhour-sim.sqlite"_s));
        QVERIFY(QFileInfo::exists(oldSandbox() + u"/datasets.json"_s));
    }

    // The provider on the default data directory knows alice and lists the dataset.
    void checkSandboxServesOldState()
    {
        SimProcess sim;
        QVERIFY2(sim.startWithDefaultDataDir(), qPrintable(sim.lastError()));
        const cardhour::test::Reply login =
            sim.post(u"/v1/auth/login"_s,
                     QJsonObject{{u"email"_s, u"alice@example.com"_s},
                                 {u"password"_s, u"correct horse battery"_s}});
        QVERIFY2(login.status == 200, login.describe().constData());
        const QString token = login.value(u"token"_s).toString();
        const cardhour::test::Reply datasets = sim.authedGet(token, u"/v1/datasets"_s);
        QVERIFY2(datasets.status == 200, datasets.describe().constData());
        QVERIFY2(listsDataset(datasets, u"demo"_s), datasets.body.constData());
        QVERIFY(sim.terminate());
    }

    std::unique_ptr<QTemporaryDir> m_home;

private Q_SLOTS:
    void initTestCase()
    {
#if !defined(Q_OS_UNIX) || defined(Q_OS_DARWIN)
        QSKIP("these cases steer QStandardPaths through XDG_DATA_HOME (Linux and other XDG "
              "systems)");
#endif
        QVERIFY2(!SimProcess::binaryPath().isEmpty(),
                 "CARDHOUR_SIM_BIN is not set (run via ctest)");
    }

    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
        QVERIFY(QDir().mkpath(dataHome()));
        // Read by QStandardPaths here and inherited by every cardhour-sim started below.
        qputenv("XDG_DATA_HOME", QFile::encodeName(dataHome()));
    }

    void cleanup()
    {
        qunsetenv("XDG_DATA_HOME");
        m_home.reset();
    }

    void pathsAreOneFolderWhateverTheApplicationName()
    {
        const QString before = QCoreApplication::applicationName();
        QCOMPARE(DataPaths::rootDir(), root());
        QCOMPARE(DataPaths::clientDataDir(), root());
        QCOMPARE(DataPaths::sshKeyDir(), newSsh());
        QCOMPARE(DataPaths::knownHostsPath(), newSsh() + u"/known_hosts"_s);
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());
        QCoreApplication::setApplicationName(u"cardhour-sim"_s);
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());
        QCOMPARE(DataPaths::sshKeyDir(), newSsh());
        QCoreApplication::setApplicationName(before);
        // The old places, as Qt's AppDataLocation named them for each program.
        QCOMPARE(DataPaths::oldSshKeyDir(), oldSsh());
        QCOMPARE(DataPaths::oldSandboxDataDir(), oldSandbox());
        QCOMPARE(QCoreApplication::applicationName(), before);
        // Nothing exists, so nothing is done and nothing is created.
        QVERIFY(DataPaths::migrateOldLayout().isEmpty());
        QVERIFY(!QFileInfo::exists(root()));
    }

    void movesTheOldLayout()
    {
        writeOldClientFiles();
        writeOldSandbox();
        const QByteArray sqlite = readFile(oldSandbox() + u"/cardhour-sim.sqlite"_s);

        const QStringList notes = DataPaths::migrateOldLayout();
        QCOMPARE(notes.size(), 2);
        QVERIFY2(notes.at(0).startsWith(u"moved the client's SSH folder"_s),
                 qPrintable(notes.at(0)));
        QVERIFY2(notes.at(1).startsWith(u"moved the sandbox's data"_s), qPrintable(notes.at(1)));

        // The client's files, with their permissions.
        QCOMPARE(readFile(newSsh() + u"/id_ed25519_work"_s), "PRIVATE KEY\n"_ba);
        QCOMPARE(modeOf(newSsh() + u"/id_ed25519_work"_s), kOwnerOnly);
        QCOMPARE(modeOf(newSsh()), kOwnerOnly | QFileDevice::ExeOwner);
        QCOMPARE(readFile(newSsh() + u"/known_hosts"_s),
                 "[127.0.0.1]:2222 ssh-ed25519 AAAAhost\n"_ba);
        QCOMPARE(DataPaths::knownHostsPath(), newSsh() + u"/known_hosts"_s);
        // The sandbox's state, whole.
        QCOMPARE(readFile(newSandbox() + u"/cardhour-sim.sqlite"_s), sqlite);
        QVERIFY(QFileInfo::exists(newSandbox() + u"/datasets.json"_s));
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());
        // Links at the old places keep paths written before the move working.
        QVERIFY(QFileInfo(oldSsh()).isSymLink());
        QCOMPARE(readFile(oldSsh() + u"/id_ed25519_work"_s), "PRIVATE KEY\n"_ba);
        QVERIFY(QFileInfo(oldSandbox()).isSymLink());

        // The real provider, with no --data, finds the account and the dataset.
        const Cmd listed = runSim({u"datasets"_s, u"list"_s});
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        QVERIFY2(listed.out.contains(u"demo"_s), qPrintable(listed.out));
        QVERIFY2(!listed.err.contains(u"cardhour-sim: "_s), qPrintable(listed.err)); // none left
        checkSandboxServesOldState();

        // Once only: a second run changes nothing and says nothing.
        const QStringList before = snapshotTree(dataHome());
        QVERIFY(DataPaths::migrateOldLayout().isEmpty());
        QCOMPARE(snapshotTree(dataHome()), before);
    }

    void theProviderMovesTheOldSandboxAtItsStart()
    {
        writeOldSandbox();
        // `cardhour-sim datasets list` without --data: the move happens first, then the list.
        const Cmd listed = runSim({u"datasets"_s, u"list"_s});
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        QVERIFY2(listed.err.contains(u"cardhour-sim: moved the sandbox's data"_s),
                 qPrintable(listed.err));
        QVERIFY2(listed.out.contains(u"demo"_s), qPrintable(listed.out));
        QVERIFY(QFileInfo::exists(newSandbox() + u"/cardhour-sim.sqlite"_s));
        checkSandboxServesOldState();
    }

    void aRunWithDataLeavesTheDefaultPlacesAlone()
    {
        writeOldClientFiles();
        QTemporaryDir elsewhere;
        const Cmd listed = runSim({u"datasets"_s, u"list"_s, u"--data"_s, elsewhere.path()});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY(QFileInfo(oldSsh()).isDir() && !QFileInfo(oldSsh()).isSymLink());
        QVERIFY(!QFileInfo::exists(newSsh()));
    }

    void neverOverwritesTheNewPlaces()
    {
        writeOldClientFiles();
        QVERIFY(writeFile(oldSandbox() + u"/datasets.json"_s, "{\"datasets\":[]}\n"));
        QVERIFY(writeFile(newSsh() + u"/known_hosts"_s, "new\n"));
        QVERIFY(writeFile(newSandbox() + u"/cardhour-sim.sqlite"_s, "new ledger"));
        const QStringList before = snapshotTree(dataHome());

        const QStringList notes = DataPaths::migrateOldLayout();
        QVERIFY2(notes.size() == 3, qPrintable(notes.join(u'\n')));
        QVERIFY(notes.at(0).startsWith(u"left the client's SSH folder"_s));
        QVERIFY(notes.at(1).startsWith(u"left the sandbox's data"_s));
        QVERIFY(notes.at(2).contains(u"datasets list --data "_s + oldSandbox()));
        QCOMPARE(snapshotTree(dataHome()), before);
        QCOMPARE(readFile(newSsh() + u"/known_hosts"_s), "new\n"_ba);
        QCOMPARE(DataPaths::sshKeyDir(), newSsh());
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());
    }

    void aSandboxHeldByARunningProviderStaysAndIsReadThere()
    {
        writeOldSandbox();
        SimProcess running;
        QVERIFY2(running.start({}, oldSandbox()), qPrintable(running.lastError()));

        const QStringList notes = DataPaths::migrateOldLayout();
        QCOMPARE(notes.size(), 1);
        QVERIFY2(notes.at(0).contains(u"is used there: a running cardhour-sim (pid "_s),
                 qPrintable(notes.at(0)));
        QVERIFY(QFileInfo(oldSandbox()).isDir() && !QFileInfo(oldSandbox()).isSymLink());
        QVERIFY(!QFileInfo::exists(newSandbox()));
        // Read where it is: the client's launcher and a provider started alone use it.
        QCOMPARE(DataPaths::sandboxDataDir(), oldSandbox());

        // Once that provider is gone, the next start moves it (its lock file does not travel).
        QVERIFY(running.terminate());
        const QStringList later = DataPaths::migrateOldLayout();
        QCOMPARE(later.size(), 1);
        QVERIFY2(later.at(0).startsWith(u"moved the sandbox's data"_s), qPrintable(later.at(0)));
        QVERIFY(!QFileInfo::exists(newSandbox() + u"/cardhour-sim.lock"_s));
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());
        checkSandboxServesOldState();
    }

    void aStaleLockDoesNotHoldTheSandbox()
    {
        QVERIFY(writeFile(oldSandbox() + u"/datasets.json"_s, "{\"datasets\":[]}\n"));
        // A lock file whose process is gone (pid far above any real one).
        QVERIFY(writeFile(oldSandbox() + u"/cardhour-sim.lock"_s,
                          "999999999\ncardhour-sim\n"_ba + QSysInfo::machineHostName().toUtf8()
                              + "\n"_ba));
        const QStringList notes = DataPaths::migrateOldLayout();
        QCOMPARE(notes.size(), 1);
        QVERIFY2(notes.at(0).startsWith(u"moved the sandbox's data"_s), qPrintable(notes.at(0)));
        QVERIFY(QFileInfo::exists(newSandbox() + u"/datasets.json"_s));
    }

    void copyKeepsTheTreeAndItsPermissions()
    {
        // The fall-back when rename fails (another file system), exercised directly.
        const QString from = m_home->path() + u"/from"_s;
        QVERIFY(writeFile(from + u"/id_ed25519"_s, "PRIVATE KEY\n", kOwnerOnly));
        QVERIFY(writeFile(from + u"/nested/deeper/file.txt"_s, "text"));
        QVERIFY(writeFile(from + u"/.hidden"_s, "hidden"));
        QVERIFY(QFile::link(from + u"/nested/deeper/file.txt"_s, from + u"/link"_s));
        QVERIFY(QFile::setPermissions(from, kOwnerOnly | QFileDevice::ExeOwner));
        const QString to = m_home->path() + u"/to"_s;
        QString error;
        QVERIFY2(DataPaths::copyDirTree(from, to, &error), qPrintable(error));
        QCOMPARE(readFile(to + u"/id_ed25519"_s), "PRIVATE KEY\n"_ba);
        QCOMPARE(modeOf(to + u"/id_ed25519"_s), kOwnerOnly);
        QCOMPARE(modeOf(to), kOwnerOnly | QFileDevice::ExeOwner);
        QCOMPARE(readFile(to + u"/nested/deeper/file.txt"_s), "text"_ba);
        QCOMPARE(readFile(to + u"/.hidden"_s), "hidden"_ba);
        QVERIFY(QFileInfo(to + u"/link"_s).isSymLink());

        // moveDir never replaces what exists.
        QVERIFY(!DataPaths::moveDir(from, to, &error));
        QVERIFY(error.contains(u"exists already"_s));
        QVERIFY(QFileInfo::exists(from + u"/id_ed25519"_s));
    }

    // README: `cardhour-sim datasets add NAME DIR` registers the dataset where the sandbox that
    // scripts/run, the client and `cardhour-sim` started alone read it.
    void theReadmeDatasetIsSeenByTheSandbox()
    {
        QVERIFY(writeFile(datasetFolder() + u"/train.csv"_s, "a,b\n1,2\n"));
        const Cmd added = runSim({u"datasets"_s, u"add"_s, u"demo"_s, datasetFolder()});
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        QVERIFY(QFileInfo::exists(newSandbox() + u"/datasets.json"_s));
        // The client's SandboxLauncher passes --data DataPaths::sandboxDataDir(): the same folder.
        QCOMPARE(DataPaths::sandboxDataDir(), newSandbox());

        SimProcess sim;
        QVERIFY2(sim.startWithDefaultDataDir(), qPrintable(sim.lastError()));
        const QString token = sim.signUp(u"bob@example.com"_s);
        QVERIFY2(!token.isEmpty(), qPrintable(sim.lastError()));
        const cardhour::test::Reply datasets = sim.authedGet(token, u"/v1/datasets"_s);
        QVERIFY2(datasets.status == 200, datasets.describe().constData());
        QVERIFY2(listsDataset(datasets, u"demo"_s), datasets.body.constData());
        QVERIFY(QFileInfo::exists(newSandbox() + u"/cardhour-sim.sqlite"_s));
        QVERIFY(sim.terminate());
    }
};

QTEST_GUILESS_MAIN(TestDataPaths)
#include "tst_datapaths.moc"
