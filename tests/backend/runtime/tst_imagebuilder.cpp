// ImageBuilder (with ImageRecipes and ImageInspector) and `cardhour-sim images`: recipe hashes,
// image status, and real podman builds.
//
// Needs podman. Where podman needs a configuration (e.g. runc instead of crun), give it with
// CARDHOUR_CONTAINERS_CONF or CONTAINERS_CONF. The real `base` image
// (localhost/cardhour/base:latest) is built only when it is not Current, and is kept: later runs
// reuse it. Everything else this test makes is tagged under a prefix of its own and removed.
#include "cli/ImagesCommand.h"
#include "runtime/ImageBuilder.h"
#include "runtime/InstanceFiles.h"
#include "service/Catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::sim::ImageBuilder;
using cardhour::sim::ImageInfo;
using cardhour::sim::ImageRecipe;
using cardhour::sim::ImageRecipes;
using cardhour::sim::ImageStatus;
using cardhour::sim::imageStatusName;
using cardhour::sim::InstanceFiles;

namespace {

struct Progress
{
    QString id, stage;
    int step = 0, total = 0;
    QString line;
};

struct Finished
{
    QString id;
    bool ok = false;
    QString error;
};

// Records an ImageBuilder's signals.
class Recorder : public QObject
{
public:
    explicit Recorder(ImageBuilder *builder)
    {
        connect(builder, &ImageBuilder::progress, this,
                [this](const QString &id, const QString &stage, int step, int total,
                       const QString &line) {
                    progress.append({id, stage, step, total, line});
                });
        connect(builder, &ImageBuilder::finished, this,
                [this](const QString &id, bool ok, const QString &error) {
                    finished.append({id, ok, error});
                });
    }
    std::optional<Finished> finishedFor(const QString &id) const
    {
        for (const Finished &f : finished) {
            if (f.id == id)
                return f;
        }
        return std::nullopt;
    }
    bool waitFor(const QString &id, int timeoutMs)
    {
        QElapsedTimer timer;
        timer.start();
        while (!finishedFor(id) && timer.elapsed() < timeoutMs)
            QTest::qWait(100);
        return finishedFor(id).has_value();
    }
    QList<Progress> stages(const QString &id, const QString &stage) const
    {
        QList<Progress> result;
        for (const Progress &p : progress) {
            if (p.id == id && p.stage == stage)
                result.append(p);
        }
        return result;
    }
    QList<Progress> progress;
    QList<Finished> finished;
};

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(content) == content.size();
}

bool copyDir(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(source));
        QDir().mkpath(QFileInfo(target).path());
        if (!QFile::copy(source, target))
            return false;
        QFile::setPermissions(target, QFile::permissions(source));
    }
    return true;
}

} // namespace

class TestImageBuilder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();

    void recipeHashIsStableAndFollowsContent();
    void shippedRecipesFormOneChain();
    void unknownIdFailsLater();
    void missingTagIsMissing();
    void buildBase();
    void baseImageContents();
    void chainOfTinyRecipes();
    void failingRecipeLeavesNoTag();
    void imagesCommand();

private:
    ImageBuilder::Options options(const QString &imagesDir = {}, const QString &prefix = {}) const;
    int podman(const QStringList &args, QString *output = nullptr, int timeoutMs = 300000) const;
    QString uniqueName(const QString &what);
    void removeLeftovers();

    QString m_conf;
    QString m_podmanProblem;
    QString m_prefix; // for every image this test makes besides base
    QStringList m_containers; // names of containers this test starts
    QStringList m_dirs; // host dirs written by containers (owned by root)
};

#define REQUIRE_PODMAN()                                                                           \
    do {                                                                                           \
        if (!m_podmanProblem.isEmpty())                                                            \
            QSKIP(qPrintable(u"podman cannot run here: "_s + m_podmanProblem));                    \
    } while (false)

