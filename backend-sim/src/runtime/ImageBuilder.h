#pragma once

#include "ImageInspector.h"
#include "ImageRecipes.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace cardhour::sim {

class Process;

// Builds the container images behind the catalog's image ids with podman, from the recipes of
// an images directory (ImageRecipes), one build at a time: a queue of requests, each building
// the chain of recipes it needs. Whether an image needs a build is ImageInspector's judgement
// (its labels are set here); recipes(), inspector() give both, configured alike.
class ImageBuilder : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString podman = QStringLiteral("podman");
        QString containersConf; // set as CONTAINERS_CONF for podman; empty: inherit the environment
        QString imagesDir; // empty: ImageRecipes::defaultImagesDir()
        QString tagPrefix = QStringLiteral("localhost/cardhour/");
    };

    explicit ImageBuilder(Options options, QObject *parent = nullptr);
    ~ImageBuilder() override;

    const Options &options() const { return m_options; }
    const ImageRecipes &recipes() const { return m_recipes; }
    const ImageInspector &inspector() const { return m_inspector; }

    // Builds catalogId, first making its root and building its parents where they are not
    // Current. Returns at once; several calls queue up and run one after the other. Signals
    // come from the event loop, never from inside the call. `finished` comes once for every
    // image this built (parents first) and always for catalogId itself, last.
    void build(const QString &catalogId);
    bool isBusy() const { return m_current.has_value() || !m_queue.isEmpty(); }
    // Stops the running podman/bootstrap process and drops the queue; every pending build ends
    // with finished(id, false, "cancelled").
    void cancelAll();

Q_SIGNALS:
    // stage: "check" (deciding whether catalogId needs a build), "current" (it does not),
    // "bootstrap" (making the root image; line is the script's output), "start" (podman build
    // begins), "step" (a "STEP n/m:" line), "output" (any other build output; step/totalSteps
    // are those of the step it belongs to), "commit" (writing the image). totalSteps is podman's
    // count: the recipe's instructions plus one LABEL step per label the builder adds (3).
    void progress(const QString &catalogId, const QString &stage, int step, int totalSteps,
                  const QString &line);
    void finished(const QString &catalogId, bool ok, const QString &error);

private:
    struct Job
    {
        QString requested;
        QList<ImageRecipe> chain;
        int index = 0; // chain element being worked on
    };
    using AnswerCallback = std::function<void(const PodmanAnswer &)>;

    // Runs program without blocking; with onLine, its merged output goes there line by line.
    void runAsync(const QString &program, const QStringList &args, AnswerCallback done,
                  std::function<void(const QString &line)> onLine = {});

    void startNext();
    void ensureRoot();
    void checkElement();
    void buildElement(const QString &parentImageId, const QString &why, const QString &oldImageId);
    void elementBuilt(const QString &catalogId);
    void finishJob(bool ok, const QString &error);
    void onBuildLine(const QString &catalogId, const QString &line);

    Options m_options;
    QProcessEnvironment m_environment; // CONTAINERS_CONF and PODMAN for podman and the scripts
    ImageRecipes m_recipes;
    ImageInspector m_inspector;
    QList<QString> m_queue;
    std::optional<Job> m_current;
    QPointer<Process> m_process; // the podman or script run under way
    int m_step = 0;
    int m_totalSteps = 0;
    QStringList m_tail; // last lines of the running process's output
};

} // namespace cardhour::sim
