#pragma once

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

// What a `cardhour-sim images build` under way is doing, in a small JSON file in the sandbox's
// data folder (one per image tag prefix): the builder writes it while it works and refreshes
// it every few seconds; a provider whose launch finds its image missing reads it to decide
// whether to wait for the build or fail. A file not refreshed for staleAfterMs() belongs to a
// builder that died: nothing is being built then.
class ImageBuildStatus
{
public:
    enum class State {
        None, // no build of this image is known
        Queued, // a build under way will make it
        Building,
        Built,
        Failed,
    };

    struct Image
    {
        State state = State::None;
        QString error; // Failed: the build's reason
    };

    static QString filePath(const QString &dataDir, const QString &tagPrefix);
    static constexpr int refreshIntervalMs() { return 2000; }
    static constexpr int staleAfterMs() { return 15000; }

    ImageBuildStatus(QString dataDir, QString tagPrefix);

    // The builder's side: every image it was asked for (and what they are built on) starts
    // Queued; each change is written at once, refresh() only renews the time stamp.
    void begin(const QStringList &imageIds);
    void set(const QString &imageId, State state, const QString &error = {});
    void refresh();
    // The build is over: later readers see what each image came to, but no build under way.
    void end();

    // The provider's side: what the file says of imageId now (None when there is no file,
    // it is stale or the build ended before this image was reached).
    static Image read(const QString &dataDir, const QString &tagPrefix, const QString &imageId);

    static QString stateName(State state);

private:
    bool write() const;

    QString m_path;
    QString m_tagPrefix;
    QStringList m_order;
    QHash<QString, Image> m_images;
    bool m_running = false;
};

} // namespace cardhour::sim