void TestImageBuilder::initTestCase()
{
    m_conf =
        qEnvironmentVariable("CARDHOUR_CONTAINERS_CONF", qEnvironmentVariable("CONTAINERS_CONF"));
    m_prefix = u"localhost/cardhour-test-%1-%2/"_s.arg(QCoreApplication::applicationPid())
                   .arg(QRandomGenerator::global()->bounded(100000));
    m_podmanProblem = ImageBuilder(options()).inspector().podmanProblem();
    // podman answering is not enough: it must be able to start a container. Probe with an image
    // that is already here (none yet: the base build below will tell).
    if (m_podmanProblem.isEmpty()) {
        for (const QString &image :
             {u"localhost/cardhour/debian:bookworm"_s, u"localhost/cardhour/base:latest"_s}) {
            if (podman({u"image"_s, u"exists"_s, image}) != 0)
                continue;
            QString out;
            if (podman({u"run"_s, u"--rm"_s, u"--name"_s, uniqueName(u"probe"_s), image, u"true"_s},
                       &out)
                != 0)
                m_podmanProblem =
                    u"podman cannot start a container (%1). Where podman needs its own "
                    "containers.conf (e.g. runc, lower default_ulimits), give it with "
                    "CARDHOUR_CONTAINERS_CONF or CONTAINERS_CONF (now: \"%2\")"_s.arg(out.trimmed(),
                                                                                      m_conf);
            break;
        }
    }
    if (!m_podmanProblem.isEmpty())
        qWarning("podman cannot run, the tests that need it will be skipped: %s",
                 qPrintable(m_podmanProblem));
}

ImageBuilder::Options TestImageBuilder::options(const QString &imagesDir,
                                                const QString &prefix) const
{
    ImageBuilder::Options o;
    o.containersConf = m_conf;
    o.imagesDir = imagesDir;
    if (!prefix.isEmpty())
        o.tagPrefix = prefix;
    return o;
}

int TestImageBuilder::podman(const QStringList &args, QString *output, int timeoutMs) const
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_conf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, m_conf);
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(u"podman"_s, args);
    if (!process.waitForStarted() || !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        if (output)
            *output = u"podman did not finish: "_s + process.errorString();
        return -1;
    }
    if (output)
        *output = QString::fromUtf8(process.readAll());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QString TestImageBuilder::uniqueName(const QString &what)
{
    const QString name = u"cardhour-test-%1-%2-%3"_s.arg(what)
                             .arg(QCoreApplication::applicationPid())
                             .arg(m_containers.size());
    m_containers.append(name);
    return name;
}

void TestImageBuilder::removeLeftovers()
{
    if (!m_podmanProblem.isEmpty())
        return;
    for (const QString &name : std::as_const(m_containers))
        podman({u"rm"_s, u"-f"_s, u"--ignore"_s, name});
    m_containers.clear();
    // Every image under this run's prefix.
    QString listing;
    podman({u"images"_s, u"--format"_s, u"{{.Repository}}:{{.Tag}}"_s}, &listing);
    for (const QString &line : listing.split(u'\n', Qt::SkipEmptyParts)) {
        if (line.startsWith(m_prefix))
            podman({u"rmi"_s, u"-f"_s, line.trimmed()});
    }
}

void TestImageBuilder::cleanup()
{
    removeLeftovers();
}

void TestImageBuilder::cleanupTestCase()
{
    removeLeftovers();
}

