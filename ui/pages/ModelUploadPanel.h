#pragma once

#include "api/ModelLibrary.h"

#include <QList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSettings;
class QTableWidget;

namespace cardhour::core {
class ClientSession;
class ModelUploader;
} // namespace cardhour::core

namespace cardhour::ui {

// Uploading a private model file (core/api/ModelUploader, the path cardhourctl shares): a file
// and a name, the file measured on a worker thread, then sent in chunks with a progress bar and
// Cancel. The upload's id and the file's path are remembered in `settings`, so an upload that
// was cancelled, cut off by the network or by closing the app is listed under "Unfinished
// uploads" and carried on from the provider's offset by Resume (or deleted by Discard).
class ModelUploadPanel : public QWidget
{
    Q_OBJECT
public:
    enum UploadColumn {
        UploadNameColumn,
        UploadFileColumn,
        UploadSentColumn,
        UploadColumnCount
    };

    // `session` and `settings` are not owned and must outlive the panel.
    ModelUploadPanel(core::ClientSession *session, QSettings *settings, QWidget *parent = nullptr);
    ~ModelUploadPanel() override;

    // GET /v1/model-uploads again.
    void reload();
    void clear();
    core::ModelUploader *uploader() const { return m_uploader; }
    // The local file remembered for an open upload (empty: none).
    QString rememberedPath(const QString &uploadId) const;

Q_SIGNALS:
    // A private model was added: the library is asked for again.
    void modelAdded(const cardhour::core::LibraryModel &model);
    void errorOccurred(const QString &title, const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void build();
    void retranslate();
    void browse();
    void startUpload();
    void resumeSelected();
    void discardSelected();
    void begin(const QString &path, const QString &name);
    void connectUploader();
    void fillUploads();
    void updateView();
    void showError(const QString &message);
    void remember(const QString &uploadId, const QString &path);
    void forget(const QString &uploadId);
    QString sentText(qint64 sent, qint64 total) const;

    core::ClientSession *m_session;
    QSettings *m_settings;
    core::ModelUploader *m_uploader;
    QList<core::ModelUpload> m_open;
    QLabel *m_intro = nullptr;
    QLabel *m_fileLabel = nullptr;
    QLineEdit *m_fileEdit = nullptr;
    QPushButton *m_browseButton = nullptr;
    QLabel *m_nameLabel = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QPushButton *m_uploadButton = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_uploadsTitle = nullptr;
    QTableWidget *m_uploadsTable = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QPushButton *m_discardButton = nullptr;
    bool m_nameEdited = false;
    quint64 m_generation = 0;
};

} // namespace cardhour::ui
