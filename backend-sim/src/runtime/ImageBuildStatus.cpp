#include "runtime/ImageBuildStatus.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr std::pair<ImageBuildStatus::State, const char *> kStateNames[] = {
    {ImageBuildStatus::State::None, "none"},         {ImageBuildStatus::State::Queued, "queued"},
    {ImageBuildStatus::State::Building, "building"}, {ImageBuildStatus::State::Built, "built"},
    {ImageBuildStatus::State::Failed, "failed"},
};

ImageBuildStatus::State stateFromName(const QString &name)
{
    for (const auto &[state, text] : kStateNames) {
        if (name == QLatin1String(text))
            return state;
    }
    return ImageBuildStatus::State::None;
}

} // namespace

QString ImageBuildStatus::stateName(State state)
{
    for (const auto &[known, text] : kStateNames) {
        if (known == state)
            return QString::fromLatin1(text);
    }
    return u"none"_s;
}

QString ImageBuildStatus::filePath(const QString &dataDir, const QString &tagPrefix)
{
    // A prefix holds slashes and colons: the file is named by its hash.
    const QByteArray hash =
        QCryptographicHash::hash(tagPrefix.toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    return QDir(dataDir).filePath(u"image-builds/"_s + QString::fromLatin1(hash) + u".json"_s);
}

ImageBuildStatus::ImageBuildStatus(QString dataDir, QString tagPrefix)
    : m_path(filePath(dataDir, tagPrefix)), m_tagPrefix(std::move(tagPrefix))
{}

void ImageBuildStatus::begin(const QStringList &imageIds)
{
    m_running = true;
    for (const QString &id : imageIds) {
        if (!m_images.contains(id))
            m_order.append(id);
        m_images.insert(id, {State::Queued, {}});
    }
    write();
}

void ImageBuildStatus::set(const QString &imageId, State state, const QString &error)
{
    if (!m_images.contains(imageId))
        m_order.append(imageId);
    m_images.insert(imageId, {state, error});
    write();
}

void ImageBuildStatus::refresh()
{
    if (m_running)
        write();
}

void ImageBuildStatus::end()
{
    m_running = false;
    for (auto it = m_images.begin(); it != m_images.end(); ++it) {
        if (it->state == State::Queued || it->state == State::Building)
            *it = {State::Failed, u"the build ended before this image was built"_s};
    }
    write();
}

bool ImageBuildStatus::write() const
{
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return false;
    QJsonArray images;
    for (const QString &id : m_order) {
        const Image image = m_images.value(id);
        QJsonObject entry{{u"id"_s, id}, {u"state"_s, stateName(image.state)}};
        if (!image.error.isEmpty())
            entry.insert(u"error"_s, image.error);
        images.append(entry);
    }
    const QJsonObject root{
        {u"tag_prefix"_s, m_tagPrefix},
        {u"running"_s, m_running},
        {u"updated_at"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {u"images"_s, images},
    };
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(root).toJson(QJsonDocument::Compact));
    return file.commit();
}

ImageBuildStatus::Image ImageBuildStatus::read(const QString &dataDir, const QString &tagPrefix,
                                               const QString &imageId)
{
    QFile file(filePath(dataDir, tagPrefix));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    if (root.value(u"tag_prefix"_s).toString() != tagPrefix)
        return {};
    const QDateTime updated =
        QDateTime::fromString(root.value(u"updated_at"_s).toString(), Qt::ISODateWithMs);
    const bool running = root.value(u"running"_s).toBool() && updated.isValid()
        && updated.msecsTo(QDateTime::currentDateTimeUtc()) < staleAfterMs();
    for (const QJsonValue &value : root.value(u"images"_s).toArray()) {
        const QJsonObject entry = value.toObject();
        if (entry.value(u"id"_s).toString() != imageId)
            continue;
        Image image{stateFromName(entry.value(u"state"_s).toString()),
                    entry.value(u"error"_s).toString()};
        // Queued or Building in a file nobody refreshes: that builder is gone.
        if (!running && (image.state == State::Queued || image.state == State::Building))
            return {};
        return image;
    }
    return {};
}

} // namespace cardhour::sim