void TestImageBuilder::recipeHashIsStableAndFollowsContent()
{
    const QString original = QDir(ImageRecipes::defaultImagesDir()).filePath(u"base"_s);
    QTemporaryDir temp;
    QVERIFY(temp.isValid());
    const QString copy = temp.filePath(u"base"_s);
    QVERIFY(copyDir(original, copy));

    const QString hash = ImageRecipes::recipeHash(original);
    QCOMPARE(hash.size(), 64);
    QCOMPARE(ImageRecipes::recipeHash(original), hash); // stable
    QCOMPARE(ImageRecipes::recipeHash(copy), hash); // the folder's location does not count

    // Timestamps do not count.
    QFile containerfile(QDir(copy).filePath(u"Containerfile"_s));
    QVERIFY(containerfile.open(QIODevice::ReadWrite));
    const QByteArray content = containerfile.readAll();
    QVERIFY(containerfile.setFileTime(QDateTime::currentDateTime().addDays(-3),
                                      QFileDevice::FileModificationTime));
    containerfile.close();
    QCOMPARE(ImageRecipes::recipeHash(copy), hash);

    // Content does, and going back restores the hash.
    QVERIFY(writeFile(containerfile.fileName(), content + "RUN true\n"));
    const QString changed = ImageRecipes::recipeHash(copy);
    QVERIFY(changed != hash);
    QVERIFY(writeFile(containerfile.fileName(), content));
    QCOMPARE(ImageRecipes::recipeHash(copy), hash);

    // So do the executable bit (COPY keeps it), new files and renames.
    const QString program = QDir(copy).filePath(u"nvidia-smi"_s);
    const QFile::Permissions mode = QFile::permissions(program);
    QVERIFY(QFile::setPermissions(
        program, mode & ~(QFile::ExeOwner | QFile::ExeUser | QFile::ExeGroup | QFile::ExeOther)));
    QVERIFY(ImageRecipes::recipeHash(copy) != hash);
    QVERIFY(QFile::setPermissions(program, mode));
    QCOMPARE(ImageRecipes::recipeHash(copy), hash);
    QVERIFY(writeFile(QDir(copy).filePath(u"extra.txt"_s), "x"));
    QVERIFY(ImageRecipes::recipeHash(copy) != hash);
    QVERIFY(
        QFile::rename(QDir(copy).filePath(u"extra.txt"_s), QDir(copy).filePath(u"other.txt"_s)));
    const QString renamed = ImageRecipes::recipeHash(copy);
    QVERIFY(renamed != hash);
    QVERIFY(QFile::remove(QDir(copy).filePath(u"other.txt"_s)));
    QCOMPARE(ImageRecipes::recipeHash(copy), hash);

    QString error;
    QVERIFY(ImageRecipes::recipeHash(temp.filePath(u"nothing-here"_s), &error).isEmpty());
    QVERIFY(!error.isEmpty());
}

void TestImageBuilder::shippedRecipesFormOneChain()
{
    const ImageBuilder builder(options());
    QCOMPARE(builder.recipes().imagesDir(), QDir(ImageRecipes::defaultImagesDir()).absolutePath());
    QCOMPARE(builder.recipes().tag(u"base"_s), u"localhost/cardhour/base:latest"_s);

    // Every catalog image has a recipe.
    const auto catalog = cardhour::sim::Catalog::load();
    for (const auto &image : catalog.images()) {
        QString error;
        QVERIFY2(builder.recipes().recipe(image.id, &error).has_value(), qPrintable(error));
    }
    QString error;
    const QList<ImageRecipe> chain = builder.recipes().chain(u"jupyter"_s, &error);
    QVERIFY2(!chain.isEmpty(), qPrintable(error));
    QStringList ids;
    for (const auto &step : chain)
        ids.append(step.id);
    QCOMPARE(ids, (QStringList{u"base"_s, u"pytorch"_s, u"jupyter"_s}));
    QCOMPARE(builder.recipes().rootTag(chain.first()), u"localhost/cardhour/debian:bookworm"_s);
    QVERIFY(QFileInfo(chain.first().rootScript).isExecutable());
    QCOMPARE(chain.at(1).parentArg, u"BASE_IMAGE"_s);
    // Parents first: each image of the chain comes after the one it is built on.
    const QStringList order = builder.recipes().recipeIds();
    QCOMPARE(order.first(), u"base"_s);
    for (qsizetype i = 1; i < ids.size(); ++i)
        QVERIFY2(order.indexOf(ids.at(i - 1)) < order.indexOf(ids.at(i)),
                 qPrintable(order.join(u' ')));

    QVERIFY(!builder.recipes().recipe(u"no-such-image"_s, &error));
    QVERIFY(error.contains(u"no-such-image"_s));
    QVERIFY(!builder.recipes().recipe(u"../etc"_s, &error));
}

void TestImageBuilder::unknownIdFailsLater()
{
    ImageBuilder builder(options());
    Recorder recorder(&builder);
    builder.build(u"no-such-image"_s);
    QVERIFY(recorder.finished.isEmpty()); // never from inside the call
    QVERIFY(recorder.waitFor(u"no-such-image"_s, 5000));
    QVERIFY(!recorder.finished.first().ok);
    QVERIFY(recorder.finished.first().error.contains(u"no recipe"_s));
}

