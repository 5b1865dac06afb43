#pragma once

#include "LaunchSteps.h"

#include <QObject>

#include <functional>

namespace cardhour::sim {

// A launch whose image is missing while `cardhour-sim images build` makes it (ImageBuildStatus
// in the data folder): it waits at stage "image" and runs the container once the build is
// done, instead of failing.
class ImageWait final : public QObject
{
    Q_OBJECT
public:
    ImageWait(LaunchSteps &steps, QString dataDir, QString imagePrefix, QObject *parent = nullptr);

    // Waits for the launch's image and then calls `built`; false (nothing done) when no build
    // of it is under way.
    bool waitFor(const std::shared_ptr<Launch> &launch, std::function<void()> built);
    // Fails a launch that has no image, leaving nothing of it behind.
    void dropLaunch(const std::shared_ptr<Launch> &launch, const QString &reason);
    static QString missingReason(const QString &imageId);

private:
    LaunchSteps &m_steps;
    QString m_dataDir;
    QString m_imagePrefix;
};

} // namespace cardhour::sim
