#include "runtime/ImageBuilder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <memory>

#ifndef CARDHOUR_IMAGES_DIR
#error "CARDHOUR_IMAGES_DIR must name the source tree's backend-sim/images"
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kTailLines = 60;
const auto kLabelImage = u"cardhour.image"_s;
const auto kLabelRecipe = u"cardhour.recipe-sha256"_s;
const auto kLabelParent = u"cardhour.parent-image"_s;

bool isValidId(const QString &id)
{
    static const QRegularExpression pattern(u"^[a-z0-9][a-z0-9._-]{0,63}$"_s);
    return pattern.match(id).hasMatch();
}

// podman prints RFC 3339 times with nanoseconds, which Qt's ISO parser does not take.
QDateTime parseTime(QString text)
{
    static const QRegularExpression fraction(u"\\.(\\d{1,3})\\d*"_s);
    text.replace(fraction, u".\\1"_s);
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    return time;
}

QString trimmedText(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).trimmed();
}

QString describeFailure(const QString &what, int exitCode, bool crashed, const QStringList &tail)
{
    QStringList errors;
    for (const QString &line : tail) {
        if (line.startsWith(u"Error"_s, Qt::CaseInsensitive) || line.startsWith(u"E: "_s))
            errors.append(line);
    }
    if (errors.isEmpty())
        errors = tail.mid(std::max<qsizetype>(0, tail.size() - 8));
    const QString head = crashed ? u"%1 was killed"_s.arg(what) : u"%1 exited with %2"_s.arg(what).arg(exitCode);
    return errors.isEmpty() ? head : u"%1: %2"_s.arg(head, errors.join(u'\n'));
}

} // namespace

ImageBuilder::ImageBuilder(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    if (m_options.imagesDir.isEmpty())
        m_options.imagesDir = defaultImagesDir();
    m_options.imagesDir = QDir(m_options.imagesDir).absolutePath();
    if (m_options.podman.isEmpty())
        m_options.podman = u"podman"_s;
}