void TestImageBuilder::missingTagIsMissing()
{
    REQUIRE_PODMAN();
    const ImageBuilder builder(options({}, m_prefix + u"nothing/"_s));
    const ImageInfo info = builder.inspector().inspect(u"base"_s);
    QVERIFY2(info.error.isEmpty(), qPrintable(info.error));
    QCOMPARE(info.status, ImageStatus::Missing);
    QVERIFY(!info.exists);
    QCOMPARE(builder.inspector().status(u"jupyter"_s), ImageStatus::Missing);
}

void TestImageBuilder::buildBase()
{
    REQUIRE_PODMAN();
    ImageBuilder builder(options());
    const ImageInfo before = builder.inspector().inspect(u"base"_s);
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));

    Recorder recorder(&builder);
    QElapsedTimer timer;
    timer.start();
    builder.build(u"base"_s);
    QVERIFY(builder.isBusy());
    QVERIFY2(recorder.waitFor(u"base"_s, 1700 * 1000), "base did not build within the test's time");
    const Finished done = *recorder.finishedFor(u"base"_s);
    QVERIFY2(done.ok, qPrintable(done.error));
    qInfo("base was %s before; build(base) took %.1f s", qPrintable(imageStatusName(before.status)),
          double(timer.elapsed()) / 1000.0);

    const ImageInfo after = builder.inspector().inspect(u"base"_s);
    QCOMPARE(after.status, ImageStatus::Current);
    QCOMPARE(after.builtRecipeSha256,
             ImageRecipes::recipeHash(QDir(builder.recipes().imagesDir()).filePath(u"base"_s)));
    QVERIFY(after.size > 0);
    QVERIFY(after.created.isValid());

    if (before.status == ImageStatus::Current) {
        // Reused: nothing built, and it says so.
        QVERIFY(recorder.stages(u"base"_s, u"start"_s).isEmpty());
        QCOMPARE(recorder.stages(u"base"_s, u"current"_s).size(), 1);
        QCOMPARE(after.imageId, before.imageId);
    } else {
        // Built: one progress line per STEP, counting up to the total.
        const QList<Progress> steps = recorder.stages(u"base"_s, u"step"_s);
        QVERIFY(steps.size() >= 3);
        QCOMPARE(steps.first().step, 1);
        QVERIFY(steps.first().total >= steps.size());
        QCOMPARE(steps.last().step, steps.last().total);
        QVERIFY(steps.first().line.contains(u"FROM"_s));
        QVERIFY(!recorder.stages(u"base"_s, u"commit"_s).isEmpty());
    }

    // A second build right away is a no-op: measured, and quick.
    Recorder again(&builder);
    timer.restart();
    builder.build(u"base"_s);
    QVERIFY(again.waitFor(u"base"_s, 60000));
    QVERIFY(again.finishedFor(u"base"_s)->ok);
    QVERIFY(again.stages(u"base"_s, u"start"_s).isEmpty());
    qInfo("build(base) when Current took %.2f s", double(timer.elapsed()) / 1000.0);
    QVERIFY(timer.elapsed() < 30000);
}

