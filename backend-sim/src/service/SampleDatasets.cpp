#include "SampleDatasets.h"

#include "Catalog.h"
#include "Datasets.h"
#include "runtime/Process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSaveFile>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// Where an app image keeps the maker of each sample dataset it declares.
const QString makerDir = u"/usr/local/lib/cardhour/datasets/"_s;

QString lastLine(const QByteArray &text)
{
    const QString all = QString::fromUtf8(text).trimmed();
    const QStringList lines = all.split(u'\n');
    return lines.isEmpty() ? QString() : lines.last().trimmed().left(300);
}

} // namespace

SampleDatasets::SampleDatasets(Options options, Datasets &datasets)
    : m_options(std::move(options)), m_datasets(datasets)
{}

QList<SampleDatasets::Wanted> SampleDatasets::declaredBy(const Catalog &catalog)
{
    QList<Wanted> wanted;
    for (const ImageEntry &image : catalog.images()) {
        for (const QJsonValue &app : image.apps) {
            for (const QJsonValue &name : app[u"datasets"_s].toArray()) {
                const QString dataset = name.toString();
                const bool known =
                    std::any_of(wanted.cbegin(), wanted.cend(),
                                [&](const Wanted &w) { return w.dataset == dataset; });
                if (Datasets::isValidName(dataset) && !known)
                    wanted.append({dataset, image.id});
            }
        }
    }
    return wanted;
}

QString SampleDatasets::imageIdOf(const QString &tag) const
{
    Process::Options options;
    options.environment = containersEnvironment(m_options.containersConf);
    options.timeoutMs = 30000;
    const ProcessResult result = Process::run(
        m_options.program, {u"image"_s, u"inspect"_s, u"--format"_s, u"{{.Id}}"_s, tag}, options);
    return result.ok() ? QString::fromUtf8(result.out).trimmed() : QString();
}

QStringList SampleDatasets::ensure(const QList<Wanted> &wanted, bool force, bool *failed)
{
    *failed = false;
    QStringList report;
    const QString root = m_options.dataDir + u"/datasets"_s;
    for (const Wanted &w : wanted) {
        const QString tag = m_options.tagPrefix + w.imageId + u":latest"_s;
        const QString image = imageIdOf(tag);
        if (image.isEmpty()) {
            report << u"dataset %1: image %2 is not built yet; made once it is"_s.arg(w.dataset,
                                                                                      tag);
            continue;
        }
        QFile stampFile(root + u'/' + w.dataset + u".image"_s);
        const QString madeFrom = stampFile.open(QIODevice::ReadOnly)
            ? QString::fromUtf8(stampFile.readAll()).trimmed()
            : QString();
        stampFile.close();
        const std::optional<Datasets::Dataset> registered = m_datasets.find(w.dataset);
        if (!force && registered && QFileInfo(registered->path).isDir() && madeFrom == image) {
            report << u"dataset %1: current (made from %2)"_s.arg(w.dataset, tag);
            continue;
        }
        QString error;
        if (!make(w, tag, &error)) {
            *failed = true;
            report << u"dataset %1: not made from %2: %3"_s.arg(w.dataset, tag, error);
            continue;
        }
        QSaveFile stamp(stampFile.fileName());
        if (stamp.open(QIODevice::WriteOnly)) {
            stamp.write(image.toUtf8() + '\n');
            stamp.commit();
        }
        const Datasets::Dataset made = *m_datasets.find(w.dataset);
        report << u"dataset %1: made from %2, %3 files (%4 bytes), mounted at /datasets/%1"_s
                      .arg(w.dataset, tag)
                      .arg(made.files)
                      .arg(made.sizeBytes);
    }
    return report;
}

bool SampleDatasets::make(const Wanted &wanted, const QString &image, QString *error)
{
    const QString root = m_options.dataDir + u"/datasets"_s;
    const QString target = root + u'/' + wanted.dataset;
    // Made beside the old one and swapped in whole: a box that mounts the old folder keeps it,
    // a failed run leaves the old one registered.
    QDir fresh(root + u"/."_s + wanted.dataset + u".new"_s);
    fresh.removeRecursively();
    if (!fresh.mkpath(u"."_s)) {
        *error = u"cannot make %1"_s.arg(fresh.path());
        return false;
    }
    Process::Options options;
    options.environment = containersEnvironment(m_options.containersConf);
    options.timeoutMs = m_options.timeoutMs;
    options.mergeChannels = true;
    // No network (offline, as the image was built); no SELinux relabelling of a host folder.
    const ProcessResult result =
        Process::run(m_options.program,
                     {u"run"_s, u"--rm"_s, u"--network=none"_s, u"--security-opt"_s,
                      u"label=disable"_s, u"--volume"_s, fresh.absolutePath() + u":/out"_s,
                      u"--entrypoint"_s, makerDir + wanted.dataset, image, u"/out"_s},
                     options);
    qint64 bytes = 0;
    qint64 files = 0;
    Datasets::measure(fresh.absolutePath(), &bytes, &files);
    if (!result.ok() || files == 0) {
        *error = !result.started ? result.startError
            : result.timedOut    ? u"the maker ran past %1 s"_s.arg(m_options.timeoutMs / 1000)
            : !result.ok()
            ? u"the maker failed (%1): %2"_s.arg(result.exitCode).arg(lastLine(result.out))
            : u"the maker wrote no files"_s;
        fresh.removeRecursively();
        return false;
    }
    QDir(target).removeRecursively();
    if (!QDir().rename(fresh.absolutePath(), target)) {
        *error = u"cannot move %1 to %2"_s.arg(fresh.absolutePath(), target);
        fresh.removeRecursively();
        return false;
    }
    return m_datasets.add(wanted.dataset, target, error);
}

} // namespace cardhour::sim
