#pragma once

#include "api/Models.h"

#include <QList>
#include <QWidget>

class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace cardhour::core {
class ClientSession;
class SandboxDatasets;
} // namespace cardhour::core

namespace cardhour::ui {

// What the provider stores for the user besides instances and snapshots: the shared datasets
// (GET /v1/datasets: name, where an instance sees it, size, files, whether its folder is there)
// with the user's hosts that mount each one. With the local sandbox a folder of this computer
// can be added as a dataset right here (core/sandbox/SandboxDatasets, the same code as
// `cardhour-sim datasets add`); the list is asked for again at once. A section is kept for the
// model library, empty until the provider offers one.
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

    // `session` is not owned and must outlive the page.
    explicit StoragePage(core::ClientSession *session, QWidget *parent = nullptr);
    ~StoragePage() override;

    // GET /v1/datasets again.
    void reload();
    QList<core::Dataset> datasets() const { return m_datasets; }
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

    core::ClientSession *m_session;
    core::SandboxDatasets *m_sandboxDatasets;
    QList<core::Dataset> m_datasets;
    QLabel *m_title;
    QLabel *m_intro;
    QStackedWidget *m_stack;
    QLabel *m_emptyTitle;
    QLabel *m_emptyText;
    QTableWidget *m_table;
    QGroupBox *m_addBox;
    QLabel *m_addIntro;
    QLabel *m_folderLabel;
    QLineEdit *m_folderEdit;
    QPushButton *m_browseButton;
    QLabel *m_nameLabel;
    QLineEdit *m_nameEdit;
    QPushButton *m_addButton;
    QGroupBox *m_modelsBox;
    QLabel *m_modelsText;
    QPushButton *m_refreshButton;
    QLabel *m_status;
    bool m_loaded = false;
    bool m_nameEdited = false; // the user typed a name: a newly picked folder keeps it
    quint64 m_generation = 0;
};

} // namespace cardhour::ui
