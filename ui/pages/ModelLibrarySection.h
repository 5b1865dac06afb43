#pragma once

#include "api/ApiError.h"
#include "api/ModelLibrary.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QSettings;
class QTableWidget;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class ModelUploadPanel;

// The model library on the Storage page (GET /v1/models): the public models every host may
// mount and the user's private ones, with task, languages, size, where a host sees it and, for a
// private model, what keeping it costs per 30-day month at the provider's own rate. A private
// model is deleted here (a `409 model_in_use` names the hosts that still mount it) and added by
// the upload panel below the list.
class ModelLibrarySection : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        OwnerColumn,
        TaskColumn,
        LanguagesColumn,
        SizeColumn,
        FeeColumn,
        MountColumn,
        ColumnCount
    };

    // `session` and `settings` are not owned and must outlive the section.
    ModelLibrarySection(core::ClientSession *session, QSettings *settings,
                        QWidget *parent = nullptr);
    ~ModelLibrarySection() override;

    // GET /v1/models and the open uploads again.
    void reload();
    void clear();
    QList<core::LibraryModel> models() const { return m_models; }
    ModelUploadPanel *uploadPanel() const { return m_upload; }
    // What a host would pay to keep `model` for 30 days at its hourly rate (0: public).
    static qint64 monthlyFeeMicros(const core::LibraryModel &model);
    // The sentence for a refused delete: which hosts mount it and what to do.
    QString inUseMessage(const core::LibraryModel &model, const core::ApiError &error) const;

Q_SIGNALS:
    void errorOccurred(const QString &title, const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void build();
    void retranslate();
    void fillTable();
    void updateView();
    const core::LibraryModel *selectedModel() const;
    void confirmDelete();
    void deleteModel(const core::LibraryModel &model);
    void setStatus(const QString &text);

    core::ClientSession *m_session;
    QList<core::LibraryModel> m_models;
    QLabel *m_intro = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_privateEmpty = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QLabel *m_status = nullptr;
    ModelUploadPanel *m_upload = nullptr;
    bool m_loaded = false;
    quint64 m_generation = 0;
};

} // namespace cardhour::ui
