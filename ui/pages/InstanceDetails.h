#pragma once

#include "api/Models.h"

#include <QString>
#include <QTimeZone>
#include <QWidget>

#include <optional>

class QFormLayout;
class QGridLayout;
class QLabel;
class QStackedWidget;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class StopTimerRow;

// The selected instance in full, as the provider describes it: the launch timeline (each
// stage's time since the request), the SSH address and pinned host-key fingerprint, resources,
// datasets, the cards lent, what stop keeps and terminate deletes, compute per hour and storage
// per hour while stopped, the image's apps with whether each answers yet, and the stop time the
// provider keeps (moved or removed here while the host runs). Every sentence is
// built from the instance's own fields (`retention`, prices, stages); the text can be selected
// and copied. It shows what the session holds and follows its instanceChanged(); with nothing
// selected it says what to do.
class InstanceDetails : public QWidget
{
    Q_OBJECT
public:
    InstanceDetails(core::ClientSession *session, QWidget *parent = nullptr);

    // Shows `id` (empty: nothing selected, the empty state).
    void showInstance(const QString &id);
    QString instanceId() const { return m_id; }
    bool isShowingEmptyState() const;

    // The sentences of the pane, from the provider's data only (also for other views).
    static QString timelineText(const core::Instance &instance, const QTimeZone &zone);
    static QString hardwareCheckText(const core::Instance &instance);
    static QString sshAddressText(const core::Instance &instance);
    static QString resourcesText(const core::Instance &instance);
    static QString cardsText(const core::Instance &instance);
    static QString datasetsText(const core::Instance &instance);
    static QString retentionText(const core::Retention &retention);
    static QString computeText(const core::Instance &instance);
    static QString storageText(const core::Retention &retention);
    static QString appStatusText(const core::Instance &instance, const core::InstanceApp &app);

Q_SIGNALS:
    // "Open in browser" on one of the apps: SshActions::openApp(instance, appName) opens it
    // through the SSH forward.
    void openAppRequested(const QString &instanceId, const QString &appName);

protected:
    void changeEvent(QEvent *event) override;

private:
    QLabel *addRow(const QString &objectName);
    void render();
    void fill(const core::Instance &instance);
    void showApps(const core::Instance &instance);
    void retranslateRows();

    core::ClientSession *m_session;
    QString m_id;
    std::optional<core::Instance> m_shown; // as last heard of (a terminated one stays shown)
    QStackedWidget *m_stack;
    QLabel *m_emptyLabel;
    QLabel *m_iconLabel;
    QLabel *m_nameLabel;
    QLabel *m_stateLabel;
    QFormLayout *m_form;
    QList<QLabel *> m_values; // in row order, next to their titles
    QWidget *m_apps;
    QGridLayout *m_appsGrid;
    QString m_appsKey; // the instance and app names the app rows were made for
    StopTimerRow *m_timer; // a running host's stop time, moved or removed here
};

} // namespace cardhour::ui
