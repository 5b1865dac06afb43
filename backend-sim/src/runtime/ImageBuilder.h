#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace cardhour::sim {

// Builds the container images behind the catalog's image ids with podman, from the recipes in
// an images directory (one folder per catalog id):
//
//   images/<id>/Containerfile   the recipe (plus any files it COPYs)
//   images/<id>/image.json      optional: where the recipe starts from, e.g.
//       {"id": "pytorch", "parent": "base", "parentArg": "BASE_IMAGE"}
//           built on catalog image "base": built first when not Current, and passed to
//           `podman build` as --build-arg BASE_IMAGE=<tag of base>;
//       {"id": "base", "root": {"image": "debian:bookworm", "script": "bootstrap-debian"},
//        "parentArg": "DEBIAN_IMAGE"}
//           built on a root image (tag prefix + "debian:bookworm") that is not built from a
//           recipe but made, when missing, by a script in the images directory (run with
//           the root's tag as its argument, CONTAINERS_CONF and PODMAN in its environment).
//     Without image.json the Containerfile's own FROM is used as is.
//
// Catalog id X is tagged `<tagPrefix>X:latest` (default localhost/cardhour/X:latest), with the
// labels cardhour.image=X, cardhour.recipe-sha256=<recipeHash of images/X> and
// cardhour.parent-image=<image id of the parent (or root) it was built on>. An image is
//   Missing  when the tag does not exist,
//   Stale    when its recipe changed since, its parent was rebuilt since, or a catalog image it
//            is built on is Stale itself,
//   Current  otherwise.
class ImageBuilder : public QObject
{
    Q_OBJECT
public:
    enum class Status { Missing, Stale, Current };
    Q_ENUM(Status)

    struct Options
    {
        QString podman = QStringLiteral("podman");
        QString containersConf; // set as CONTAINERS_CONF for podman; empty: inherit the environment
        QString imagesDir;      // empty: defaultImagesDir()
        QString tagPrefix = QStringLiteral("localhost/cardhour/");
    };

    struct Recipe
    {
        QString id;
        QString dir;        // absolute
        QString parent;     // catalog id it is built on, or empty
        QString parentArg;  // build argument that receives the parent's (or root's) tag
        QString rootImage;  // root image below the prefix, e.g. "debian:bookworm", or empty
        QString rootScript; // absolute path of the script that makes the root, or empty
    };

    struct ImageInfo
    {
        QString catalogId;
        QString tag;
        Status status = Status::Missing;
        bool exists = false;
        QString imageId;            // podman's image id (sha256 hex)
        qint64 size = 0;            // bytes
        QDateTime created;
        QString recipeSha256;       // of the recipe as it is now
        QString builtRecipeSha256;  // label of the image
        QString builtParentImage;   // label of the image
        QString reason;             // why Stale, in words
        QString error;              // podman could not answer (then status is Missing)
    };

    explicit ImageBuilder(Options options, QObject *parent = nullptr);
    ~ImageBuilder() override;

    // The source tree's backend-sim/images (compiled in).
    static QString defaultImagesDir();
    static QString statusName(Status status); // "missing", "stale", "current"

    const Options &options() const { return m_options; }
    QString imagesDir() const { return m_options.imagesDir; }
    QString tag(const QString &catalogId) const;
    QString rootTag(const Recipe &recipe) const;

    // Folders of the images directory that hold a Containerfile, parents before children.
    QStringList recipeIds() const;
    // Reads images/<id>; nullopt with *error set when it is missing or malformed.
    std::optional<Recipe> recipe(const QString &catalogId, QString *error = nullptr) const;
    // The recipe and the recipes it is built on, the root-most first; empty with *error set on a
    // missing or malformed recipe or a cycle.
    QList<Recipe> chain(const QString &catalogId, QString *error = nullptr) const;

    // SHA-256 (hex) over every file below dir: relative paths, executable bits and contents,
    // in a fixed order; timestamps and the folder's own location do not count. Empty with
    // *error set when a file cannot be read.
    static QString recipeHash(const QString &dir, QString *error = nullptr);

    // These run `podman image inspect` and wait for it (quick, but they do block): for the CLI
    // and for tests. build() never blocks.
    Status status(const QString &catalogId) const;
    ImageInfo inspect(const QString &catalogId) const;
    // Whether an image (any reference or id) exists; false also when podman cannot answer.
    bool imageExists(const QString &reference) const;
    // Whether podman works at all: empty when it does, else what it said.
    QString podmanProblem() const;

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
    void progress(const QString &catalogId, const QString &stage, int step, int totalSteps, const QString &line);
    void finished(const QString &catalogId, bool ok, const QString &error);

private:
    struct Job
    {
        QString requested;
        QList<Recipe> chain;
        int index = 0;      // chain element being worked on
    };
    struct ProcessResult
    {
        int exitCode = -1;
        bool crashed = false;
        QByteArray out;
        QByteArray err;
        QString startError;
    };
    using ProcessCallback = std::function<void(const ProcessResult &)>;

    QProcessEnvironment environment() const;
    ProcessResult runPodmanSync(const QStringList &args, int timeoutMs = 60000) const;
    void runAsync(const QString &program, const QStringList &args, ProcessCallback done,
                  std::function<void(const QString &line)> onLine = {});
    ImageInfo infoFrom(const QString &catalogId, const ProcessResult &inspectResult) const;
    static QString imageIdOf(const ProcessResult &inspectResult);
    // Own staleness of `info` given the parent's image id (empty when the parent is missing).
    static void judge(ImageInfo *info, const QString &parentImageId);

    void startNext();
    void ensureRoot();
    void checkElement();
    void buildElement(const QString &parentImageId, const QString &why, const QString &oldImageId);
    void elementBuilt(const QString &catalogId);
    void finishJob(bool ok, const QString &error);
    void onBuildLine(const QString &catalogId, const QString &line);

    Options m_options;
    QList<QString> m_queue;
    std::optional<Job> m_current;
    QProcess *m_process = nullptr;
    int m_step = 0;
    int m_totalSteps = 0;
    QStringList m_tail;           // last lines of the running process's output
};

} // namespace cardhour::sim
