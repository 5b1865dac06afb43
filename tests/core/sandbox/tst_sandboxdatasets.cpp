// SandboxDatasets runs the real `cardhour-sim datasets add NAME DIR --data DIR`: a folder is
// added to the launcher's data directory (as `datasets list` then shows), a bad name or a
// missing folder is refused with the program's reason and nothing written, one addition runs at
// a time, and a sandbox program that cannot be started is said so.
#include "sandbox/SandboxDatasets.h"
#include "sandbox/SandboxLauncher.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

class TestSandboxDatasets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void addsThroughTheCli();
    void refusesWhatTheCliRefuses_data();
    void refusesWhatTheCliRefuses();
    void oneAtATime();
    void missingProgramIsSaid();

private:
    QString list() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SandboxLauncher> m_launcher;
    QString m_folder;
};

void TestSandboxDatasets::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_launcher = std::make_unique<SandboxLauncher>();
    m_launcher->setExecutable(QStringLiteral(CARDHOUR_SIM_PATH));
    m_launcher->setDataDir(m_dir->filePath(u"sandbox"_s));
    m_folder = m_dir->filePath(u"shared"_s);
    QVERIFY(QDir().mkpath(m_folder));
    QFile file(m_folder + u"/a.txt"_s);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(100, 'a'));
}

QString TestSandboxDatasets::list() const
{
    QProcess p;
    p.start(QStringLiteral(CARDHOUR_SIM_PATH),
            {u"datasets"_s, u"list"_s, u"--data"_s, m_launcher->dataDir()});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

void TestSandboxDatasets::addsThroughTheCli()
{
    SandboxDatasets datasets(m_launcher.get());
    QCOMPARE(datasets.arguments(u"shared"_s, m_folder),
             (QStringList{u"datasets"_s, u"add"_s, u"shared"_s, m_folder, u"--data"_s,
                          m_launcher->dataDir()}));
    QSignalSpy finished(&datasets, &SandboxDatasets::finished);
    QVERIFY(datasets.add(u"shared"_s, m_folder));
    QVERIFY(datasets.isBusy());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(!datasets.isBusy());
    QCOMPARE(finished.at(0).at(0).toString(), u"shared"_s);
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QVERIFY2(finished.at(0).at(2).toString().contains(u"/datasets/shared"_s),
             qPrintable(finished.at(0).at(2).toString()));
    const QString listed = list();
    QVERIFY2(listed.contains(u"shared"_s) && listed.contains(u"1 files"_s), qPrintable(listed));
}

void TestSandboxDatasets::refusesWhatTheCliRefuses_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("folderExists");
    QTest::addColumn<QString>("reason");
    QTest::newRow("bad name") << u"Not Valid"_s << true << u"is not a dataset name"_s;
    QTest::newRow("no folder") << u"gone"_s << false << u"is not a readable folder"_s;
}

void TestSandboxDatasets::refusesWhatTheCliRefuses()
{
    QFETCH(QString, name);
    QFETCH(bool, folderExists);
    QFETCH(QString, reason);
    SandboxDatasets datasets(m_launcher.get());
    QSignalSpy finished(&datasets, &SandboxDatasets::finished);
    QVERIFY(datasets.add(name, folderExists ? m_folder : m_folder + u"-missing"_s));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(!finished.at(0).at(1).toBool());
    const QString message = finished.at(0).at(2).toString();
    QVERIFY2(message.startsWith(u"The sandbox did not add the folder: "_s)
                 && message.contains(reason) && !message.contains(u"cardhour-sim:"_s),
             qPrintable(message));
    QVERIFY2(list().contains(u"no datasets"_s), qPrintable(list()));
}

void TestSandboxDatasets::oneAtATime()
{
    SandboxDatasets datasets(m_launcher.get());
    QSignalSpy finished(&datasets, &SandboxDatasets::finished);
    QVERIFY(datasets.add(u"first"_s, m_folder));
    QString error;
    QVERIFY(!datasets.add(u"second"_s, m_folder, &error));
    QVERIFY(!error.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(finished.at(0).at(1).toBool());
    QVERIFY(datasets.add(u"second"_s, m_folder));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
    const QString listed = list();
    QVERIFY2(listed.contains(u"first"_s) && listed.contains(u"second"_s), qPrintable(listed));
}

void TestSandboxDatasets::missingProgramIsSaid()
{
    m_launcher->setExecutable(m_dir->filePath(u"no-such-cardhour-sim"_s));
    SandboxDatasets datasets(m_launcher.get());
    QSignalSpy finished(&datasets, &SandboxDatasets::finished);
    QVERIFY(datasets.add(u"shared"_s, m_folder));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QVERIFY(!finished.at(0).at(1).toBool());
    QVERIFY2(finished.at(0).at(2).toString().contains(u"could not be started"_s),
             qPrintable(finished.at(0).at(2).toString()));
    QVERIFY(!datasets.isBusy());
}

QTEST_GUILESS_MAIN(TestSandboxDatasets)
#include "tst_sandboxdatasets.moc"
