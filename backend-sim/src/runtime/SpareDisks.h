#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

namespace cardhour::sim {

// Formatted /workspace images kept ready, one for each of the last few disk sizes launched, so
// that a launch moves one into place (a rename) instead of running mkfs.ext4 in its container
// stage. A spare is made exactly as a launch makes one (WorkspaceDisk::allocate and its mkfs
// arguments) and is never mounted before a launch takes it. It is formatted under a `.part` name
// and renamed once mkfs succeeded: a spare under its real name is always whole; `.part` files
// left by a provider that died are removed when the next one starts.
class SpareDisks final : public QObject
{
    Q_OBJECT
public:
    // `folder` must be on the same file system as the instances' images (the data folder).
    SpareDisks(const QString &folder, int keptSizes, QObject *parent = nullptr);

    // Moves a ready spare of `gib` GiB to `path`; false when none is ready (or the move failed,
    // then the spare is dropped): the caller formats one itself.
    bool take(qint64 gib, const QString &path);
    // Makes one spare of `gib` GiB `delayMs` from now (the launch that asked keeps the CPU
    // until then), unless one is ready or being made. Sizes beyond the last `keptSizes` asked
    // for are dropped, their spares deleted.
    void replenish(qint64 gib, int delayMs);

    QList<qint64> readySizes() const;
    QString folder() const { return m_folder; }

Q_SIGNALS:
    // A spare of `gib` GiB is ready, or could not be made (`error` says why).
    void made(qint64 gib, const QString &error);

private:
    QString readyPath(qint64 gib) const;
    void make(qint64 gib);
    void noteAsked(qint64 gib);

    QString m_folder;
    int m_keptSizes;
    QList<qint64> m_sizes; // most recently asked for last
    QSet<qint64> m_making; // waiting for its delay or being formatted
};

} // namespace cardhour::sim
