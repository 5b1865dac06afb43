#pragma once

#include "api/Models.h"

#include <QDialog>
#include <QJsonObject>
#include <QList>

#include <memory>

namespace Ui {
class SnapshotsRestoreDialog;
}

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

// Restores a snapshot as a new instance: the GPU type and count (the snapshot's by default),
// the SSH keys (every key of the account ticked), a name, and what it will cost per hour and
// per day from the catalog's prices before anything is spent. Everything is chosen already
// when it opens, so Restore is the one click left. It sends POST /v1/instances with the
// snapshot and closes with restored(); a refusal is said in words and the dialog stays open.
class SnapshotsRestoreDialog : public QDialog
{
    Q_OBJECT
public:
    // `client` is not owned and must outlive the dialog.
    SnapshotsRestoreDialog(core::ClientSession *session, const core::Snapshot &snapshot,
                           QWidget *parent = nullptr);
    ~SnapshotsRestoreDialog() override;

    // Fetches the GPU types and the account's keys.
    void load();
    core::SnapshotRestore request() const;
    // Compute per hour for the current choice (0 without one).
    qint64 pricePerHourMicros() const;

Q_SIGNALS:
    void restored(const cardhour::core::Instance &instance);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void fillGpus();
    void fillKeys();
    void updateCost();
    void onRestore();
    void setBusy(bool busy);
    const core::GpuType *selectedGpu() const;

    core::ClientSession *m_session;
    core::Snapshot m_snapshot;
    QList<core::GpuType> m_gpus;
    QList<core::SshKey> m_keys;
    std::unique_ptr<Ui::SnapshotsRestoreDialog> m_ui;
    int m_pending = 0;
    bool m_busy = false;
    QString m_loadError;
    // Kept for a retry of the same request after a network error, so it cannot restore twice.
    QString m_idempotencyKey;
    QJsonObject m_lastRequest;
};

} // namespace cardhour::ui