void TestImageBuilder::baseImageContents()
{
    REQUIRE_PODMAN();
    const ImageBuilder builder(options());
    if (builder.inspector().status(u"base"_s) == ImageStatus::Missing)
        QSKIP("no base image (buildBase failed)");
    const QString image = builder.recipes().tag(u"base"_s);

    // The provider's way: host key and authorized_keys in a directory mounted read-only.
    QTemporaryDir keys;
    QVERIFY(keys.isValid());
    QString out;
    QCOMPARE(podman({u"run"_s, u"--rm"_s, u"--name"_s, uniqueName(u"keygen"_s), u"-v"_s,
                     keys.path() + u":/k"_s, image, u"ssh-keygen"_s, u"-q"_s, u"-t"_s, u"ed25519"_s,
                     u"-N"_s, QString(), u"-f"_s, u"/k/ssh_host_ed25519_key"_s},
                    &out),
             0);
    QVERIFY2(QFileInfo::exists(keys.filePath(u"ssh_host_ed25519_key"_s)), qPrintable(out));
    QVERIFY(writeFile(keys.filePath(u"authorized_keys"_s), {}));
    InstanceFiles::writeBootFilesTo(keys.path(), u"0123abcd"_s);

    // sshd takes the provider's configuration (the included file is the entrypoint's).
    const QString script = uR"SH(
        mkdir -p /run/cardhour && echo '# none' > /run/cardhour/sshd-gpu-env.conf
        sshd -t -f /etc/cardhour/ssh/sshd_config && echo check:sshd-config
        test -x /usr/sbin/sshd && echo check:sshd
        python3 -c 'import sys, venv; print("check:python3", sys.version_info[0])'
        ls /etc/ssh/ssh_host_* >/dev/null 2>&1 || echo check:no-baked-host-keys
        test -d /workspace && test "$(pwd)" = /workspace && echo check:workspace
        test -x /etc/cardhour/ssh/cardhour-entrypoint && echo check:entrypoint
        command -v git curl tmux htop >/dev/null && echo check:tools
        true)SH"_s;
    const int rc =
        podman({u"run"_s, u"--rm"_s, u"--name"_s, uniqueName(u"check"_s), u"-v"_s,
                keys.path() + u":/etc/cardhour/ssh:ro"_s, image, u"sh"_s, u"-c"_s, script},
               &out);
    QVERIFY2(rc == 0, qPrintable(out));
    for (const QString &check : {u"check:sshd-config"_s, u"check:sshd"_s, u"check:python3 3"_s,
                                 u"check:no-baked-host-keys"_s, u"check:workspace"_s,
                                 u"check:entrypoint"_s, u"check:tools"_s})
        QVERIFY2(out.contains(check), qPrintable(u"%1 missing from:\n%2"_s.arg(check, out)));

    // How instances start, and the labels the builder relies on.
    QCOMPARE(podman({u"image"_s, u"inspect"_s, u"--format"_s,
                     u"{{json .Config.Cmd}} {{index .Labels \"cardhour.image\"}}"_s, image},
                    &out),
             0);
    QCOMPARE(out.trimmed(), u"[\"/etc/cardhour/ssh/cardhour-entrypoint\"] base"_s);
    // The key files were written by root inside the container; QTemporaryDir removes them.
}

