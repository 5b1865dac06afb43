// The first run's images, from the connect step, against cardhour-sim with real podman and a
// scratch image prefix (the shared localhost/cardhour/ images are left alone; the scratch
// prefix gets the shared root image by a second tag, so nothing is bootstrapped). podman is
// reached through a wrapper on PATH that holds each `podman build` while a gate file of that
// image exists, so that the test decides when each image's build may go on:
//   - the connect page lists the missing images and doctor's finding with its fix (copied);
//   - "Prepare images" starts the build, base first; an instance asked for meanwhile waits at
//     stage "image" instead of failing, and runs once base is built;
//   - a build that fails fails the instance waiting for it, with the build's reason;
//   - Cancel ends the build and every process it started; with no build under way, a launch
//     fails as before, naming the command;
//   - the log is one click away.
// Saves firstrun-*.png.
#include "ConnectPage.h"
#include "GuiTestWindow.h"
#include "PodmanApiTest.h"
#include "sandbox/SandboxImages.h"
#include "sandbox/SandboxLauncher.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>
#include <signal.h>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

class TestImagePreparation : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void preparesImagesWhileALaunchWaits();

private:
    void shoot(QWidget *widget, const QString &name)
    {
        QVERIFY(saveScreenshot(widget, QStringLiteral(CARDHOUR_SCREENSHOT_DIR), name));
    }
    QString gate(const QString &image) const { return m_gates->filePath(image); }
    static bool alive(const QString &pidFile)
    {
        QFile file(pidFile);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        const int pid = file.readAll().trimmed().toInt();
        return pid > 0 && ::kill(pid, 0) == 0;
    }

    QString m_prefix;
    std::unique_ptr<QTemporaryDir> m_gates;
};

