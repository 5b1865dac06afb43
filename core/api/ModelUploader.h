#pragma once

#include "api/ApiError.h"
#include "api/ModelLibrary.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace cardhour::core {

class ApiReply;
class ProviderClient;
template<typename T>
class Reply;

// One private model file to the provider's library (POST /v1/model-uploads, then PUT chunks),
// the one path the window and cardhourctl share:
//
//   auto *up = new ModelUploader(client, this);
//   up->start(u"/data/weights.bin"_s, u"my-weights"_s);
//   // -> hashProgress()… -> declared(upload, resumedFrom) -> progress()… -> finished(model)
//   //    or failed(message, error) or stopped()
//
// The file's size and SHA-256 are measured on a worker thread first. An open upload of the
// same name, size and SHA-256 (one that was interrupted: the app closed, the network went) is
// carried on from the offset the provider holds, never sent again from the start; otherwise a
// new upload is declared. The provider hashes the whole file at the end: a mismatch fails
// with `upload_checksum_mismatch`. stop() ends sending but keeps the upload open on the provider,
// so a later start() with the same file resumes it; discard() deletes it there.
class ModelUploader : public QObject
{
    Q_OBJECT
public:
    enum class Stage {
        Idle,
        Hashing,
        Declaring,
        Sending,
        Done,
        Failed,
        Stopped
    };
    Q_ENUM(Stage)

    // `client` is not owned and must outlive the uploader.
    explicit ModelUploader(ProviderClient *client, QObject *parent = nullptr);
    ~ModelUploader() override;

    // Uploads `path` as the private model `name` (`task`: empty for "custom").
    void start(const QString &path, const QString &name, const QString &task = {});
    // Stops hashing or sending; the provider keeps what it has (start() again resumes).
    void stop();
    // DELETE /v1/model-uploads/{id}: what the provider received is gone.
    void discard(const QString &uploadId);

    // The provider's rule for a model name (openapi: NewModelUpload.name).
    static bool isValidName(const QString &name);
    // A model name made from a file's name ("My Weights.bin" -> "my-weights"), or empty.
    static QString suggestedName(const QString &path);

    Stage stage() const { return m_stage; }
    bool isBusy() const
    {
        return m_stage == Stage::Hashing || m_stage == Stage::Declaring
            || m_stage == Stage::Sending;
    }
    QString path() const { return m_path; }
    QString name() const { return m_name; }
    QString uploadId() const { return m_upload.id; }
    qint64 sizeBytes() const { return m_sizeBytes; }
    QString sha256() const { return m_sha256; }
    // Where this upload carried on from (0: a new one).
    qint64 resumedFrom() const { return m_resumedFrom; }
    // Bytes of the file this uploader sent in chunks the provider stored.
    qint64 bytesSent() const { return m_bytesSent; }

Q_SIGNALS:
    void hashProgress(qint64 done, qint64 total);
    // The file's SHA-256 is known; nothing has been sent yet.
    void hashed(const QString &sha256);
    // The provider's upload to send to: a new one (resumedFrom 0) or an open one carried on.
    void declared(const cardhour::core::ModelUpload &upload, qint64 resumedFrom);
    // The provider stored `length` bytes at `offset`.
    void chunkSent(qint64 offset, qint64 length);
    void progress(qint64 sent, qint64 total);
    void finished(const cardhour::core::LibraryModel &model);
    // `message`: one translated sentence; `error` the provider's (Kind::None for a local file
    // problem).
    void failed(const QString &message, const cardhour::core::ApiError &error);
    void stopped();
    void discarded(const QString &uploadId, bool ok, const QString &message);

private:
    struct Hashing;
    void onHashed(const QString &sha256, const QString &problem);
    void findOpenUpload();
    void declare();
    void carryOn(const ModelUpload &upload);
    // The provider's answer for a new upload or an open one (`resuming`): sent from its offset.
    void sendFrom(Reply<ModelUpload> *reply, bool resuming);
    void sendNextChunk();
    void onChunkAnswer(qint64 offset, qint64 length, bool ok, const ModelUpload &upload,
                       const ApiError &error);
    void fail(const QString &message, const ApiError &error = {});
    void stopHashing();
    QString fileProblem(const QString &what) const;

    ProviderClient *m_client;
    Stage m_stage = Stage::Idle;
    QString m_path;
    QString m_name;
    QString m_task;
    qint64 m_sizeBytes = 0;
    QString m_sha256;
    ModelUpload m_upload;
    qint64 m_resumedFrom = 0;
    qint64 m_bytesSent = 0;
    int m_chunkRetries = 0; // a damaged chunk is sent again, a few times
    int m_offsetRetries = 0; // the provider's offset asked again after a mismatch
    QPointer<ApiReply> m_inFlight;
    QThread *m_hashThread = nullptr;
    std::shared_ptr<std::atomic_bool> m_hashCancel;
    quint64 m_generation = 0; // answers of an earlier start() are ignored
};

} // namespace cardhour::core