void TestImageBuilder::chainOfTinyRecipes()
{
    REQUIRE_PODMAN();
    const QString root = u"localhost/cardhour/debian:bookworm"_s;
    if (podman({u"image"_s, u"exists"_s, root}) != 0)
        QSKIP("no Debian root image (buildBase failed)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir images(dir.path());
    QVERIFY(images.mkpath(u"tiny-parent"_s) && images.mkpath(u"tiny-child"_s));
    QVERIFY(writeFile(images.filePath(u"tiny-parent/Containerfile"_s),
                      "ARG ROOT_IMAGE=none\nFROM ${ROOT_IMAGE}\nRUN echo parent > /parent.txt\n"));
    QVERIFY(writeFile(
        images.filePath(u"tiny-parent/image.json"_s),
        R"({"id": "tiny-parent", "root": {"image": "localhost/cardhour/debian:bookworm"}, "parentArg": "ROOT_IMAGE"})"_ba));
    QVERIFY(writeFile(images.filePath(u"tiny-child/Containerfile"_s),
                      "ARG PARENT=none\nFROM ${PARENT}\nRUN cat /parent.txt && echo child > "
                      "/child.txt\nENV TINY=1\n"));
    QVERIFY(
        writeFile(images.filePath(u"tiny-child/image.json"_s),
                  R"({"id": "tiny-child", "parent": "tiny-parent", "parentArg": "PARENT"})"_ba));

    ImageBuilder builder(options(dir.path(), m_prefix));
    QCOMPARE(builder.recipes().recipeIds(), (QStringList{u"tiny-parent"_s, u"tiny-child"_s}));
    QCOMPARE(builder.inspector().status(u"tiny-child"_s), ImageStatus::Missing);

    // Parents first, each with its own finished; the requested image last.
    {
        Recorder recorder(&builder);
        builder.build(u"tiny-child"_s);
        QVERIFY(recorder.waitFor(u"tiny-child"_s, 600000));
        QCOMPARE(recorder.finished.size(), 2);
        QCOMPARE(recorder.finished.at(0).id, u"tiny-parent"_s);
        QVERIFY2(recorder.finished.at(0).ok, qPrintable(recorder.finished.at(0).error));
        QCOMPARE(recorder.finished.at(1).id, u"tiny-child"_s);
        QVERIFY2(recorder.finished.at(1).ok, qPrintable(recorder.finished.at(1).error));
        // FROM, RUN, ENV, then podman's own LABEL steps for the builder's labels.
        const QList<Progress> steps = recorder.stages(u"tiny-child"_s, u"step"_s);
        QVERIFY(steps.size() >= 3);
        for (int i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps.at(i).step, i + 1);
            QCOMPARE(steps.at(i).total, steps.size());
        }
        QVERIFY(steps.at(0).line.contains(u"FROM "_s));
        QVERIFY(steps.at(1).line.contains(u"RUN cat /parent.txt"_s));
        QVERIFY(steps.at(2).line.contains(u"ENV TINY"_s));
        const QList<Progress> parentSteps = recorder.stages(u"tiny-parent"_s, u"step"_s);
        QCOMPARE(parentSteps.size(), steps.size() - 1);
        QCOMPARE(parentSteps.last().step, parentSteps.last().total);
        // Output lines carry the step they belong to.
        bool sawOutput = false;
        for (const Progress &p : recorder.stages(u"tiny-child"_s, u"output"_s))
            sawOutput = sawOutput || (p.line == u"parent"_s && p.step == 2);
        QVERIFY(sawOutput);
    }
    QCOMPARE(builder.inspector().status(u"tiny-parent"_s), ImageStatus::Current);
    QCOMPARE(builder.inspector().status(u"tiny-child"_s), ImageStatus::Current);
    QString out;
    QCOMPARE(podman({u"run"_s, u"--rm"_s, u"--name"_s, uniqueName(u"tiny"_s),
                     builder.recipes().tag(u"tiny-child"_s), u"cat"_s, u"/parent.txt"_s,
                     u"/child.txt"_s},
                    &out),
             0);
    QCOMPARE(out, u"parent\nchild\n"_s);
    const QString childId = builder.inspector().inspect(u"tiny-child"_s).imageId;

    // Nothing to do the second time.
    {
        Recorder recorder(&builder);
        builder.build(u"tiny-child"_s);
        QVERIFY(recorder.waitFor(u"tiny-child"_s, 60000));
        QCOMPARE(recorder.finished.size(), 1);
        QVERIFY(recorder.finished.first().ok);
        QCOMPARE(recorder.stages(u"tiny-parent"_s, u"current"_s).size(), 1);
        QCOMPARE(recorder.stages(u"tiny-child"_s, u"current"_s).size(), 1);
        QVERIFY(recorder.stages(u"tiny-child"_s, u"start"_s).isEmpty());
    }

    // A change to the parent's recipe makes the parent stale, and the child with it; building
    // the child rebuilds both.
    QVERIFY(writeFile(images.filePath(u"tiny-parent/Containerfile"_s),
                      "ARG ROOT_IMAGE=none\nFROM ${ROOT_IMAGE}\nRUN echo parent > /parent.txt\nENV "
                      "TINY_PARENT=2\n"));
    const ImageInfo staleParent = builder.inspector().inspect(u"tiny-parent"_s);
    QCOMPARE(staleParent.status, ImageStatus::Stale);
    QVERIFY(!staleParent.reason.isEmpty());
    QCOMPARE(builder.inspector().status(u"tiny-child"_s), ImageStatus::Stale);
    {
        Recorder recorder(&builder);
        builder.build(u"tiny-child"_s);
        QVERIFY(recorder.waitFor(u"tiny-child"_s, 600000));
        QCOMPARE(recorder.finished.size(), 2);
        QVERIFY2(recorder.finished.at(1).ok, qPrintable(recorder.finished.at(1).error));
        QCOMPARE(recorder.stages(u"tiny-child"_s, u"start"_s).size(), 1);
    }
    QCOMPARE(builder.inspector().status(u"tiny-parent"_s), ImageStatus::Current);
    QCOMPARE(builder.inspector().status(u"tiny-child"_s), ImageStatus::Current);
    QVERIFY(builder.inspector().inspect(u"tiny-child"_s).imageId != childId);
    // The image it replaced is gone (nothing else used it).
    QVERIFY(podman({u"image"_s, u"exists"_s, childId}) != 0);

    // Several builds queue up and run one after the other.
    {
        Recorder recorder(&builder);
        builder.build(u"tiny-parent"_s);
        builder.build(u"tiny-child"_s);
        builder.build(u"tiny-parent"_s);
        QVERIFY(recorder.waitFor(u"tiny-child"_s, 60000));
        QTRY_COMPARE_WITH_TIMEOUT(recorder.finished.size(), 3, 60000);
        QVERIFY(!builder.isBusy());
    }
}

