#pragma once

#include "api/Models.h"

#include <QList>
#include <QWidget>

#include <memory>

class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QStackedWidget;
class QTableWidget;

namespace Ui {
class StoragePage;
}

namespace cardhour::core {
class ClientSession;
class SandboxDatasets;
} // namespace cardhour::core

namespace cardhour::ui {

class EmptyState;
class ModelLibrarySection;

// What the provider stores for the user besides instances and snapshots: the shared datasets
// (GET /v1/datasets: name, where an instance sees it, size, files, whether its folder is there)
// with the user's hosts that mount each one. With the local sandbox a folder of this computer
// can be added as a dataset right here (core/sandbox/SandboxDatasets, the same code as
// `cardhour-sim datasets add`); the list is asked for again at once. Below, the model library
// (ModelLibrarySection): public and private models, upload, delete.
class StoragePage : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        MountColumn,
        SizeColumn,
        FilesColumn,
        AvailableColumn,
        MountedByColumn,
        ColumnCount
    };

    // `session` is not owned and must outlive the page. `settings` (not owned) remembers the
    // files of unfinished model uploads; null: the application's QSettings.
    explicit StoragePage(core::ClientSession *session, QWidget *parent = nullptr,
                         QSettings *settings = nullptr);
    ~StoragePage() override;

    // GET /v1/datasets again.
    void reload();
    QList<core::Dataset> datasets() const { return m_datasets; }
    ModelLibrarySection *modelLibrary() const { return m_models; }
    // The names of the user's hosts that mount `dataset`, oldest first.
    QStringList mountedBy(const QString &dataset) const;
    // A dataset name made from a folder's name (what `datasets add` accepts), or empty.
    static QString suggestedName(const QString &folder);

Q_SIGNALS:
    void errorOccurred(const QString &title, const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void clear();
    void fillTable();
    void updateView();
    void browse();
    void addFolder();
    void setStatus(const QString &text);

    std::unique_ptr<Ui::StoragePage> m_ui;
    core::ClientSession *m_session;
    core::SandboxDatasets *m_sandboxDatasets;
    QList<core::Dataset> m_datasets;
    // Widgets of the form that the code changes.
    QLabel *m_title = nullptr;
    QLabel *m_intro = nullptr;
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QTableWidget *m_table = nullptr;
    QGroupBox *m_addBox = nullptr;
    QLineEdit *m_folderEdit = nullptr;
    QPushButton *m_browseButton = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_refreshButton = nullptr;
    QLabel *m_status = nullptr;
    ModelLibrarySection *m_models = nullptr;
    bool m_loaded = false;
    bool m_nameEdited = false; // the user typed a name: a newly picked folder keeps it
    quint64 m_generation = 0;
};

} // namespace cardhour::ui
