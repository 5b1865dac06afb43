#pragma once

#include "api/Models.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTimer;

namespace Ui {
class SnapshotsPage;
}

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

class EmptyState;

class SnapshotsModel;

// The user's snapshots: what each keeps and what keeping it costs (size, storage fee per hour
// and since when, cost so far, all as the provider reports them), taking one from an instance,
// deleting one (a confirmation says what is lost and that the fee stops) and restoring one as a
// new instance (SnapshotsRestoreDialog). The list comes from GET /v1/snapshots whenever the
// session reloads its lists (log-in, the event stream back, ClientSession::reload), and follows the
// provider's `snapshot` events in between; it is cleared when the session changes hands. With no
// snapshot yet the page says how to make one, with a button that does it when an instance can be
// snapshotted.
class SnapshotsPage : public QWidget
{
    Q_OBJECT
public:
    // `session` is not owned and must outlive the page.
    explicit SnapshotsPage(core::ClientSession *session, QWidget *parent = nullptr);
    ~SnapshotsPage() override;

    SnapshotsModel *model() const { return m_model; }
    QString selectedSnapshotId() const;
    void selectSnapshot(const QString &id);
    // GET /v1/snapshots again.
    void reload();

Q_SIGNALS:
    // A restore was accepted by the provider: the window can select it and open a terminal.
    void restored(const cardhour::core::Instance &instance);
    // Something failed that the page could not say in place (it also shows it in its status).
    void errorOccurred(const QString &title, const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void retranslate();
    void clear();
    void fillInstances();
    void updateView();
    void updateDetails();
    void takeSnapshot(const QString &instanceId, const QString &name);
    void confirmDelete();
    void deleteSnapshot(const QString &id);
    void openRestore();
    void setStatus(const QString &text);
    // What a delete loses and what it stops costing (the confirmation's details).
    QString deleteDetails(const core::Snapshot &snapshot) const;
    QString inUseMessage(const core::Snapshot &snapshot, const QString &providerMessage) const;
    QList<core::Instance> snapshottable() const;

    std::unique_ptr<Ui::SnapshotsPage> m_ui;
    core::ClientSession *m_session;
    SnapshotsModel *m_model;
    QTimer *m_ticker;
    // Widgets of the form that the code changes.
    QComboBox *m_instanceCombo = nullptr;
    QLineEdit *m_nameEdit = nullptr;
    QPushButton *m_createButton = nullptr;
    QLabel *m_priceNote = nullptr;
    QStackedWidget *m_stack = nullptr;
    EmptyState *m_empty = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_details = nullptr;
    QPushButton *m_restoreButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QPushButton *m_refreshButton = nullptr;
    QLabel *m_status = nullptr;
    QString m_createKey; // Idempotency-Key of the last snapshot asked for
    QString m_lastCreate;
    bool m_loaded = false;
    quint64 m_generation = 0; // answers for an earlier user are dropped
};

} // namespace cardhour::ui
