#pragma once

#include "ImageRecipes.h"
#include "Process.h"

#include <QByteArray>
#include <QDateTime>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

// The labels the builder puts on every image it builds, and the inspector reads back.
inline const QString kImageLabel = QStringLiteral("cardhour.image");
inline const QString kRecipeLabel = QStringLiteral("cardhour.recipe-sha256");
inline const QString kParentLabel = QStringLiteral("cardhour.parent-image");

// An image is
//   Missing  when the tag does not exist,
//   Stale    when its recipe changed since, its parent was rebuilt since, or a catalog image it
//            is built on is Stale itself,
//   Current  otherwise.
enum class ImageStatus {
    Missing,
    Stale,
    Current
};
QString imageStatusName(ImageStatus status); // "missing", "stale", "current"
// What a podman command printed, as text without the surrounding blank space.
QString trimmedText(const QByteArray &bytes);

struct ImageInfo
{
    QString catalogId;
    QString tag;
    ImageStatus status = ImageStatus::Missing;
    bool exists = false;
    QString imageId; // podman's image id (sha256 hex)
    qint64 size = 0; // bytes
    QDateTime created;
    QString recipeSha256; // of the recipe as it is now
    QString builtRecipeSha256; // label of the image
    QString builtParentImage; // label of the image
    QString reason; // why Stale, in words
    QString error; // podman could not answer (then status is Missing)
};

// What one podman command answered, or why it did not.
struct PodmanAnswer
{
    int exitCode = -1;
    bool crashed = false;
    QByteArray out;
    QByteArray err;
    QString failure; // "cannot run podman: ...", "podman image did not answer within 60 s"

    static PodmanAnswer of(const ProcessResult &run, const QString &program,
                           const QStringList &args, int timeoutMs = 0);
};

// Asks podman which of the catalog's images exist and whether they are current: each image
// carries the labels cardhour.image=X, cardhour.recipe-sha256=<recipeHash of images/X> and
// cardhour.parent-image=<image id of the parent (or root) it was built on>. The queries block
// (`podman image inspect`, quick): for the CLI and tests. The readers of the answers are pure;
// ImageBuilder uses them on its own asynchronous queries.
class ImageInspector
{
public:
    ImageInspector(ImageRecipes recipes, QString podman, QProcessEnvironment environment);

    ImageStatus status(const QString &catalogId) const;
    ImageInfo inspect(const QString &catalogId) const;
    // Whether an image (any reference or id) exists; false also when podman cannot answer.
    bool imageExists(const QString &reference) const;
    // Whether podman works at all: empty when it does, else what it said.
    QString podmanProblem() const;

    // An ImageInfo from the answer to `podman image inspect <tag of catalogId>` (status not
    // judged yet); error set when podman failed for another reason than a missing image.
    ImageInfo infoFrom(const QString &catalogId, const PodmanAnswer &inspectAnswer) const;
    // The image id in an answer to `podman image inspect`; empty when there is none.
    static QString imageIdOf(const PodmanAnswer &inspectAnswer);
    // Own staleness of `info` given the parent's image id (empty when the parent is missing).
    static void judge(ImageInfo *info, const QString &parentImageId);

private:
    PodmanAnswer runPodman(const QStringList &args, int timeoutMs = 60000) const;

    ImageRecipes m_recipes;
    QString m_podman;
    QProcessEnvironment m_environment;
};

} // namespace cardhour::sim
