#include "LayerSize.h"

#include <QFuture>
#include <QPromise>
#include <QSet>
#include <QThreadPool>

#include <filesystem>
#include <memory>
#include <system_error>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace cardhour::sim {

qint64 LayerSize::bytesIn(const QString &folder)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path root = fs::path(folder.toStdString());
    if (folder.isEmpty() || !fs::is_directory(fs::symlink_status(root, error)))
        return -1;
    qint64 total = 0;
    QSet<quint64> linked; // inodes of files with several links, counted once
    // Symbolic links are not followed: a link counts its own length, as the engine counts it.
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
    if (error)
        return -1;
    for (const fs::recursive_directory_iterator end; it != end; it.increment(error)) {
        if (error)
            return -1;
#ifdef Q_OS_UNIX
        struct stat st
        {};
        if (::lstat(it->path().c_str(), &st) != 0 || S_ISDIR(st.st_mode) || st.st_size == 0)
            continue;
        if (st.st_nlink > 1 && !S_ISDIR(st.st_mode)) {
            if (linked.contains(quint64(st.st_ino)))
                continue;
            linked.insert(quint64(st.st_ino));
        }
        total += st.st_size;
#else
        const fs::file_status status = it->symlink_status(error);
        if (error || fs::is_directory(status) || !fs::is_regular_file(status))
            continue;
        total += qint64(it->file_size(error));
#endif
    }
    return total;
}

void LayerSize::measure(QObject *context, QHash<QString, QStringList> folders,
                        std::function<void(const QHash<QString, qint64> &)> done)
{
    auto promise = std::make_shared<QPromise<QHash<QString, qint64>>>();
    QFuture<QHash<QString, qint64>> future = promise->future();
    // then(context, ...) drops the continuation when the context is destroyed first.
    future.then(context,
                [done = std::move(done)](const QHash<QString, qint64> &sizes) { done(sizes); });
    QThreadPool::globalInstance()->start([promise, folders = std::move(folders)] {
        promise->start();
        QHash<QString, qint64> sizes;
        for (auto it = folders.cbegin(); it != folders.cend(); ++it) {
            qint64 sum = 0;
            for (const QString &folder : it.value()) {
                const qint64 bytes = bytesIn(folder);
                sum = bytes < 0 || sum < 0 ? -1 : sum + bytes;
            }
            sizes.insert(it.key(), sum);
        }
        promise->addResult(sizes);
        promise->finish();
    });
}

} // namespace cardhour::sim