void TestImagePreparation::initTestCase()
{
    initPodmanTest();
    m_prefix = u"localhost/cardhour-firstrun-%1/"_s.arg(
        QUuid::createUuid().toString(QUuid::Id128).left(8));
    const Cmd tagged = podman(
        {u"tag"_s, u"localhost/cardhour/debian:bookworm"_s, m_prefix + u"debian:bookworm"_s});
    QVERIFY2(tagged.ok(), qPrintable(tagged.describe()));

    // podman for everything this test's client starts: `build` waits while <gates>/<image>
    // exists, leaves its pid in <gates>/pid-<image>, and fails while <gates>/<image>.fail does.
    m_gates = std::make_unique<QTemporaryDir>();
    QVERIFY(m_gates->isValid());
    const QString realPodman = QStandardPaths::findExecutable(u"podman"_s);
    QVERIFY(!realPodman.isEmpty());
    QFile wrapper(m_gates->filePath(u"bin/podman"_s));
    QVERIFY(QDir().mkpath(m_gates->filePath(u"bin"_s)));
    QVERIFY(wrapper.open(QIODevice::WriteOnly));
    wrapper.write(u"#!/bin/sh\n"
                  "if [ \"$1\" = build ]; then\n"
                  "  for a in \"$@\"; do tag=\"$a\"; case \"$a\" in *:latest) break;; esac; done\n"
                  "  name=${tag##*/}; name=${name%%:latest}\n"
                  "  echo $$ > \"%1/pid-$name\"\n"
                  "  while [ -e \"%1/$name\" ]; do sleep 0.2; done\n"
                  "  if [ -e \"%1/$name.fail\" ]; then echo \"Error: $name fails on purpose\"; "
                  "exit 3; fi\n"
                  "fi\n"
                  "exec \"%2\" \"$@\"\n"_s.arg(m_gates->path(), realPodman)
                      .toUtf8());
    wrapper.close();
    QVERIFY(wrapper.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    qputenv("PATH", (m_gates->filePath(u"bin"_s) + u':' + qEnvironmentVariable("PATH")).toUtf8());
}

void TestImagePreparation::cleanupTestCase()
{
    cleanupPodmanTest();
    // Only this test's tags: images shared with localhost/cardhour/ keep their other tags.
    const Cmd listed = podman({u"images"_s, u"--format"_s, u"{{.Repository}}:{{.Tag}}"_s});
    for (const QByteArray &line : listed.out.split('\n')) {
        const QString tag = QString::fromUtf8(line.trimmed());
        if (!m_prefix.isEmpty() && tag.startsWith(m_prefix))
            podman({u"rmi"_s, tag});
    }
}

void TestImagePreparation::preparesImagesWhileALaunchWaits()
{
    for (const QString &image : {u"base"_s, u"pytorch"_s, u"jupyter"_s}) {
        QFile file(gate(image));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    // The apps' images (built on base, not on pytorch) fail at once if their turn comes: this
    // test follows base, pytorch and jupyter.
    for (const QString &image : {u"ocr"_s, u"speech"_s}) {
        QFile file(gate(image + u".fail"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    SimProcess *sim = startSim({u"--tag-prefix"_s, m_prefix});
    QVERIFY(sim);
    const QString token = sim->signUp(u"firstrun@example.com"_s);
    QVERIFY(!token.isEmpty());
    const QString keyId = addKey(*sim, token, makeKey(u"firstrun"_s));
    QVERIFY(!keyId.isEmpty());

    core::SandboxLauncher launcher;
    launcher.setExecutable(SimProcess::binaryPath());
    launcher.setDataDir(sim->dataDir());
    launcher.setExtraArguments({u"--runtime"_s, u"podman"_s, u"--tag-prefix"_s, m_prefix});
    ui::ConnectPage page(&launcher);
    page.resize(900, 820);
    page.show();
    auto *images = page.findChild<core::SandboxImages *>();
    QVERIFY(images);

    // What is missing, and doctor's finding with the command to copy.
    // The panel is built at the first look, after the page's first frame.
    QPushButton *prepare = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((prepare = page.findChild<QPushButton *>(u"prepareImagesButton"_s))
                                 && prepare->isVisible(),
                             60000);
    QCOMPARE(images->missing(),
             (QStringList{u"base"_s, u"pytorch"_s, u"jupyter"_s, u"ocr"_s, u"speech"_s}));
    QVERIFY(page.findChild<QLabel *>(u"imagesSummary"_s)->text().contains(u"base"_s));
    QLabel *fix = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((fix = page.findChild<QLabel *>(u"fix_images"_s)), 120000);
    QVERIFY2(fix->text().contains(u"images build base"_s), qPrintable(fix->text()));
    QTest::mouseClick(page.findChild<QPushButton *>(u"copyFix_images"_s), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), fix->text());
    shoot(&page, u"firstrun-images-missing"_s);
    // In a small window the page scrolls: nothing is squeezed to clipped lines.
    page.resize(520, 420);
    QTest::qWait(50);
    auto *scroll = page.findChild<QScrollArea *>(u"scrollArea"_s);
    QVERIFY(scroll && scroll->verticalScrollBar()->isVisible());
    shoot(&page, u"firstrun-images-small"_s);
    page.resize(900, 820);

    // Building; base is held: an instance asked for now waits at stage "image".
    QSignalSpy ready(images, &core::SandboxImages::imageReady);
    QSignalSpy finished(images, &core::SandboxImages::finished);
    QTest::mouseClick(prepare, Qt::LeftButton);
    auto *cancel = page.findChild<QPushButton *>(u"cancelBuildButton"_s);
    QTRY_VERIFY(cancel->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(gate(u"pid-base"_s)), 60000);
    const QString id = create(*sim, token, {keyId});
    QVERIFY(!id.isEmpty());
    QTest::qWait(4000); // time enough for `podman run` to fail without a build to wait for
    QJsonObject waiting = instance(*sim, token, id);
    QCOMPARE(waiting.value(u"state"_s).toString(), u"creating"_s);
    const QJsonArray stages = waiting.value(u"launch"_s).toObject().value(u"stages"_s).toArray();
    QVERIFY2(!stages.isEmpty(), QJsonDocument(waiting).toJson().constData());
    QCOMPARE(stages.last().toObject().value(u"name"_s).toString(), u"image"_s);
    QVERIFY(page.findChild<QLabel *>(u"buildStep"_s)->text().contains(u"base"_s));
    shoot(&page, u"firstrun-images-building"_s);

    // base goes on: the instance runs while pytorch is still held.
    QVERIFY(QFile::remove(gate(u"base"_s)));
    QTRY_VERIFY_WITH_TIMEOUT(ready.contains(QVariantList{u"base"_s}), 120000);
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(running.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(running).toJson().constData());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(gate(u"pid-pytorch"_s)), 60000);
    QVERIFY(alive(gate(u"pid-pytorch"_s)));
    auto *progress = page.findChild<QProgressBar *>(u"buildProgress"_s);
    QVERIFY(progress->value() > 0);
    QVERIFY(page.findChild<QLabel *>(u"baseReady"_s)->isVisible());
    shoot(&page, u"firstrun-base-ready"_s);

    // pytorch fails: an instance waiting for it fails with the build's reason, and so does the
    // build (jupyter is built on pytorch).
    const QString torch = create(*sim, token, {keyId}, {{u"image"_s, u"pytorch"_s}});
    QVERIFY(!torch.isEmpty());
    QTest::qWait(3000);
    QCOMPARE(instance(*sim, token, torch).value(u"state"_s).toString(), u"creating"_s);
    QFile fail(gate(u"pytorch.fail"_s));
    QVERIFY(fail.open(QIODevice::WriteOnly));
    fail.close();
    QVERIFY(QFile::remove(gate(u"pytorch"_s)));
    const QJsonObject torchFailed = waitFor(*sim, token, torch, u"failed"_s);
    QCOMPARE(torchFailed.value(u"state"_s).toString(), u"failed"_s);
    const QString torchReason = torchFailed.value(u"state_reason"_s).toString();
    QVERIFY2(torchReason.contains(u"pytorch fails on purpose"_s), qPrintable(torchReason));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QVERIFY(finished.at(0).at(2).toString().contains(u"pytorch"_s));
    QTRY_VERIFY(page.findChild<QLabel *>(u"imagesError"_s)->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(prepare->isVisible(), 60000); // checked again: two still missing
    QTRY_COMPARE_WITH_TIMEOUT(
        images->missing(), (QStringList{u"pytorch"_s, u"jupyter"_s, u"ocr"_s, u"speech"_s}), 30000);
    // Doctor was asked again after the build: its images finding says base is there now.
    const auto imagesFindingSays = [&page](const QString &words) {
        const QList<QLabel *> labels = page.findChildren<QLabel *>(u"finding_images"_s);
        return !labels.isEmpty()
            && std::all_of(labels.begin(), labels.end(),
                           [&words](QLabel *label) { return label->text().contains(words); });
    };
    QTRY_VERIFY_WITH_TIMEOUT(imagesFindingSays(u"present: base"_s), 60000);
    shoot(&page, u"firstrun-failed"_s);

    // Again, held at pytorch; Cancel: the build and the podman under it are gone.
    QVERIFY(QFile::remove(gate(u"pytorch.fail"_s)));
    QVERIFY(QFile::remove(gate(u"pid-pytorch"_s)));
    QVERIFY(QFile(gate(u"pytorch"_s)).open(QIODevice::WriteOnly));
    finished.clear();
    QTest::mouseClick(prepare, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(gate(u"pid-pytorch"_s)), 60000);
    QTRY_VERIFY(alive(gate(u"pid-pytorch"_s)));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(finished.at(0).at(1).toBool(), true);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(gate(u"pid-pytorch"_s)), 10000);
    QVERIFY(!QFile::exists(gate(u"pid-jupyter"_s)));
    QTRY_VERIFY_WITH_TIMEOUT(prepare->isVisible(), 60000);
    shoot(&page, u"firstrun-cancelled"_s);

    // No build under way (the cancelled one's status goes stale): a launch fails as before.
    const QString lone = create(*sim, token, {keyId}, {{u"image"_s, u"jupyter"_s}});
    QVERIFY(!lone.isEmpty());
    const QJsonObject loneFailed = waitFor(*sim, token, lone, u"failed"_s, 90000);
    QCOMPARE(loneFailed.value(u"state"_s).toString(), u"failed"_s);
    QVERIFY2(loneFailed.value(u"state_reason"_s)
                 .toString()
                 .contains(u"cardhour-sim images build jupyter"_s),
             qPrintable(loneFailed.value(u"state_reason"_s).toString()));

    // The log, one click away.
    QTest::mouseClick(page.findChild<QPushButton *>(u"showLogButton"_s), Qt::LeftButton);
    auto *dialog = page.findChild<QDialog *>(u"buildLogDialog"_s);
    QTRY_VERIFY(dialog && dialog->isVisible());
    const QString log = dialog->findChild<QPlainTextEdit *>(u"buildLog"_s)->toPlainText();
    QVERIFY2(log.contains(u"[pytorch] building "_s), qPrintable(log));
    QVERIFY(log.contains(u"cancelled"_s));
    shoot(dialog, u"firstrun-log"_s);
    dialog->close();
}

QTEST_MAIN(TestImagePreparation)
#include "tst_imagepreparation.moc"
