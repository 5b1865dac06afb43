#pragma once

#include "api/Models.h"

#include <QDialog>
#include <QJsonObject>
#include <QList>

#include <memory>

namespace Ui {
class LaunchDialog;
}

namespace cardhour::core {
class BillTicker;
class ProviderClient;
} // namespace cardhour::core

namespace cardhour::ui {

// Rent a host: GPU type and card count, system image, SSH keys, name, with the cost per hour
// and per day and how long the balance lasts at that rate, before anything is spent. It loads
// the catalog and keys itself, sends POST /v1/instances, and closes on success with launched().
// Refusals (402: balance too low; 409: not enough free cards) are said in words and the dialog
// stays open, so the user can change the choice.
class LaunchDialog : public QDialog
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive the dialog.
    LaunchDialog(core::ProviderClient *client, const core::BillTicker *ticker,
                 QWidget *parent = nullptr);
    ~LaunchDialog() override;

    // Fetches GPU types, images and keys (the dialog is usable once they arrived).
    void load();
    // Fetches the provider's keys again (after the SSH keys dialog uploaded one); the ticks
    // already set stay set.
    void reloadKeys();
    core::NewInstance request() const;
    // Per hour for the current choice (0 without one).
    qint64 pricePerHourMicros() const;

Q_SIGNALS:
    void launched(const cardhour::core::Instance &instance);
    void manageKeysRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void fillGpus();
    void fillImages();
    void fillKeys();
    void fillCounts();
    void updateCost();
    void validate();
    void onAccept();
    const core::GpuType *selectedGpu() const;

    std::unique_ptr<Ui::LaunchDialog> m_ui;
    core::ProviderClient *m_client;
    const core::BillTicker *m_ticker;
    QList<core::GpuType> m_gpus;
    QList<core::Image> m_images;
    QList<core::SshKey> m_keys;
    bool m_keysLoaded = false;
    bool m_busy = false;
    int m_pending = 0;
    // Kept for a retry of the same request after a network error, so it cannot launch twice.
    QString m_idempotencyKey;
    QJsonObject m_lastRequest;
    QString m_loadError;
};

} // namespace cardhour::ui
