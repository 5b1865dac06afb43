#include "SpareDisks.h"

#include "WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcSpareDisks, "cardhour.sim.sparedisks")

namespace cardhour::sim {

namespace {
constexpr int kMkfsTimeoutMs = 120'000;
const QString kSuffix = u"g.ext4"_s;
const QString kPartSuffix = u".part"_s;
} // namespace

SpareDisks::SpareDisks(const QString &folder, int keptSizes, QObject *parent)
    : QObject(parent), m_folder(folder), m_keptSizes(std::max(1, keptSizes))
{
    QDir dir(m_folder);
    for (const QString &part : dir.entryList({u"*"_s + kPartSuffix}, QDir::Files))
        dir.remove(part);
    // An earlier provider's spares are whole (renamed only after mkfs): kept, oldest first.
    for (const QFileInfo &ready :
         dir.entryInfoList({u"*"_s + kSuffix}, QDir::Files, QDir::Time | QDir::Reversed)) {
        bool ok = false;
        const qint64 gib = ready.fileName().chopped(kSuffix.size()).toLongLong(&ok);
        if (ok && gib > 0 && ready.fileName() == QString::number(gib) + kSuffix)
            m_sizes.append(gib);
        else
            dir.remove(ready.fileName());
    }
    while (m_sizes.size() > m_keptSizes)
        QFile::remove(readyPath(m_sizes.takeFirst()));
}

QString SpareDisks::readyPath(qint64 gib) const
{
    return QDir(m_folder).filePath(QString::number(gib) + kSuffix);
}

bool SpareDisks::take(qint64 gib, const QString &path)
{
    const QString spare = readyPath(gib);
    if (gib <= 0 || !QFileInfo::exists(spare))
        return false;
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !QFile::rename(spare, path)) {
        qCWarning(lcSpareDisks).noquote() << "cannot move the spare" << spare << "to" << path
                                          << ": formatting one for this launch instead";
        QFile::remove(spare);
        return false;
    }
    return true;
}

void SpareDisks::noteAsked(qint64 gib)
{
    m_sizes.removeAll(gib);
    m_sizes.append(gib);
    while (m_sizes.size() > m_keptSizes) {
        const qint64 dropped = m_sizes.takeFirst();
        if (!m_making.contains(dropped))
            QFile::remove(readyPath(dropped));
    }
}

void SpareDisks::replenish(qint64 gib, int delayMs)
{
    if (gib <= 0)
        return;
    noteAsked(gib);
    if (m_making.contains(gib) || QFileInfo::exists(readyPath(gib)))
        return;
    m_making.insert(gib);
    QTimer::singleShot(std::max(0, delayMs), this, [this, gib] { make(gib); });
}

void SpareDisks::make(qint64 gib)
{
    if (!m_sizes.contains(gib)) {
        m_making.remove(gib); // dropped while it waited
        return;
    }
    const QString part = readyPath(gib) + kPartSuffix;
    if (!QDir().mkpath(m_folder)) {
        m_making.remove(gib);
        const QString error = u"cannot create "_s + m_folder;
        qCWarning(lcSpareDisks).noquote() << "no spare disk of" << gib << "GiB:" << error;
        return Q_EMIT made(gib, error);
    }
    WorkspaceDisk::format(this, part, gib, kMkfsTimeoutMs, [this, gib, part](const QString &error) {
        m_making.remove(gib);
        QString why = error;
        // A size dropped while it was formatted is not kept either.
        if (why.isEmpty() && !m_sizes.contains(gib))
            why = u"no longer kept"_s;
        else if (why.isEmpty() && !QFile::rename(part, readyPath(gib)))
            why = u"cannot rename "_s + part;
        if (!why.isEmpty()) {
            QFile::remove(part);
            qCInfo(lcSpareDisks).noquote() << "no spare disk of" << gib << "GiB:" << why;
        }
        Q_EMIT made(gib, why);
    });
}

QList<qint64> SpareDisks::readySizes() const
{
    QList<qint64> ready;
    for (const qint64 gib : m_sizes) {
        if (!m_making.contains(gib) && QFileInfo::exists(readyPath(gib)))
            ready.append(gib);
    }
    std::sort(ready.begin(), ready.end());
    return ready;
}

} // namespace cardhour::sim
