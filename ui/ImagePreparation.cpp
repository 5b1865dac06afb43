#include "ImagePreparation.h"

#include "BuildLogDialog.h"
#include "Format.h"
#include "StateStyle.h"
#include "theme/Design.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

constexpr int kProgressScale = 1000;

QLabel *wrappedLabel(const QString &name, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

ImagePreparation::ImagePreparation(core::SandboxImages *images, QWidget *parent)
    : QFrame(parent), m_images(images), m_title(new QLabel(this)),
      m_summary(wrappedLabel(u"imagesSummary"_s, this)),
      m_error(wrappedLabel(u"imagesError"_s, this)), m_progress(new QProgressBar(this)),
      m_step(wrappedLabel(u"buildStep"_s, this)),
      m_estimate(wrappedLabel(u"buildEstimate"_s, this)),
      m_ready(wrappedLabel(u"baseReady"_s, this)), m_logButton(new QPushButton(this)),
      m_cancelButton(new QPushButton(this)), m_prepareButton(new QPushButton(this)),
      m_findings(new QWidget(this)), m_findingsLayout(new QVBoxLayout(m_findings))
{
    setObjectName(u"imagePreparation"_s);
    setFrameShape(QFrame::StyledPanel);
    m_title->setObjectName(u"imagesTitle"_s);
    Design::setCard(this);
    Design::setTextRole(m_title, TextRole::Heading);
    StateStyle::showAsError(m_error);
    m_progress->setObjectName(u"buildProgress"_s);
    m_progress->setRange(0, kProgressScale);
    m_step->setTextInteractionFlags(Qt::NoTextInteraction);
    m_logButton->setObjectName(u"showLogButton"_s);
    m_cancelButton->setObjectName(u"cancelBuildButton"_s);
    m_prepareButton->setObjectName(u"prepareImagesButton"_s);
    m_findings->setObjectName(u"doctorFindings"_s);
    m_findingsLayout->setContentsMargins(0, 6, 0, 0);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_logButton);
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_prepareButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(m_progress);
    layout->addWidget(m_step);
    layout->addWidget(m_estimate);
    layout->addWidget(m_ready);
    layout->addWidget(m_error);
    layout->addLayout(buttons);
    layout->addWidget(m_findings);

    connect(m_prepareButton, &QPushButton::clicked, this, &ImagePreparation::prepare);
    connect(m_cancelButton, &QPushButton::clicked, m_images, &core::SandboxImages::cancel);
    connect(m_logButton, &QPushButton::clicked, this, &ImagePreparation::showLog);
    connect(m_images, &core::SandboxImages::checked, this, &ImagePreparation::onChecked);
    connect(m_images, &core::SandboxImages::progress, this, &ImagePreparation::onProgress);
    connect(m_images, &core::SandboxImages::finished, this, &ImagePreparation::onFinished);
    connect(m_images, &core::SandboxImages::diagnosed, this, &ImagePreparation::onDiagnosed);
    connect(m_images, &core::SandboxImages::imageReady, this, [this](const QString &id) {
        m_readyIds.append(id);
        updateVisibility();
    });
    connect(m_images, &core::SandboxImages::logLine, this, [this](const QString &line) {
        if (m_log)
            m_log->appendLine(line);
    });
    retranslate();
    updateVisibility();
}

void ImagePreparation::refresh()
{
    if (m_images->isBuilding())
        return;
    m_images->check();
    m_images->diagnose();
}

void ImagePreparation::setActive(bool active)
{
    m_active = active;
    updateVisibility();
}

void ImagePreparation::onChecked(const QList<core::SandboxImages::Image> &images,
                                 const QString &error)
{
    Q_UNUSED(images)
    // Ready only when the list was read: a list that could not be read says nothing of them.
    m_checked = error.isEmpty();
    m_error->setText(error.isEmpty() ? m_buildError : error);
    m_missing = error.isEmpty() ? m_images->missing() : QStringList();
    updateSummary();
    updateVisibility();
}

void ImagePreparation::prepare()
{
    QString error;
    m_readyIds.clear();
    m_buildError.clear();
    if (!m_images->prepare(m_missing, &error)) {
        m_error->setText(error);
        return;
    }
    m_error->clear();
    m_progress->setValue(0);
    m_step->setText(tr("Starting the image builder…"));
    m_estimate->setText(tr("Estimating the time left…"));
    updateSummary();
    updateVisibility();
}

void ImagePreparation::onProgress(const core::SandboxImages::Progress &progress)
{
    m_progress->setValue(int(progress.fraction * kProgressScale));
    const int position = std::min(progress.imagesDone + 1, progress.imagesTotal);
    QString line = progress.line;
    if (line.size() > 90)
        line = line.left(89) + QChar(0x2026);
    m_step->setText(progress.totalSteps > 0 ? tr("%1 (image %2 of %3): step %4 of %5 — %6")
                                                  .arg(progress.image)
                                                  .arg(position)
                                                  .arg(progress.imagesTotal)
                                                  .arg(progress.step)
                                                  .arg(progress.totalSteps)
                                                  .arg(line)
                                            : tr("%1 (image %2 of %3): %4")
                                                  .arg(progress.image)
                                                  .arg(position)
                                                  .arg(progress.imagesTotal)
                                                  .arg(line));
    m_estimate->setText(
        progress.secondsLeft >= 0
            ? tr("About %1 left").arg(Format::duration(qint64(progress.secondsLeft) * 1000))
            : tr("Estimating the time left…"));
}

