#pragma once

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QDialog>
#include <QJsonObject>
#include <QList>

#include <memory>

class QGroupBox;

namespace Ui {
class LaunchDialog;
}

namespace cardhour::core {
class BillTicker;
class ClientSession;
class SshKeyStore;
} // namespace cardhour::core

namespace cardhour::ui {

class GpuCardDelegate;
class GpuSlicePicker;
class ModelMountPicker;
class PriceClassChooser;
class StopPolicyEditor;

// Rent a host: GPU type (cards in a grid; a plain list when the dialog is narrow), the whole
// card or one of its MIG slices (GpuSlicePicker) and card count, system image, datasets to mount,
// SSH keys, name, with what it costs running and stopped and how long the balance lasts
// (CostPreview), before anything is spent. It loads the catalog, datasets and keys itself, sends
// POST /v1/instances, and closes on success with launched(). A user without any uploaded key gets
// one made for them on Launch (in the local key store, uploaded, ticked; keyCreated() says so).
// Refusals (402: balance too low; 409: not enough free cards) are said in words and the dialog
// stays open, so the user can change the choice.
class LaunchDialog : public QDialog
{
    Q_OBJECT
public:
    // None is owned; all must outlive the dialog. Without `keys` no key is made on Launch.
    LaunchDialog(core::ClientSession *session, const core::BillTicker *ticker,
                 core::SshKeyStore *keys, QWidget *parent = nullptr);
    ~LaunchDialog() override;

    // Fetches GPU types, images, datasets and keys (the dialog is usable once they arrived).
    void load();
    // Fetches the provider's keys again (after the SSH keys dialog uploaded one); the ticks
    // already set stay set.
    void reloadKeys();
    core::NewInstance request() const;
    // Per hour for the current choice (0 without one).
    qint64 pricePerHourMicros() const;
    // Whether the GPU types show as cards (wide) or as the plain list (narrow).
    bool showsGpuCards() const;
    // Cards from this width of the dialog on.
    static constexpr int cardsMinWidth = 720;

Q_SIGNALS:
    void launched(const cardhour::core::Instance &instance);
    void manageKeysRequested();
    // A key was made and uploaded for this launch: the one line that says so (after
    // launched(); the dialog showed it too).
    void keyCreated(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void scrollChoices();
    void fillGpus();
    void fillImages();
    void fillDatasets();
    void fillKeys();
    void fillCounts();
    void updateCost();
    void updateGpuLayout();
    void fitGpuList();
    void validate();
    void onAccept();
    // The first launch without an uploaded key: make one (or reuse the one made by an earlier
    // attempt), upload it, tick it, then launch.
    void createKeyThenLaunch();
    void uploadCreatedKey();
    void launch();
    void fail(const QString &message);
    bool needsKey() const;
    // The card picked in the list, and what is rented: it, or the MIG slice of it chosen.
    const core::GpuType *selectedCard() const;
    const core::GpuType *selectedGpu() const;

    std::unique_ptr<Ui::LaunchDialog> m_ui;
    GpuCardDelegate *m_cardDelegate;
    GpuSlicePicker *m_slicePicker = nullptr;
    QGroupBox *m_stopBox = nullptr;
    StopPolicyEditor *m_stopPolicy = nullptr;
    PriceClassChooser *m_priceClass = nullptr;
    ModelMountPicker *m_modelPicker = nullptr;
    core::ClientSession *m_session;
    const core::BillTicker *m_ticker;
    core::SshKeyStore *m_keyStore;
    QList<core::GpuType> m_gpus;
    QList<core::Image> m_images;
    QList<core::Dataset> m_datasets;
    QList<core::SshKey> m_keys;
    core::SshKeyPair m_createdKey; // made on Launch, kept for a retry if its upload failed
    bool m_createdKeyHasPassphrase = false;
    QString m_keyNote; // to say once the launch is accepted
    QString m_shownStopProblem; // the stop policy's problem shown under the form, if any
    bool m_keysLoaded = false;
    bool m_busy = false;
    int m_pending = 0;
    // Kept for a retry of the same request after a network error, so it cannot launch twice.
    QString m_idempotencyKey;
    QJsonObject m_lastRequest;
    QString m_loadError;
};

} // namespace cardhour::ui
