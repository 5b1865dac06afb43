#include "runtime/ImageBuilder.h"

#include "runtime/Process.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kTailLines = 60;

QString describeFailure(const QString &what, int exitCode, bool crashed, const QStringList &tail)
{
    QStringList errors;
    for (const QString &line : tail) {
        if (line.startsWith(u"Error"_s, Qt::CaseInsensitive) || line.startsWith(u"E: "_s))
            errors.append(line);
    }
    if (errors.isEmpty())
        errors = tail.mid(std::max<qsizetype>(0, tail.size() - 8));
    const QString head =
        crashed ? u"%1 was killed"_s.arg(what) : u"%1 exited with %2"_s.arg(what).arg(exitCode);
    return errors.isEmpty() ? head : u"%1: %2"_s.arg(head, errors.join(u'\n'));
}

ImageBuilder::Options withDefaults(ImageBuilder::Options options)
{
    if (options.podman.isEmpty())
        options.podman = u"podman"_s;
    return options;
}

// podman's, and the root scripts' (which call $PODMAN).
QProcessEnvironment environmentFor(const ImageBuilder::Options &options)
{
    QProcessEnvironment env = containersEnvironment(options.containersConf);
    env.insert(u"PODMAN"_s, options.podman);
    return env;
}

} // namespace