void ImagePreparation::onFinished(bool ok, bool cancelled, const QString &message)
{
    m_step->setText(!ok && !cancelled ? QString() : message); // a failure is said once, below
    m_estimate->clear();
    if (!ok && !cancelled) {
        m_buildError = message;
        m_error->setText(message);
    }
    if (ok)
        m_progress->setValue(kProgressScale);
    updateVisibility();
    m_images->check(); // what is built now, and what the doctor says then
    m_images->diagnose();
}

void ImagePreparation::onDiagnosed(const QList<core::SandboxImages::Finding> &findings,
                                   const QString &error)
{
    m_lastFindings = findings;
    while (QLayoutItem *item = m_findingsLayout->takeAt(0)) {
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    if (!error.isEmpty()) {
        QLabel *label = wrappedLabel(u"doctorError"_s, m_findings);
        StateStyle::showAsError(label);
        label->setText(error);
        m_findingsLayout->addWidget(label);
    }
    for (const core::SandboxImages::Finding &finding : findings) {
        QLabel *head = wrappedLabel(u"finding_"_s + finding.name, m_findings);
        head->setText(
            (finding.status == u"problem"_s ? tr("Problem — %1: %2") : tr("Warning — %1: %2"))
                .arg(finding.name, finding.detail));
        if (finding.status == u"problem"_s)
            StateStyle::showAsError(head);
        m_findingsLayout->addWidget(head);
        if (finding.fix.isEmpty())
            continue;
        auto *row = new QWidget(m_findings);
        auto *rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        QLabel *fix = wrappedLabel(u"fix_"_s + finding.name, row);
        fix->setText(finding.fix);
        fix->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        fix->setFrameShape(QFrame::StyledPanel);
        fix->setMargin(4);
        fix->setBackgroundRole(QPalette::Base);
        fix->setAutoFillBackground(true);
        auto *copy = new QPushButton(tr("Copy"), row);
        copy->setObjectName(u"copyFix_"_s + finding.name);
        copy->setToolTip(tr("Copy the fix, to paste it into a terminal"));
        connect(copy, &QPushButton::clicked, this,
                [text = finding.fix] { QApplication::clipboard()->setText(text); });
        rowLayout->addWidget(fix, 1);
        rowLayout->addWidget(copy, 0, Qt::AlignTop);
        m_findingsLayout->addWidget(row);
    }
    updateVisibility();
}

void ImagePreparation::showLog()
{
    if (!m_log) {
        m_log = new BuildLogDialog(this);
        m_log->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_log->setLog(m_images->log());
    m_log->open();
}

void ImagePreparation::updateSummary()
{
    if (m_images->isBuilding()) {
        m_summary->setText(tr("Preparing the sandbox's images: %1. This happens once on this "
                              "computer.")
                               .arg(m_missing.join(u", "_s)));
    } else if (!m_missing.isEmpty()) {
        m_summary->setText(tr("These images of the sandbox are not built yet: %1. Hosts need "
                              "them; building them takes a while, once, and base comes first.")
                               .arg(m_missing.join(u", "_s)));
    } else {
        m_summary->setText(m_checked ? tr("The sandbox's images are ready.") : QString());
    }
    const bool baseReady = m_readyIds.contains(u"base"_s) && m_images->isBuilding();
    m_ready->setText(baseReady ? tr("base is ready: you can connect and launch a base host now; "
                                    "the others go on building.")
                               : QString());
}

void ImagePreparation::updateVisibility()
{
    updateSummary();
    const bool building = m_images->isBuilding();
    const bool anyFinding = m_findingsLayout->count() > 0;
    const bool hasLog = !m_images->log().isEmpty();
    m_progress->setVisible(building || hasLog);
    m_step->setVisible((building || hasLog) && !m_step->text().isEmpty());
    m_estimate->setVisible(building);
    m_ready->setVisible(!m_ready->text().isEmpty());
    m_error->setVisible(!m_error->text().isEmpty());
    m_prepareButton->setVisible(!building && !m_missing.isEmpty());
    m_cancelButton->setVisible(building);
    m_logButton->setVisible(hasLog);
    m_findings->setVisible(anyFinding);
    setVisible(m_active
               && (building || hasLog || !m_missing.isEmpty() || anyFinding
                   || !m_error->text().isEmpty()));
}

void ImagePreparation::retranslate()
{
    m_title->setText(tr("Sandbox images and this computer"));
    m_logButton->setText(tr("Show log"));
    m_cancelButton->setText(tr("Cancel"));
    m_prepareButton->setText(tr("Prepare images"));
    updateSummary();
}

void ImagePreparation::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        onDiagnosed(m_lastFindings, {});
    }
    QFrame::changeEvent(event);
}

} // namespace cardhour::ui
