#include "api/ModelUploader.h"

#include "api/ProviderClient.h"
#include "api/ProviderCodes.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QThread>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

constexpr qint64 kHashBlockBytes = 4 * 1024 * 1024;
constexpr int kChunkRetries = 3;
constexpr int kOffsetRetries = 3;

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

// The file's name as the provider keeps it inside /models/NAME: letters, digits, '.', '_' and
// '-' ("My weights.bin" -> "My-weights.bin"); the model's name when nothing of it is left.
QString providerFileName(const QString &localName, const QString &modelName)
{
    QString name = localName;
    name.replace(QRegularExpression(u"[^A-Za-z0-9._-]+"_s), u"-"_s);
    name.replace(QRegularExpression(u"\\.{2,}"_s), u"."_s);
    name.remove(QRegularExpression(u"^[^A-Za-z0-9_]+"_s));
    name = name.left(128);
    return name.isEmpty() ? modelName : name;
}

} // namespace

ModelUploader::ModelUploader(ProviderClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{}

ModelUploader::~ModelUploader()
{
    stopHashing();
    if (m_inFlight)
        m_inFlight->abort();
}

bool ModelUploader::isValidName(const QString &name)
{
    static const QRegularExpression rule(u"^[a-z0-9][a-z0-9._-]{0,63}$"_s);
    return rule.match(name).hasMatch();
}

QString ModelUploader::suggestedName(const QString &path)
{
    QString name = QFileInfo(QDir::cleanPath(path)).completeBaseName().toLower();
    name.replace(QRegularExpression(u"[^a-z0-9._-]+"_s), u"-"_s);
    name.remove(QRegularExpression(u"^[^a-z0-9]+"_s));
    return name.left(64);
}

void ModelUploader::start(const QString &path, const QString &name, const QString &task)
{
    if (isBusy())
        return;
    ++m_generation;
    m_path = path;
    m_name = name;
    m_task = task;
    m_upload = {};
    m_sha256.clear();
    m_resumedFrom = 0;
    m_bytesSent = 0;
    m_chunkRetries = 0;
    m_offsetRetries = 0;
    const QFileInfo info(path);
    if (!isValidName(name)) {
        fail(tr("“%1” is not a model name: use 1 to 64 of a-z, 0-9, '.', '_' and '-', starting "
                "with a letter or a digit.")
                 .arg(name));
        return;
    }
    if (!info.isFile()) {
        fail(tr("“%1” is not a file.").arg(path));
        return;
    }
    m_sizeBytes = info.size();
    if (m_sizeBytes <= 0) {
        fail(tr("“%1” is empty: a model file has at least one byte.").arg(info.fileName()));
        return;
    }
    m_stage = Stage::Hashing;
    // The file is read on a worker thread: a model of gigabytes must not stop the window.
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_hashCancel = cancel;
    const quint64 generation = m_generation;
    m_hashThread = QThread::create([this, cancel, path, generation] {
        QFile file(path);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        QString problem;
        if (!file.open(QIODevice::ReadOnly)) {
            problem = file.errorString();
        } else {
            qint64 done = 0;
            const qint64 total = file.size();
            while (!file.atEnd() && !*cancel) {
                const QByteArray block = file.read(kHashBlockBytes);
                if (block.isEmpty()) {
                    problem = file.errorString();
                    break;
                }
                hash.addData(block);
                done += block.size();
                QMetaObject::invokeMethod(
                    this,
                    [this, done, total, generation] {
                        if (generation == m_generation && m_stage == Stage::Hashing)
                            Q_EMIT hashProgress(done, total);
                    },
                    Qt::QueuedConnection);
            }
        }
        if (*cancel)
            return;
        const QString sha = QString::fromLatin1(hash.result().toHex());
        QMetaObject::invokeMethod(
            this,
            [this, sha, problem, generation] {
                if (generation == m_generation)
                    onHashed(sha, problem);
            },
            Qt::QueuedConnection);
    });
    connect(m_hashThread, &QThread::finished, m_hashThread, &QObject::deleteLater);
    m_hashThread->start();
}

void ModelUploader::stopHashing()
{
    if (!m_hashThread)
        return;
    *m_hashCancel = true;
    m_hashThread->wait();
    m_hashThread = nullptr;
}

QString ModelUploader::fileProblem(const QString &what) const
{
    return tr("“%1” could not be read: %2").arg(QFileInfo(m_path).fileName(), what);
}

void ModelUploader::onHashed(const QString &sha256, const QString &problem)
{
    if (m_hashThread) {
        m_hashThread->wait();
        m_hashThread = nullptr;
    }
    if (m_stage != Stage::Hashing)
        return;
    if (!problem.isEmpty())
        return fail(fileProblem(problem));
    m_sha256 = sha256;
    Q_EMIT hashed(sha256);
    if (m_stage != Stage::Hashing) // stopped from a slot
        return;
    m_stage = Stage::Declaring;
    findOpenUpload();
}

void ModelUploader::findOpenUpload()
{
    auto *reply = m_client->modelUploads();
    m_inFlight = reply;
    const quint64 generation = m_generation;
    reply->onFinished(this, [this, generation](const Reply<QList<ModelUpload>> &r) {
        if (generation != m_generation || m_stage != Stage::Declaring)
            return;
        if (!r.ok())
            return fail(r.error().userMessage(), r.error());
        for (const ModelUpload &open : r.value()) {
            if (open.name != m_name)
                continue;
            // The same file under the same name: carry on where the provider stopped.
            if (open.sizeBytes == m_sizeBytes
                && open.sha256.compare(m_sha256, Qt::CaseInsensitive) == 0)
                return carryOn(open);
            return fail(tr("An unfinished upload named “%1” holds another file (%2, not this "
                           "file's %3). Choose that file to carry it on, or discard it first.")
                            .arg(m_name, sizeText(open.sizeBytes), sizeText(m_sizeBytes)));
        }
        declare();
    });
}

void ModelUploader::declare()
{
    NewModelUpload upload;
    upload.name = m_name;
    upload.fileName = providerFileName(QFileInfo(m_path).fileName(), m_name);
    upload.task = m_task;
    upload.sizeBytes = m_sizeBytes;
    upload.sha256 = m_sha256;
    sendFrom(m_client->createModelUpload(upload), false);
}

void ModelUploader::carryOn(const ModelUpload &open)
{
    // The list's offset may be a moment old: the upload itself says where it stands now.
    sendFrom(m_client->modelUpload(open.id), true);
}

void ModelUploader::sendFrom(Reply<ModelUpload> *reply, bool resuming)
{
    m_inFlight = reply;
    const quint64 generation = m_generation;
    reply->onFinished(this, [this, generation, resuming](const Reply<ModelUpload> &r) {
        if (generation != m_generation || m_stage != Stage::Declaring)
            return;
        if (!r.ok())
            return fail(r.error().userMessage(), r.error());
        m_upload = r.value();
        m_resumedFrom = resuming ? m_upload.offset : 0;
        m_stage = Stage::Sending;
        Q_EMIT declared(m_upload, m_resumedFrom);
        if (resuming)
            Q_EMIT progress(m_upload.offset, m_sizeBytes);
        sendNextChunk();
    });
}

void ModelUploader::sendNextChunk()
{
    if (m_stage != Stage::Sending)
        return;
    const qint64 offset = m_upload.offset;
    const qint64 chunkMax = m_upload.chunkMaxBytes > 0 ? m_upload.chunkMaxBytes : 1024 * 1024;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset))
        return fail(fileProblem(file.errorString()));
    const QByteArray chunk = file.read(std::min(chunkMax, m_sizeBytes - offset));
    if (chunk.isEmpty())
        return fail(fileProblem(tr("it is shorter than when it was measured")));
    auto *reply = m_client->putModelUploadChunk(m_upload.id, offset, chunk);
    m_inFlight = reply;
    const quint64 generation = m_generation;
    const qint64 length = chunk.size();
    reply->onFinished(this, [this, generation, offset, length](const Reply<ModelUpload> &r) {
        if (generation != m_generation || m_stage != Stage::Sending)
            return;
        onChunkAnswer(offset, length, r.ok(), r.ok() ? r.value() : ModelUpload{}, r.error());
    });
}