ImageBuilder::ImageBuilder(Options options, QObject *parent)
    : QObject(parent), m_options(withDefaults(std::move(options))),
      m_environment(environmentFor(m_options)), m_recipes(m_options.imagesDir, m_options.tagPrefix),
      m_inspector(m_recipes, m_options.podman, m_environment)
{
    m_options.imagesDir = m_recipes.imagesDir();
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

void ImageBuilder::runAsync(const QString &program, const QStringList &args, AnswerCallback done,
                            std::function<void(const QString &)> onLine)
{
    Process::Options options;
    options.environment = m_environment;
    options.mergeChannels = bool(onLine);
    options.lines = bool(onLine);
    Process *process = Process::start(this, program, args, options,
                                      [this, program, args, done](const ProcessResult &run) {
                                          m_process = nullptr;
                                          done(PodmanAnswer::of(run, program, args));
                                      });
    if (onLine)
        connect(process, &Process::line, this, onLine);
    m_process = process;
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
        // podman may clean up its build container on SIGTERM; SIGKILL only if it hangs.
        Process *process = m_process;
        m_process = nullptr;
        process->disconnect(this);
        connect(process, &Process::finished, process, &QObject::deleteLater);
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
        QList<ImageRecipe> recipes = m_recipes.chain(id, &error);
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
    const ImageRecipe first = m_current->chain.first();
    const QString root = m_recipes.rootTag(first);
    if (root.isEmpty()) {
        checkElement();
        return;
    }
    // The failure of the root counts as the failure of the first recipe of the chain.
    auto fail = [this, first](const QString &error) {
        if (first.id != m_current->requested)
            Q_EMIT finished(first.id, false, error);
        finishJob(false,
                  first.id == m_current->requested
                      ? error
                      : u"cannot build \"%1\": %2"_s.arg(first.id, error));
    };
    Q_EMIT progress(first.id, u"check"_s, 0, 0, u"looking for the root image %1"_s.arg(root));
    runAsync(
        m_options.podman, {u"image"_s, u"exists"_s, root},
        [this, first, root, fail](const PodmanAnswer &exists) {
            if (!m_current)
                return;
            if (exists.failure.isEmpty() && exists.exitCode == 0) {
                checkElement();
                return;
            }
            if (!exists.failure.isEmpty() || exists.exitCode != 1) {
                fail(exists.failure.isEmpty()
                         ? u"podman image exists %1 failed (exit %2): %3"_s.arg(root)
                               .arg(exists.exitCode)
                               .arg(trimmedText(exists.err))
                         : exists.failure);
                return;
            }
            if (first.rootScript.isEmpty()) {
                fail(
                    u"the root image %1 is missing and the recipe names no script to make it"_s.arg(
                        root));
                return;
            }
            Q_EMIT progress(first.id, u"bootstrap"_s, 0, 0,
                            u"making the root image %1 with %2"_s.arg(root, first.rootScript));
            m_tail.clear();
            const QFileInfo script(first.rootScript);
            const QString program =
                script.isExecutable() ? script.absoluteFilePath() : u"/bin/bash"_s;
            QStringList args{root};
            if (!script.isExecutable())
                args.prepend(script.absoluteFilePath());
            runAsync(
                program, args,
                [this, fail, script](const PodmanAnswer &made) {
                    if (!m_current)
                        return;
                    if (made.failure.isEmpty() && made.exitCode == 0 && !made.crashed)
                        checkElement();
                    else if (!made.failure.isEmpty())
                        fail(made.failure);
                    else
                        fail(describeFailure(script.fileName(), made.exitCode, made.crashed,
                                             m_tail));
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
    const ImageRecipe step = m_current->chain.at(m_current->index);
    const QString parentTag =
        step.parent.isEmpty() ? m_recipes.rootTag(step) : m_recipes.tag(step.parent);
    Q_EMIT progress(step.id, u"check"_s, 0, 0, u"checking %1"_s.arg(m_recipes.tag(step.id)));

    auto decide = [this, step](const PodmanAnswer &own, const QString &parentImageId) {
        if (!m_current)
            return;
        ImageInfo info = m_inspector.infoFrom(step.id, own);
        if (!info.error.isEmpty()) {
            if (step.id != m_current->requested)
                Q_EMIT finished(step.id, false, info.error);
            finishJob(false, info.error);
            return;
        }
        ImageInspector::judge(&info, parentImageId);
        if (info.status != ImageStatus::Current) {
            buildElement(parentImageId,
                         info.status == ImageStatus::Stale ? info.reason : u"not built yet"_s,
                         info.imageId);
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
    runAsync(m_options.podman, {u"image"_s, u"inspect"_s, m_recipes.tag(step.id)},
             [this, parentTag, decide](const PodmanAnswer &own) {
                 if (!m_current)
                     return;
                 if (parentTag.isEmpty()) {
                     decide(own, {});
                     return;
                 }
                 runAsync(m_options.podman, {u"image"_s, u"inspect"_s, parentTag},
                          [own, decide](const PodmanAnswer &parent) {
                              decide(own, ImageInspector::imageIdOf(parent));
                          });
             });
}

void ImageBuilder::buildElement(const QString &parentImageId, const QString &why,
                                const QString &oldImageId)
{
    const ImageRecipe step = m_current->chain.at(m_current->index);
    const QString target = m_recipes.tag(step.id);
    QString hashError;
    const QString hash = ImageRecipes::recipeHash(step.dir, &hashError);
    if (hash.isEmpty()) {
        if (step.id != m_current->requested)
            Q_EMIT finished(step.id, false, hashError);
        finishJob(false, hashError);
        return;
    }
    QStringList args{u"build"_s,
                     u"--layers"_s,
                     u"--force-rm"_s,
                     u"--label"_s,
                     u"%1=%2"_s.arg(kImageLabel, step.id),
                     u"--label"_s,
                     u"%1=%2"_s.arg(kRecipeLabel, hash),
                     u"--label"_s,
                     u"%1=%2"_s.arg(kParentLabel, parentImageId)};
    const QString parentTag =
        step.parent.isEmpty() ? m_recipes.rootTag(step) : m_recipes.tag(step.parent);
    // The parent goes in by image id, not tag: the image is then built on exactly the image its
    // cardhour.parent-image label names, even if someone retags the parent meanwhile.
    if (!step.parentArg.isEmpty() && !parentTag.isEmpty())
        args << u"--build-arg"_s
             << u"%1=%2"_s.arg(step.parentArg, parentImageId.isEmpty() ? parentTag : parentImageId);
    args << u"--tag"_s << target << step.dir;

    m_step = 0;
    m_totalSteps = 0;
    m_tail.clear();
    const QString on =
        parentTag.isEmpty() ? QString() : u" on %1 %2"_s.arg(parentTag, parentImageId.left(12));
    Q_EMIT progress(step.id, u"start"_s, 0, 0, u"building %1%2 (%3)"_s.arg(target, on, why));
    runAsync(
        m_options.podman, args,
        [this, step, oldImageId](const PodmanAnswer &result) {
            if (!m_current)
                return;
            const bool requested = step.id == m_current->requested;
            if (result.failure.isEmpty() && result.exitCode == 0 && !result.crashed) {
                if (oldImageId.isEmpty()) {
                    elementBuilt(step.id);
                    return;
                }
                // Drop the image this one replaces, unless something still uses it (a
                // container, an image built on it, another tag): podman refuses then, fine.
                runAsync(m_options.podman, {u"image"_s, u"inspect"_s, m_recipes.tag(step.id)},
                         [this, id = step.id, oldImageId](const PodmanAnswer &now) {
                             if (!m_current)
                                 return;
                             if (ImageInspector::imageIdOf(now)
                                 == oldImageId) { // the same image again
                                 elementBuilt(id);
                                 return;
                             }
                             runAsync(m_options.podman, {u"image"_s, u"rm"_s, oldImageId},
                                      [this, id](const PodmanAnswer &) {
                                          if (m_current)
                                              elementBuilt(id);
                                      });
                         });
                return;
            }
            const QString error = result.failure.isEmpty()
                ? describeFailure(u"podman build"_s, result.exitCode, result.crashed, m_tail)
                : result.failure;
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
    static const QRegularExpression stepLine(
        u"^(?:\\[\\d+/\\d+\\]\\s+)?STEP\\s+(\\d+)(?:/(\\d+))?:"_s);
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