ImageBuilder::~ImageBuilder()
{
    if (m_process) {
        // Let podman clean up its build container: SIGTERM first, SIGKILL only if it hangs.
        m_process->disconnect(this);
        m_process->terminate();
        if (!m_process->waitForFinished(15000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
}

QString ImageBuilder::defaultImagesDir()
{
    return QString::fromUtf8(CARDHOUR_IMAGES_DIR);
}

QString ImageBuilder::statusName(Status status)
{
    switch (status) {
    case Status::Missing: return u"missing"_s;
    case Status::Stale: return u"stale"_s;
    case Status::Current: return u"current"_s;
    }
    return {};
}

QString ImageBuilder::tag(const QString &catalogId) const
{
    return m_options.tagPrefix + catalogId + u":latest"_s;
}

QString ImageBuilder::rootTag(const Recipe &recipe) const
{
    if (recipe.rootImage.isEmpty())
        return {};
    // A full reference (registry/name:tag) is taken as is.
    if (recipe.rootImage.section(u':', 0, 0).contains(u'/'))
        return recipe.rootImage;
    return m_options.tagPrefix + recipe.rootImage;
}

// ---- recipes ----------------------------------------------------------------------------

std::optional<ImageBuilder::Recipe> ImageBuilder::recipe(const QString &catalogId, QString *error) const
{
    auto failWith = [&](const QString &message) -> std::optional<Recipe> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!isValidId(catalogId))
        return failWith(u"\"%1\" is not an image id"_s.arg(catalogId));
    const QDir dir(QDir(m_options.imagesDir).filePath(catalogId));
    if (!QFileInfo::exists(dir.filePath(u"Containerfile"_s)) && !QFileInfo::exists(dir.filePath(u"Dockerfile"_s)))
        return failWith(u"no recipe for image \"%1\" (%2 has no Containerfile)"_s.arg(catalogId, dir.path()));

    Recipe result;
    result.id = catalogId;
    result.dir = dir.absolutePath();
    const QString metaPath = dir.filePath(u"image.json"_s);
    if (!QFileInfo::exists(metaPath))
        return result;
    QFile file(metaPath);
    if (!file.open(QIODevice::ReadOnly))
        return failWith(u"%1: %2"_s.arg(metaPath, file.errorString()));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return failWith(u"%1: not a JSON object (%2)"_s.arg(metaPath, parseError.errorString()));
    const QJsonObject meta = doc.object();
    if (meta.contains(u"id"_s) && meta.value(u"id"_s).toString() != catalogId)
        return failWith(u"%1: \"id\" is \"%2\", not the folder's name \"%3\""_s.arg(
            metaPath, meta.value(u"id"_s).toString(), catalogId));
    result.parent = meta.value(u"parent"_s).toString();
    result.parentArg = meta.value(u"parentArg"_s).toString();
    const QJsonObject root = meta.value(u"root"_s).toObject();
    result.rootImage = root.value(u"image"_s).toString();
    const QString script = root.value(u"script"_s).toString();
    if (!result.parent.isEmpty() && !result.rootImage.isEmpty())
        return failWith(u"%1: give \"parent\" or \"root\", not both"_s.arg(metaPath));
    if (!result.parent.isEmpty() && !isValidId(result.parent))
        return failWith(u"%1: \"parent\" \"%2\" is not an image id"_s.arg(metaPath, result.parent));
    if (!script.isEmpty()) {
        if (result.rootImage.isEmpty())
            return failWith(u"%1: \"root\" has a \"script\" but no \"image\""_s.arg(metaPath));
        result.rootScript = QDir(m_options.imagesDir).absoluteFilePath(script);
        if (!QFileInfo(result.rootScript).isFile())
            return failWith(u"%1: root script %2 does not exist"_s.arg(metaPath, result.rootScript));
    }
    static const QRegularExpression argPattern(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    if (!result.parentArg.isEmpty() && !argPattern.match(result.parentArg).hasMatch())
        return failWith(u"%1: \"parentArg\" \"%2\" is not a build argument name"_s.arg(metaPath, result.parentArg));
    return result;
}

QList<ImageBuilder::Recipe> ImageBuilder::chain(const QString &catalogId, QString *error) const
{
    QList<Recipe> result;
    QSet<QString> seen;
    QString id = catalogId;
    while (!id.isEmpty()) {
        if (seen.contains(id)) {
            if (error)
                *error = u"image \"%1\" is built on itself (parents: %2)"_s.arg(catalogId, QStringList(seen.values()).join(u", "_s));
            return {};
        }
        seen.insert(id);
        QString problem;
        const std::optional<Recipe> step = recipe(id, &problem);
        if (!step) {
            if (error)
                *error = id == catalogId ? problem : u"%1 (needed by \"%2\")"_s.arg(problem, catalogId);
            return {};
        }
        result.prepend(*step);
        id = step->parent;
    }
    return result;
}

QStringList ImageBuilder::recipeIds() const
{
    QStringList ids;
    const QStringList names = QDir(m_options.imagesDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        if (recipe(name))
            ids.append(name);
    }
    // Parents first: order by chain length, then name.
    QHash<QString, qsizetype> depth;
    for (const QString &id : std::as_const(ids))
        depth.insert(id, chain(id).size());
    std::stable_sort(ids.begin(), ids.end(), [&](const QString &a, const QString &b) { return depth.value(a) < depth.value(b); });
    return ids;
}

QString ImageBuilder::recipeHash(const QString &dir, QString *error)
{
    const QDir root(dir);
    if (!root.exists()) {
        if (error)
            *error = u"%1 does not exist"_s.arg(dir);
        return {};
    }
    QStringList files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(root.relativeFilePath(it.next()));
    std::sort(files.begin(), files.end()); // byte order of UTF-16, independent of locale

    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData("cardhour-recipe/1\n"_ba);
    for (const QString &relative : std::as_const(files)) {
        QFile file(root.filePath(relative));
        if (!file.open(QIODevice::ReadOnly)) {
            if (error)
                *error = u"%1: %2"_s.arg(file.fileName(), file.errorString());
            return {};
        }
        const QByteArray content = file.readAll();
        const bool executable = QFileInfo(file).isExecutable();
        hash.addData(relative.toUtf8());
        hash.addData(executable ? "\0x\0"_ba : "\0-\0"_ba);
        hash.addData(QByteArray::number(content.size()));
        hash.addData("\0"_ba);
        hash.addData(content);
    }
    return QString::fromLatin1(hash.result().toHex());
}

// ---- podman -----------------------------------------------------------------------------

QProcessEnvironment ImageBuilder::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_options.containersConf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, m_options.containersConf);
    env.insert(u"PODMAN"_s, m_options.podman);
    return env;
}

ImageBuilder::ProcessResult ImageBuilder::runPodmanSync(const QStringList &args, int timeoutMs) const
{
    ProcessResult result;
    QProcess process;
    process.setProcessEnvironment(environment());
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(m_options.podman, args);
    if (!process.waitForStarted(10000)) {
        result.startError = u"cannot run %1: %2"_s.arg(m_options.podman, process.errorString());
        return result;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        result.startError = u"%1 %2 did not answer within %3 s"_s.arg(m_options.podman, args.value(0)).arg(timeoutMs / 1000);
        return result;
    }
    result.exitCode = process.exitCode();
    result.crashed = process.exitStatus() == QProcess::CrashExit;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

void ImageBuilder::runAsync(const QString &program, const QStringList &args, ProcessCallback done,
                            std::function<void(const QString &)> onLine)
{
    auto *process = new QProcess(this);
    m_process = process;
    process->setProcessEnvironment(environment());
    process->setStandardInputFile(QProcess::nullDevice());
    process->setProcessChannelMode(onLine ? QProcess::MergedChannels : QProcess::SeparateChannels);
    auto buffer = std::make_shared<QByteArray>();
    auto handled = std::make_shared<bool>(false);

    // Output arrives in arbitrary pieces; hand on whole lines (\n or \r ends one).
    auto drain = [process, buffer, onLine](bool atEnd) {
        buffer->append(process->readAllStandardOutput());
        qsizetype start = 0;
        for (qsizetype i = 0; i < buffer->size(); ++i) {
            const char c = buffer->at(i);
            if (c == '\n' || c == '\r') {
                const QString line = QString::fromUtf8(buffer->constData() + start, i - start).trimmed();
                if (!line.isEmpty())
                    onLine(line);
                start = i + 1;
            }
        }
        buffer->remove(0, start);
        if (atEnd && !buffer->isEmpty()) {
            const QString line = QString::fromUtf8(*buffer).trimmed();
            buffer->clear();
            if (!line.isEmpty())
                onLine(line);
        }
    };
    if (onLine)
        connect(process, &QProcess::readyReadStandardOutput, this, [drain] { drain(false); });

    connect(process, &QProcess::finished, this,
            [this, process, done, drain, handled, hasLines = bool(onLine)](int exitCode, QProcess::ExitStatus status) {
                if (*handled)
                    return;
                *handled = true;
                ProcessResult result;
                if (hasLines) {
                    drain(true);
                } else {
                    result.out = process->readAllStandardOutput();
                    result.err = process->readAllStandardError();
                }
                result.exitCode = exitCode;
                result.crashed = status == QProcess::CrashExit;
                if (m_process == process)
                    m_process = nullptr;
                process->deleteLater();
                done(result);
            });
    connect(process, &QProcess::errorOccurred, this, [this, process, done, handled, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || *handled)
            return;
        *handled = true;
        ProcessResult result;
        result.startError = u"cannot run %1: %2"_s.arg(program, process->errorString());
        if (m_process == process)
            m_process = nullptr;
        process->deleteLater();
        done(result);
    });
    process->start(program, args);
}

bool ImageBuilder::imageExists(const QString &reference) const
{
    const ProcessResult result = runPodmanSync({u"image"_s, u"exists"_s, reference});
    return result.startError.isEmpty() && !result.crashed && result.exitCode == 0;
}

QString ImageBuilder::podmanProblem() const
{
    const ProcessResult result = runPodmanSync({u"info"_s, u"--format"_s, u"{{.Host.OCIRuntime.Name}}"_s});
    if (!result.startError.isEmpty())
        return result.startError;
    if (result.exitCode != 0 || result.crashed) {
        const QString said = trimmedText(result.err);
        return u"podman info failed (exit %1)%2"_s.arg(result.exitCode).arg(said.isEmpty() ? QString() : u": "_s + said);
    }
    return {};
}

ImageBuilder::ImageInfo ImageBuilder::infoFrom(const QString &catalogId, const ProcessResult &result) const
{
    ImageInfo info;
    info.catalogId = catalogId;
    info.tag = tag(catalogId);
    QString hashError;
    info.recipeSha256 = recipeHash(QDir(m_options.imagesDir).filePath(catalogId), &hashError);
    if (!result.startError.isEmpty()) {
        info.error = result.startError;
        return info;
    }
    if (result.exitCode != 0 || result.crashed) {
        const QString said = trimmedText(result.err);
        if (!said.contains(u"image not known"_s, Qt::CaseInsensitive) && !said.contains(u"no such image"_s, Qt::CaseInsensitive))
            info.error = u"podman image inspect %1 failed (exit %2): %3"_s.arg(info.tag).arg(result.exitCode).arg(said);
        return info;
    }
    const QJsonObject image = QJsonDocument::fromJson(result.out).array().at(0).toObject();
    if (image.isEmpty()) {
        info.error = u"podman image inspect %1 gave no image"_s.arg(info.tag);
        return info;
    }
    info.exists = true;
    info.imageId = image.value(u"Id"_s).toString();
    info.size = image.value(u"Size"_s).toInteger();
    info.created = parseTime(image.value(u"Created"_s).toString());
    QJsonObject labels = image.value(u"Labels"_s).toObject();
    if (labels.isEmpty())
        labels = image.value(u"Config"_s).toObject().value(u"Labels"_s).toObject();
    info.builtRecipeSha256 = labels.value(kLabelRecipe).toString();
    info.builtParentImage = labels.value(kLabelParent).toString();
    if (labels.value(kLabelImage).toString() != catalogId)
        info.builtRecipeSha256.clear(); // not ours, or built for another id: never Current
    if (!hashError.isEmpty())
        info.error = hashError;
    return info;
}

QString ImageBuilder::imageIdOf(const ProcessResult &result)
{
    if (!result.startError.isEmpty() || result.exitCode != 0)
        return {};
    return QJsonDocument::fromJson(result.out).array().at(0).toObject().value(u"Id"_s).toString();
}

void ImageBuilder::judge(ImageInfo *info, const QString &parentImageId)
{
    if (!info->exists) {
        info->status = Status::Missing;
        return;
    }
    if (info->builtRecipeSha256.isEmpty()) {
        info->status = Status::Stale;
        info->reason = u"not built by cardhour from this recipe"_s;
    } else if (info->builtRecipeSha256 != info->recipeSha256) {
        info->status = Status::Stale;
        info->reason = u"the recipe changed"_s;
    } else if (!parentImageId.isEmpty() && info->builtParentImage != parentImageId) {
        info->status = Status::Stale;
        info->reason = u"the image it is built on changed"_s;
    } else {
        info->status = Status::Current;
        info->reason.clear();
    }
}

ImageBuilder::ImageInfo ImageBuilder::inspect(const QString &catalogId) const
{
    QString error;
    const QList<Recipe> recipes = chain(catalogId, &error);
    if (recipes.isEmpty()) {
        ImageInfo info;
        info.catalogId = catalogId;
        info.tag = tag(catalogId);
        info.error = error;
        return info;
    }
    ImageInfo previous;
    bool ancestorStale = false;
    for (const Recipe &step : recipes) {
        ImageInfo info = infoFrom(step.id, runPodmanSync({u"image"_s, u"inspect"_s, tag(step.id)}));
        if (!info.error.isEmpty())
            return info;
        QString parentId;
        if (!step.parent.isEmpty())
            parentId = previous.imageId;
        else if (!step.rootImage.isEmpty())
            parentId = imageIdOf(runPodmanSync({u"image"_s, u"inspect"_s, rootTag(step)}));
        judge(&info, parentId);
        if (info.status == Status::Current && ancestorStale) {
            info.status = Status::Stale;
            info.reason = u"\"%1\", which it is built on, is stale"_s.arg(previous.catalogId);
        }
        ancestorStale = ancestorStale || previous.status == Status::Stale || info.status == Status::Stale;
        previous = info;
    }
    return previous;
}

ImageBuilder::Status ImageBuilder::status(const QString &catalogId) const
{
    return inspect(catalogId).status;
}

// ---- building ---------------------------------------------------------------------------

void ImageBuilder::build(const QString &catalogId)
{
    m_queue.append(catalogId);
    if (!m_current)
        QTimer::singleShot(0, this, &ImageBuilder::startNext);
}

void ImageBuilder::cancelAll()
{
    QStringList cancelled = m_queue;
    m_queue.clear();
    if (m_current) {
        cancelled.prepend(m_current->requested);
        m_current.reset();
    }
    if (m_process) {
        QProcess *process = m_process;
        m_process = nullptr;
        process->disconnect(this);
        connect(process, &QProcess::finished, process, &QObject::deleteLater);
        process->terminate();
        QTimer::singleShot(20000, process, [process] { process->kill(); });
    }
    QTimer::singleShot(0, this, [this, cancelled] {
        for (const QString &id : cancelled)
            Q_EMIT finished(id, false, u"cancelled"_s);
    });
}

void ImageBuilder::startNext()
{
    while (!m_current && !m_queue.isEmpty()) {
        const QString id = m_queue.takeFirst();
        QString error;
        QList<Recipe> recipes = chain(id, &error);
        if (recipes.isEmpty()) {
            Q_EMIT finished(id, false, error);
            continue;
        }
        Job job;
        job.requested = id;
        job.chain = std::move(recipes);
        m_current = std::move(job);
        ensureRoot();
    }
}

void ImageBuilder::finishJob(bool ok, const QString &error)
{
    if (m_current) {
        const QString id = m_current->requested;
        m_current.reset();
        Q_EMIT finished(id, ok, error);
    }
    QTimer::singleShot(0, this, &ImageBuilder::startNext);
}

void ImageBuilder::ensureRoot()
{
    const Recipe first = m_current->chain.first();
    const QString root = rootTag(first);
    if (root.isEmpty()) {
        checkElement();
        return;
    }
    // The failure of the root counts as the failure of the first recipe of the chain.
    auto fail = [this, first](const QString &error) {
        if (first.id != m_current->requested)
            Q_EMIT finished(first.id, false, error);
        finishJob(false, first.id == m_current->requested ? error : u"cannot build \"%1\": %2"_s.arg(first.id, error));
    };
    Q_EMIT progress(first.id, u"check"_s, 0, 0, u"looking for the root image %1"_s.arg(root));
    runAsync(m_options.podman, {u"image"_s, u"exists"_s, root}, [this, first, root, fail](const ProcessResult &exists) {
        if (!m_current)
            return;
        if (exists.startError.isEmpty() && exists.exitCode == 0) {
            checkElement();
            return;
        }
        if (!exists.startError.isEmpty() || exists.exitCode != 1) {
            fail(exists.startError.isEmpty()
                     ? u"podman image exists %1 failed (exit %2): %3"_s.arg(root).arg(exists.exitCode).arg(trimmedText(exists.err))
                     : exists.startError);
            return;
        }
        if (first.rootScript.isEmpty()) {
            fail(u"the root image %1 is missing and the recipe names no script to make it"_s.arg(root));
            return;
        }
        Q_EMIT progress(first.id, u"bootstrap"_s, 0, 0, u"making the root image %1 with %2"_s.arg(root, first.rootScript));
        m_tail.clear();
        const QFileInfo script(first.rootScript);
        const QString program = script.isExecutable() ? script.absoluteFilePath() : u"/bin/bash"_s;
        QStringList args{root};
        if (!script.isExecutable())
            args.prepend(script.absoluteFilePath());
        runAsync(
            program, args,
            [this, fail, script](const ProcessResult &made) {
                if (!m_current)
                    return;
                if (made.startError.isEmpty() && made.exitCode == 0 && !made.crashed)
                    checkElement();
                else if (!made.startError.isEmpty())
                    fail(made.startError);
                else
                    fail(describeFailure(script.fileName(), made.exitCode, made.crashed, m_tail));
            },
            [this, id = first.id](const QString &line) {
                m_tail.append(line);
                if (m_tail.size() > kTailLines)
                    m_tail.removeFirst();
                Q_EMIT progress(id, u"bootstrap"_s, 0, 0, line);
            });
    });
}

void ImageBuilder::checkElement()
{
    const Recipe step = m_current->chain.at(m_current->index);
    const QString parentTag = step.parent.isEmpty() ? rootTag(step) : tag(step.parent);
    Q_EMIT progress(step.id, u"check"_s, 0, 0, u"checking %1"_s.arg(tag(step.id)));

    auto decide = [this, step](const ProcessResult &own, const QString &parentImageId) {
        if (!m_current)
            return;
        ImageInfo info = infoFrom(step.id, own);
        if (!info.error.isEmpty()) {
            if (step.id != m_current->requested)
                Q_EMIT finished(step.id, false, info.error);
            finishJob(false, info.error);
            return;
        }
        judge(&info, parentImageId);
        if (info.status != Status::Current) {
            buildElement(parentImageId, info.status == Status::Stale ? info.reason : u"not built yet"_s, info.imageId);
            return;
        }
        Q_EMIT progress(step.id, u"current"_s, 0, 0, u"%1 is current"_s.arg(info.tag));
        if (step.id == m_current->requested) {
            finishJob(true, {});
        } else {
            ++m_current->index;
            checkElement();
        }
    };
    runAsync(m_options.podman, {u"image"_s, u"inspect"_s, tag(step.id)}, [this, parentTag, decide](const ProcessResult &own) {
        if (!m_current)
            return;
        if (parentTag.isEmpty()) {
            decide(own, {});
            return;
        }
        runAsync(m_options.podman, {u"image"_s, u"inspect"_s, parentTag}, [own, decide](const ProcessResult &parent) {
            decide(own, imageIdOf(parent));
        });
    });
}

void ImageBuilder::buildElement(const QString &parentImageId, const QString &why, const QString &oldImageId)
{
    const Recipe step = m_current->chain.at(m_current->index);
    const QString target = tag(step.id);
    QString hashError;
    const QString hash = recipeHash(step.dir, &hashError);
    if (hash.isEmpty()) {
        if (step.id != m_current->requested)
            Q_EMIT finished(step.id, false, hashError);
        finishJob(false, hashError);
        return;
    }
    QStringList args{u"build"_s, u"--layers"_s, u"--force-rm"_s,
                     u"--label"_s, u"%1=%2"_s.arg(kLabelImage, step.id),
                     u"--label"_s, u"%1=%2"_s.arg(kLabelRecipe, hash),
                     u"--label"_s, u"%1=%2"_s.arg(kLabelParent, parentImageId)};
    const QString parentTag = step.parent.isEmpty() ? rootTag(step) : tag(step.parent);
    // The parent goes in by image id, not tag: the image is then built on exactly the image its
    // cardhour.parent-image label names, even if someone retags the parent meanwhile.
    if (!step.parentArg.isEmpty() && !parentTag.isEmpty())
        args << u"--build-arg"_s << u"%1=%2"_s.arg(step.parentArg, parentImageId.isEmpty() ? parentTag : parentImageId);
    args << u"--tag"_s << target << step.dir;

    m_step = 0;
    m_totalSteps = 0;
    m_tail.clear();
    const QString on = parentTag.isEmpty() ? QString() : u" on %1 %2"_s.arg(parentTag, parentImageId.left(12));
    Q_EMIT progress(step.id, u"start"_s, 0, 0, u"building %1%2 (%3)"_s.arg(target, on, why));
    runAsync(
        m_options.podman, args,
        [this, step, oldImageId](const ProcessResult &result) {
            if (!m_current)
                return;
            const bool requested = step.id == m_current->requested;
            if (result.startError.isEmpty() && result.exitCode == 0 && !result.crashed) {
                if (oldImageId.isEmpty()) {
                    elementBuilt(step.id);
                    return;
                }
                // Drop the image this one replaces, unless something still uses it (a
                // container, an image built on it, another tag): podman refuses then, fine.
                runAsync(m_options.podman, {u"image"_s, u"inspect"_s, tag(step.id)}, [this, id = step.id, oldImageId](const ProcessResult &now) {
                    if (!m_current)
                        return;
                    if (imageIdOf(now) == oldImageId) { // the same image again
                        elementBuilt(id);
                        return;
                    }
                    runAsync(m_options.podman, {u"image"_s, u"rm"_s, oldImageId}, [this, id](const ProcessResult &) {
                        if (m_current)
                            elementBuilt(id);
                    });
                });
                return;
            }
            const QString error = result.startError.isEmpty()
                ? describeFailure(u"podman build"_s, result.exitCode, result.crashed, m_tail)
                : result.startError;
            if (requested) {
                finishJob(false, error);
            } else {
                Q_EMIT finished(step.id, false, error);
                finishJob(false, u"cannot build \"%1\": %2"_s.arg(step.id, error));
            }
        },
        [this, id = step.id](const QString &line) { onBuildLine(id, line); });
}

void ImageBuilder::elementBuilt(const QString &catalogId)
{
    if (catalogId == m_current->requested) {
        finishJob(true, {});
    } else {
        Q_EMIT finished(catalogId, true, {});
        ++m_current->index;
        checkElement();
    }
}

void ImageBuilder::onBuildLine(const QString &catalogId, const QString &line)
{
    // "STEP 3/8: RUN ..." (or "[1/2] STEP 3/8: ..." in multi-stage builds).
    static const QRegularExpression stepLine(u"^(?:\\[\\d+/\\d+\\]\\s+)?STEP\\s+(\\d+)(?:/(\\d+))?:"_s);
    m_tail.append(line);
    if (m_tail.size() > kTailLines)
        m_tail.removeFirst();
    QString stage = u"output"_s;
    if (const QRegularExpressionMatch match = stepLine.match(line); match.hasMatch()) {
        m_step = match.captured(1).toInt();
        m_totalSteps = match.captured(2).isEmpty() ? m_totalSteps : match.captured(2).toInt();
        stage = u"step"_s;
    } else if (line.startsWith(u"COMMIT"_s)) {
        stage = u"commit"_s;
    }
    Q_EMIT progress(catalogId, stage, m_step, m_totalSteps, line);
}

} // namespace cardhour::sim
