#pragma once

#include "api/ModelLibrary.h"
#include "api/Models.h"

#include <QElapsedTimer>
#include <QList>
#include <QUrl>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class SshActions;

// The catalog's one-click apps (the images that serve a web app) on the Home page: for each,
// what it mounts (library models, sample data) and what it costs per hour at its default cards
// (catalog price times the app's card count), and a Launch button. Launch asks first, with that
// cost per hour (CostPreview); on yes it launches the image
// on the first GPU type with enough free cards, with the app's models and every SSH key of the
// account; when the instance's app stage turns ready, the web UI opens in the browser through
// SshActions (the same forward the host card's App button uses).
class AppsPanel : public QWidget
{
    Q_OBJECT
public:
    AppsPanel(core::ClientSession *session, SshActions *ssh, QWidget *parent = nullptr);

    // Fetches GPU types, images and models again (done on log-in and when shown).
    void reload();
    int appCount() const { return int(m_entries.size()); }
    // The Launch button of the image's app (nullptr when the catalog has no such app).
    QPushButton *launchButton(const QString &imageId) const;
    QString statusText(const QString &imageId) const;

Q_SIGNALS:
    // The app's instance was created (it is in the session's list).
    void launched(const cardhour::core::Instance &instance);
    // The web UI was handed to the browser, `elapsedMs` after the click.
    void appOpened(const QString &imageId, const QUrl &url, qint64 elapsedMs);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    enum class Phase {
        Idle,
        Launching,
        Waiting,
        Opening,
        Open,
        Failed
    };
    struct Entry
    {
        core::Image image;
        core::ImageApp app;
        QWidget *card = nullptr;
        QLabel *title = nullptr;
        QLabel *mounts = nullptr;
        QLabel *price = nullptr;
        QLabel *status = nullptr; // progress, or what it took
        QLabel *error = nullptr;
        QPushButton *launch = nullptr;
        Phase phase = Phase::Idle;
        QString instanceId;
        QElapsedTimer clock;
    };

    void rebuild();
    void fillEntry(Entry &entry);
    const core::GpuType *defaultGpu(const core::ImageApp &app) const;
    Entry *entry(const QString &imageId);
    const Entry *entry(const QString &imageId) const;
    // Asks first, with the hourly cost; then launch().
    void confirmLaunch(const QString &imageId);
    void launch(const QString &imageId);
    void follow(const core::Instance &instance);
    void onAppOpened(const QUrl &url);
    void onSshMessage(const QString &text, bool isError);
    void fail(Entry &entry, const QString &message);
    void setStatus(Entry &entry, const QString &text, bool isError = false);
    void retranslate();

    core::ClientSession *m_session;
    SshActions *m_ssh;
    QLabel *m_heading;
    QLabel *m_loadError;
    QWidget *m_row;
    QHBoxLayout *m_rowLayout;
    QList<core::GpuType> m_gpus;
    QList<core::Image> m_images;
    QList<core::LibraryModel> m_models;
    QList<Entry> m_entries;
    QString m_loadProblem; // why the last reload failed; empty when it did not
    int m_pending = 0; // catalog requests in flight
};

} // namespace cardhour::ui
