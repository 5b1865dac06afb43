#pragma once

#include "sandbox/SandboxImages.h"

#include <QFrame>
#include <QPointer>

class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace cardhour::ui {

class BuildLogDialog;

// The local sandbox's images and this computer's fitness for containers, on the connect step:
// which images are missing, a "Prepare images" button that builds them (base first) with the
// builder's steps, an estimate of the time left and a Cancel button, the build's log one click
// away, and each finding of `cardhour-sim doctor` with its fix and a button to copy it.
// Everything comes from SandboxImages; nothing here blocks.
class ImagePreparation : public QFrame
{
    Q_OBJECT
public:
    // `images` is not owned and must outlive this widget.
    explicit ImagePreparation(core::SandboxImages *images, QWidget *parent = nullptr);

    // Asks again which images are missing and what the doctor finds (not while building).
    void refresh();
    // Shown only while active (the local sandbox is chosen) and there is something to say.
    void setActive(bool active);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onChecked(const QList<core::SandboxImages::Image> &images, const QString &error);
    void onProgress(const core::SandboxImages::Progress &progress);
    void onFinished(bool ok, bool cancelled, const QString &message);
    void onDiagnosed(const QList<core::SandboxImages::Finding> &findings, const QString &error);
    void prepare();
    void showLog();
    void retranslate();
    void updateSummary();
    void updateVisibility();

    core::SandboxImages *m_images;
    QLabel *m_title;
    QLabel *m_summary;
    QLabel *m_error;
    QProgressBar *m_progress;
    QLabel *m_step;
    QLabel *m_estimate;
    QLabel *m_ready;
    QPushButton *m_logButton;
    QPushButton *m_cancelButton;
    QPushButton *m_prepareButton;
    QWidget *m_findings;
    QVBoxLayout *m_findingsLayout;
    QPointer<BuildLogDialog> m_log;
    QStringList m_missing;
    QStringList m_readyIds;
    QString m_buildError; // the last build's failure, shown until the next build
    QList<core::SandboxImages::Finding> m_lastFindings;
    bool m_checked = false;
    bool m_active = true;
};

} // namespace cardhour::ui