void ModelUploader::onChunkAnswer(qint64 offset, qint64 length, bool ok, const ModelUpload &upload,
                                  const ApiError &error)
{
    if (ok) {
        m_chunkRetries = 0;
        m_bytesSent += length;
        const QString id = m_upload.id;
        m_upload = upload;
        m_upload.id = id;
        Q_EMIT chunkSent(offset, length);
        Q_EMIT progress(upload.complete ? m_sizeBytes : upload.offset, m_sizeBytes);
        if (upload.complete && upload.model) {
            m_stage = Stage::Done;
            Q_EMIT finished(*upload.model);
            return;
        }
        return sendNextChunk(); // a slot may have stopped it: sendNextChunk() checks
    }
    if (error.code == ErrorCode::ChunkChecksumMismatch && ++m_chunkRetries <= kChunkRetries)
        return sendNextChunk(); // damaged on the way: nothing was written, send it again
    if (error.code == ErrorCode::UploadOffsetMismatch && ++m_offsetRetries <= kOffsetRetries) {
        m_stage = Stage::Declaring;
        return carryOn(m_upload); // the provider holds another offset: go on from there
    }
    fail(error.userMessage(), error);
}

void ModelUploader::stop()
{
    if (!isBusy())
        return;
    ++m_generation;
    stopHashing();
    if (m_inFlight)
        m_inFlight->abort();
    m_stage = Stage::Stopped;
    Q_EMIT stopped();
}

void ModelUploader::discard(const QString &uploadId)
{
    auto *reply = m_client->deleteModelUpload(uploadId);
    reply->onFinished(this, [this, uploadId](const Reply<NoContent> &r) {
        Q_EMIT discarded(uploadId, r.ok() || r.error().code == ErrorCode::UnknownUpload,
                         r.ok() ? QString() : r.error().userMessage());
    });
}

void ModelUploader::fail(const QString &message, const ApiError &error)
{
    m_stage = Stage::Failed;
    Q_EMIT failed(message, error);
}

} // namespace cardhour::core
