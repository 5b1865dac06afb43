#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "ImageBuildStatus.h"

#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

// A launch whose image is missing while `cardhour-sim images build` makes it: it waits at stage
// "image" and runs the container once the build is done, instead of failing.

namespace cardhour::sim {

namespace {

constexpr int kPollIntervalMs = 1000;

bool underWay(ImageBuildStatus::State state)
{
    return state == ImageBuildStatus::State::Queued || state == ImageBuildStatus::State::Building;
}

} // namespace

QString CliRuntime::imageMissingReason(const QString &imageId)
{
    return u"image %1 is not built: run cardhour-sim images build %1"_s.arg(imageId);
}

bool CliRuntime::waitForImage(const std::shared_ptr<Launch> &launch, int attempt)
{
    const QString image = launch->spec.image;
    if (m_options.dataDir.isEmpty()
        || !underWay(ImageBuildStatus::read(m_options.dataDir, m_options.imagePrefix, image).state))
        return false;
    qCInfo(lcCli) << "instance" << launch->id() << ": image" << image
                  << "is being built, waiting for it";
    auto *timer = new QTimer(this);
    timer->setInterval(kPollIntervalMs);
    connect(timer, &QTimer::timeout, this, [this, timer, launch, attempt, image] {
        const QString id = launch->id();
        if (!current(id, launch->token)) {
            timer->deleteLater();
            timer->stop();
            return endOp(id);
        }
        const ImageBuildStatus::Image status =
            ImageBuildStatus::read(m_options.dataDir, m_options.imagePrefix, image);
        if (underWay(status.state))
            return;
        timer->stop();
        timer->deleteLater();
        if (status.state == ImageBuildStatus::State::Built)
            return runContainer(launch, attempt);
        const QString reason = status.state == ImageBuildStatus::State::Failed
            ? u"image %1 could not be built: %2"_s.arg(image, status.error)
            : imageMissingReason(image);
        dropLaunchWithoutImage(launch, reason);
    });
    timer->start();
    return true;
}

void CliRuntime::dropLaunchWithoutImage(const std::shared_ptr<Launch> &launch,
                                        const QString &reason)
{
    // Nothing of a launch that never had an image is left behind. The volume is this
    // instance's and no container of it ever ran: it holds no data.
    runCli({u"volume"_s, u"rm"_s, volumeName(launch->id())},
           [this, launch, reason](const ProcResult &) { failLaunch(launch, reason, false); });
}

} // namespace cardhour::sim