void TestImageBuilder::failingRecipeLeavesNoTag()
{
    REQUIRE_PODMAN();
    const QString root = u"localhost/cardhour/debian:bookworm"_s;
    if (podman({u"image"_s, u"exists"_s, root}) != 0)
        QSKIP("no Debian root image (buildBase failed)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(u"bogus"_s));
    QVERIFY(writeFile(
        QDir(dir.path()).filePath(u"bogus/Containerfile"_s),
        "FROM localhost/cardhour/debian:bookworm\n"
        "RUN echo cardhour-bogus-says-hello && echo cardhour-bogus-on-stderr >&2 && exit 3\n"
        "RUN echo never\n"));
    ImageBuilder builder(options(dir.path(), m_prefix));
    Recorder recorder(&builder);
    builder.build(u"bogus"_s);
    QVERIFY(recorder.waitFor(u"bogus"_s, 300000));
    const Finished done = *recorder.finishedFor(u"bogus"_s);
    QVERIFY(!done.ok);
    QVERIFY2(done.error.contains(u"exit status 3"_s), qPrintable(done.error)); // podman's own words
    QVERIFY2(done.error.contains(u"STEP"_s), qPrintable(done.error));

    const QList<Progress> steps = recorder.stages(u"bogus"_s, u"step"_s);
    QCOMPARE(steps.size(), 2); // it stops at the failing RUN
    QCOMPARE(steps.last().step, 2);
    QVERIFY(steps.last().total >= 3);
    QVERIFY(steps.last().line.contains(u"RUN echo cardhour-bogus-says-hello"_s));
    bool sawStderr = false;
    for (const Progress &p : recorder.progress)
        sawStderr = sawStderr || p.line == u"cardhour-bogus-on-stderr"_s;
    QVERIFY(sawStderr);

    QCOMPARE(builder.inspector().status(u"bogus"_s), ImageStatus::Missing);
    QVERIFY(podman({u"image"_s, u"exists"_s, builder.recipes().tag(u"bogus"_s)}) != 0);
    QVERIFY(!builder.isBusy());
}

void TestImageBuilder::imagesCommand()
{
    using cardhour::sim::runImagesCommand;
    // Where `images build` writes its status for a waiting launch: a scratch data folder.
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QCOMPARE(runImagesCommand({u"frobnicate"_s}, m_conf, data.path()), 2);
    QCOMPARE(runImagesCommand({u"build"_s, u"--no-such-option"_s}, m_conf, data.path()), 2);
    REQUIRE_PODMAN();
    QCOMPARE(runImagesCommand({u"build"_s}, m_conf, data.path()), 2);
    QCOMPARE(runImagesCommand({u"build"_s, u"no-such-image"_s}, m_conf, data.path()), 2);
    QCOMPARE(runImagesCommand({u"list"_s, u"--tag-prefix"_s, m_prefix}, m_conf, data.path()), 0);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(u"bogus"_s));
    QVERIFY(writeFile(QDir(dir.path()).filePath(u"bogus/Containerfile"_s),
                      "FROM scratch\nRUN [\"/nothing-here\"]\n"));
    QCOMPARE(runImagesCommand(
                 {u"build"_s, u"--images"_s, dir.path(), u"--tag-prefix"_s, m_prefix, u"--all"_s},
                 m_conf, data.path()),
             1);
    // base is Current after buildBase: a build of it is a quick no-op that succeeds.
    if (ImageBuilder(options()).inspector().status(u"base"_s) == ImageStatus::Current)
        QCOMPARE(runImagesCommand({u"build"_s, u"base"_s}, m_conf, data.path()), 0);
}

QTEST_GUILESS_MAIN(TestImageBuilder)
#include "tst_imagebuilder.moc"
