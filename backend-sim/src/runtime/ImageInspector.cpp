#include "runtime/ImageInspector.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

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

} // namespace

QString trimmedText(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).trimmed();
}

QString imageStatusName(ImageStatus status)
{
    switch (status) {
    case ImageStatus::Missing:
        return u"missing"_s;
    case ImageStatus::Stale:
        return u"stale"_s;
    case ImageStatus::Current:
        return u"current"_s;
    }
    return {};
}

ImageInspector::ImageInspector(ImageRecipes recipes, QString podman,
                               QProcessEnvironment environment)
    : m_recipes(std::move(recipes)), m_podman(std::move(podman)),
      m_environment(std::move(environment))
{}

PodmanAnswer PodmanAnswer::of(const ProcessResult &run, const QString &program,
                              const QStringList &args, int timeoutMs)
{
    PodmanAnswer answer;
    if (!run.started) {
        answer.failure = u"cannot run %1: %2"_s.arg(program, run.startError);
    } else if (run.timedOut) {
        answer.failure =
            u"%1 %2 did not answer within %3 s"_s.arg(program, args.value(0)).arg(timeoutMs / 1000);
    } else {
        answer.exitCode = run.exitCode;
        answer.crashed = run.crashed;
        answer.out = run.out;
        answer.err = run.err;
    }
    return answer;
}

PodmanAnswer ImageInspector::runPodman(const QStringList &args, int timeoutMs) const
{
    Process::Options options;
    options.environment = m_environment;
    options.timeoutMs = timeoutMs;
    return PodmanAnswer::of(Process::run(m_podman, args, options), m_podman, args, timeoutMs);
}

bool ImageInspector::imageExists(const QString &reference) const
{
    const PodmanAnswer result = runPodman({u"image"_s, u"exists"_s, reference});
    return result.failure.isEmpty() && !result.crashed && result.exitCode == 0;
}

QString ImageInspector::podmanProblem() const
{
    const PodmanAnswer result =
        runPodman({u"info"_s, u"--format"_s, u"{{.Host.OCIRuntime.Name}}"_s});
    if (!result.failure.isEmpty())
        return result.failure;
    if (result.exitCode != 0 || result.crashed) {
        const QString said = trimmedText(result.err);
        return u"podman info failed (exit %1)%2"_s.arg(result.exitCode)
            .arg(said.isEmpty() ? QString() : u": "_s + said);
    }
    return {};
}

ImageInfo ImageInspector::infoFrom(const QString &catalogId, const PodmanAnswer &result) const
{
    ImageInfo info;
    info.catalogId = catalogId;
    info.tag = m_recipes.tag(catalogId);
    QString hashError;
    info.recipeSha256 =
        ImageRecipes::recipeHash(QDir(m_recipes.imagesDir()).filePath(catalogId), &hashError);
    if (!result.failure.isEmpty()) {
        info.error = result.failure;
        return info;
    }
    if (result.exitCode != 0 || result.crashed) {
        const QString said = trimmedText(result.err);
        if (!said.contains(u"image not known"_s, Qt::CaseInsensitive)
            && !said.contains(u"no such image"_s, Qt::CaseInsensitive))
            info.error = u"podman image inspect %1 failed (exit %2): %3"_s.arg(info.tag)
                             .arg(result.exitCode)
                             .arg(said);
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
    info.builtRecipeSha256 = labels.value(kRecipeLabel).toString();
    info.builtParentImage = labels.value(kParentLabel).toString();
    if (labels.value(kImageLabel).toString() != catalogId)
        info.builtRecipeSha256.clear(); // not ours, or built for another id: never Current
    if (!hashError.isEmpty())
        info.error = hashError;
    return info;
}

QString ImageInspector::imageIdOf(const PodmanAnswer &result)
{
    if (!result.failure.isEmpty() || result.exitCode != 0)
        return {};
    return QJsonDocument::fromJson(result.out).array().at(0).toObject().value(u"Id"_s).toString();
}

void ImageInspector::judge(ImageInfo *info, const QString &parentImageId)
{
    if (!info->exists) {
        info->status = ImageStatus::Missing;
        return;
    }
    if (info->builtRecipeSha256.isEmpty()) {
        info->status = ImageStatus::Stale;
        info->reason = u"not built by cardhour from this recipe"_s;
    } else if (info->builtRecipeSha256 != info->recipeSha256) {
        info->status = ImageStatus::Stale;
        info->reason = u"the recipe changed"_s;
    } else if (!parentImageId.isEmpty() && info->builtParentImage != parentImageId) {
        info->status = ImageStatus::Stale;
        info->reason = u"the image it is built on changed"_s;
    } else {
        info->status = ImageStatus::Current;
        info->reason.clear();
    }
}

ImageInfo ImageInspector::inspect(const QString &catalogId) const
{
    QString error;
    const QList<ImageRecipe> recipes = m_recipes.chain(catalogId, &error);
    if (recipes.isEmpty()) {
        ImageInfo info;
        info.catalogId = catalogId;
        info.tag = m_recipes.tag(catalogId);
        info.error = error;
        return info;
    }
    ImageInfo previous;
    bool ancestorStale = false;
    for (const ImageRecipe &step : recipes) {
        ImageInfo info =
            infoFrom(step.id, runPodman({u"image"_s, u"inspect"_s, m_recipes.tag(step.id)}));
        if (!info.error.isEmpty())
            return info;
        QString parentId;
        if (!step.parent.isEmpty())
            parentId = previous.imageId;
        else if (!step.rootImage.isEmpty())
            parentId = imageIdOf(runPodman({u"image"_s, u"inspect"_s, m_recipes.rootTag(step)}));
        judge(&info, parentId);
        if (info.status == ImageStatus::Current && ancestorStale) {
            info.status = ImageStatus::Stale;
            info.reason = u"\"%1\", which it is built on, is stale"_s.arg(previous.catalogId);
        }
        ancestorStale = ancestorStale || previous.status == ImageStatus::Stale
            || info.status == ImageStatus::Stale;
        previous = info;
    }
    return previous;
}

ImageStatus ImageInspector::status(const QString &catalogId) const
{
    return inspect(catalogId).status;
}

} // namespace cardhour::sim
