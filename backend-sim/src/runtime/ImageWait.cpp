#include "ImageWait.h"

#include "BoxNames.h"
#include "ImageBuildStatus.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kPollIntervalMs = 1000;

bool underWay(ImageBuildStatus::State state)
{
    return state == ImageBuildStatus::State::Queued || state == ImageBuildStatus::State::Building;
}

} // namespace

ImageWait::ImageWait(LaunchSteps &steps, QString dataDir, QString imagePrefix, QObject *parent)
    : QObject(parent), m_steps(steps), m_dataDir(std::move(dataDir)),
      m_imagePrefix(std::move(imagePrefix))
{}

QString ImageWait::missingReason(const QString &imageId)
{
    return u"image %1 is not built: run cardhour-sim images build %1"_s.arg(imageId);
}

bool ImageWait::waitFor(const std::shared_ptr<Launch> &launch, std::function<void()> built)
{
    const QString image = launch->spec.image;
    if (m_dataDir.isEmpty()
        || !underWay(ImageBuildStatus::read(m_dataDir, m_imagePrefix, image).state))
        return false;
    qCInfo(lcCli) << "instance" << launch->id() << ": image" << image
                  << "is being built, waiting for it";
    auto *timer = new QTimer(this);
    timer->setInterval(kPollIntervalMs);
    connect(timer, &QTimer::timeout, this, [this, timer, launch, built, image] {
        if (!m_steps.current(*launch)) {
            timer->deleteLater();
            timer->stop();
            return m_steps.queue().end(launch->id());
        }
        const ImageBuildStatus::Image status =
            ImageBuildStatus::read(m_dataDir, m_imagePrefix, image);
        if (underWay(status.state))
            return;
        timer->stop();
        timer->deleteLater();
        if (status.state == ImageBuildStatus::State::Built)
            return built();
        const QString reason = status.state == ImageBuildStatus::State::Failed
            ? u"image %1 could not be built: %2"_s.arg(image, status.error)
            : missingReason(image);
        dropLaunch(launch, reason);
    });
    timer->start();
    return true;
}

void ImageWait::dropLaunch(const std::shared_ptr<Launch> &launch, const QString &reason)
{
    // Nothing of a launch that never had an image is left behind. The volume is this
    // instance's and no container of it ever ran: it holds no data.
    m_steps.engine().run(
        {u"volume"_s, u"rm"_s, box::volumeName(launch->id())},
        [this, launch, reason](const ProcessResult &) { m_steps.fail(launch, reason, false); });
}

} // namespace cardhour::sim
