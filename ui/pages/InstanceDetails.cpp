#include "InstanceDetails.h"

#include "Format.h"
#include "Icons.h"
#include "StateStyle.h"
#include "StopText.h"
#include "StopTimerRow.h"
#include "session/ClientSession.h"
#include "theme/Design.h"

#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceApp;
using core::InstanceState;
using core::Retention;

namespace {

// The rows of the pane, in order: object names of their value labels.
const QStringList kRows = {u"timelineLabel"_s,    u"hardwareCheckLabel"_s, u"sshLabel"_s,
                           u"fingerprintLabel"_s, u"resourcesLabel"_s,     u"cardsLabel"_s,
                           u"datasetsLabel"_s,    u"computeLabel"_s,       u"storageLabel"_s,
                           u"retentionLabel"_s};
enum Row {
    TimelineRow,
    HardwareCheckRow,
    SshRow,
    FingerprintRow,
    ResourcesRow,
    CardsRow,
    DatasetsRow,
    ComputeRow,
    StorageRow,
    RetentionRow
};

QString rowTitle(int row)
{
    switch (row) {
    case TimelineRow:
        return InstanceDetails::tr("Launch");
    case HardwareCheckRow:
        return InstanceDetails::tr("Hardware check");
    case SshRow:
        return InstanceDetails::tr("SSH");
    case FingerprintRow:
        return InstanceDetails::tr("Host key");
    case ResourcesRow:
        return InstanceDetails::tr("Resources");
    case CardsRow:
        return InstanceDetails::tr("GPU cards");
    case DatasetsRow:
        return InstanceDetails::tr("Datasets");
    case ComputeRow:
        return InstanceDetails::tr("Compute");
    case StorageRow:
        return InstanceDetails::tr("While stopped");
    case RetentionRow:
        return InstanceDetails::tr("Stop and terminate");
    default:
        return {};
    }
}

QString listOf(const QStringList &items)
{
    QStringList words;
    for (const QString &item : items)
        words << Format::retentionItem(item);
    return QLocale().createSeparatedList(words);
}

QLabel *selectableLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setFocusPolicy(Qt::StrongFocus); // reachable (and copyable) from the keyboard
    return label;
}

} // namespace

InstanceDetails::InstanceDetails(core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_stack(new QStackedWidget(this)),
      m_emptyLabel(new QLabel(this)), m_iconLabel(new QLabel(this)),
      m_nameLabel(selectableLabel(this)), m_stateLabel(selectableLabel(this)),
      m_form(new QFormLayout), m_apps(new QWidget(this)), m_appsGrid(new QGridLayout(m_apps)),
      m_timer(new StopTimerRow(session, this))
{
    setObjectName(u"instanceDetails"_s);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    m_emptyLabel->setObjectName(u"detailsEmptyLabel"_s);
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setMargin(24);
    m_stack->addWidget(m_emptyLabel);

    auto *scroll = new QScrollArea(m_stack);
    scroll->setObjectName(u"detailsScroll"_s);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    auto *column = new QVBoxLayout(content);
    auto *header = new QHBoxLayout;
    m_iconLabel->setObjectName(u"stateIconLabel"_s);
    m_nameLabel->setObjectName(u"nameLabel"_s);
    m_stateLabel->setObjectName(u"stateLabel"_s);
    Design::setTextRole(m_nameLabel, TextRole::Heading);
    m_nameLabel->setWordWrap(false);
    header->addWidget(m_iconLabel);
    header->addWidget(m_nameLabel);
    header->addWidget(m_stateLabel, 1);
    column->addLayout(header);

    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    for (const QString &name : kRows)
        m_values.append(addRow(name));
    m_apps->setObjectName(u"appsBox"_s);
    m_appsGrid->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(new QLabel(this), m_apps);
    m_form->addRow(new QLabel(this), m_timer);
    column->addLayout(m_form);
    column->addStretch(1);
    scroll->setWidget(content);
    m_stack->addWidget(scroll);

    retranslateRows();
    connect(m_session, &core::ClientSession::instanceChanged, this, [this](const Instance &i) {
        if (i.id == m_id) {
            m_shown = i;
            render();
        }
    });
    connect(m_session, &core::ClientSession::instancesLoaded, this, [this] {
        if (!m_id.isEmpty())
            showInstance(m_id);
    });
    connect(m_session, &core::ClientSession::resetForUser, this, [this] { showInstance({}); });
    render();
}

QLabel *InstanceDetails::addRow(const QString &objectName)
{
    QLabel *value = selectableLabel(this);
    value->setObjectName(objectName);
    auto *title = new QLabel(this);
    title->setBuddy(value);
    m_form->addRow(title, value);
    return value;
}

void InstanceDetails::showInstance(const QString &id)
{
    m_id = id;
    m_shown = id.isEmpty() ? std::nullopt : m_session->instance(id);
    render();
}

bool InstanceDetails::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_emptyLabel;
}

void InstanceDetails::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateRows();
        render();
    } else if (event->type() == QEvent::PaletteChange) {
        render(); // the state's colour and icon follow the theme
    }
}

void InstanceDetails::retranslateRows()
{
    for (int row = 0; row < m_values.size(); ++row) {
        if (auto *title =
                qobject_cast<QLabel *>(m_form->itemAt(row, QFormLayout::LabelRole)->widget()))
            title->setText(rowTitle(row));
        m_values.at(row)->setAccessibleName(rowTitle(row));
    }
    if (QLayoutItem *appsTitle = m_form->itemAt(int(m_values.size()), QFormLayout::LabelRole))
        static_cast<QLabel *>(appsTitle->widget())->setText(tr("Apps"));
    m_apps->setAccessibleName(tr("Apps"));
    if (QLayoutItem *timerTitle = m_form->itemAt(int(m_values.size()) + 1, QFormLayout::LabelRole))
        static_cast<QLabel *>(timerTitle->widget())->setText(tr("Stop time"));
    m_timer->setAccessibleName(tr("Stop time"));
    m_emptyLabel->setText(tr("Select an instance in the list to see how its launch went, its SSH "
                             "address and host key, its resources and datasets, and what stopping "
                             "it keeps and costs."));
    m_emptyLabel->setAccessibleName(tr("No instance selected"));
    m_iconLabel->setAccessibleName(tr("State"));
    m_nameLabel->setAccessibleName(tr("Instance name"));
    m_stateLabel->setAccessibleName(tr("State"));
}

void InstanceDetails::render()
{
    if (!m_shown) {
        m_stack->setCurrentWidget(m_emptyLabel);
        return;
    }
    fill(*m_shown);
    // A value with a line more (a launch stage, an app) needs its row taller: the form's widget
    // is asked to lay out again, as its layout, once left inactive, would not ask by itself
    // (the timeline's last stage was cut).
    QTimer::singleShot(0, this, [this] {
        QWidget *content = m_form->parentWidget();
        if (!content || !content->layout())
            return;
        m_form->invalidate();
        content->layout()->invalidate();
        content->layout()->activate();
        content->updateGeometry(); // the scroll area sizes it again for the new heights
    });
    m_stack->setCurrentIndex(1);
}

void InstanceDetails::fill(const Instance &instance)
{
    const QPalette pal = palette();
    m_iconLabel->setPixmap(StateStyle::pixmap(instance.state, pal, 20, devicePixelRatioF()));
    m_iconLabel->setAccessibleDescription(
        StateStyle::accessibleText(instance.state, instance.stateText));
    m_nameLabel->setText(instance.name);
    QString state = Format::state(instance.state, instance.stateText);
    if (!instance.stateReason.isEmpty()
        && (instance.state == InstanceState::Failed || instance.state == InstanceState::Stopped)) {
        const QString why = StopText::reason(instance.stateReason);
        state = tr("%1 (%2)").arg(state, why.isEmpty() ? instance.stateReason : why);
    }
    if (instance.state == InstanceState::Running && instance.interruptionAt.isValid())
        state =
            tr("%1 · %2").arg(state,
                              StopText::interruption(instance.interruptionAt, m_session->timeZone(),
                                                     m_session->providerClock()->now()));
    else if (instance.state == InstanceState::Running && instance.plannedStop)
        state = tr("%1 · %2").arg(state,
                                  StopText::planned(instance.plannedStop, m_session->timeZone(),
                                                    m_session->providerClock()->now()));
    m_stateLabel->setText(state);
    QPalette statePalette = m_stateLabel->palette();
    statePalette.setColor(QPalette::WindowText, StateStyle::colour(instance.state, pal));
    m_stateLabel->setPalette(statePalette);
    m_stateLabel->setAccessibleDescription(
        StateStyle::accessibleText(instance.state, instance.stateText));

    m_values[TimelineRow]->setText(timelineText(instance, m_session->timeZone()));
    m_values[HardwareCheckRow]->setText(hardwareCheckText(instance));
    m_values[SshRow]->setText(sshAddressText(instance));
    m_values[FingerprintRow]->setText(instance.ssh && !instance.ssh->hostKeySha256.isEmpty()
                                          ? instance.ssh->hostKeySha256
                                          : tr("not known until SSH is ready"));
    m_values[ResourcesRow]->setText(resourcesText(instance));
    m_values[CardsRow]->setText(cardsText(instance));
    m_values[DatasetsRow]->setText(datasetsText(instance));
    m_values[ComputeRow]->setText(computeText(instance));
    m_values[StorageRow]->setText(storageText(instance.retention));
    m_values[RetentionRow]->setText(retentionText(instance.retention));
    showApps(instance);
    m_timer->setInstance(instance);
}

void InstanceDetails::showApps(const Instance &instance)
{
    // The rows are made again only when the apps themselves change (another instance, another
    // image), so that a click, the keyboard focus or a screen reader stays on its button while
    // events update the texts.
    QStringList names;
    for (const InstanceApp &app : instance.apps)
        names << app.name;
    const QString key = instance.id + u'\n' + names.join(u'\n');
    if (key != m_appsKey) {
        m_appsKey = key;
        while (QLayoutItem *item = m_appsGrid->takeAt(0)) {
            delete item->widget();
            delete item;
        }
        if (instance.apps.isEmpty()) {
            QLabel *none = selectableLabel(m_apps);
            none->setObjectName(u"noAppsLabel"_s);
            m_appsGrid->addWidget(none, 0, 0);
            none->show(); // at once, not when the layout gets round to it
        }
        int row = 0;
        for (const InstanceApp &app : instance.apps) {
            QLabel *name = selectableLabel(m_apps);
            name->setObjectName(u"appName_"_s + app.name);
            QLabel *status = selectableLabel(m_apps);
            status->setObjectName(u"appStatus_"_s + app.name);
            auto *open = new QPushButton(m_apps);
            open->setObjectName(u"openApp_"_s + app.name);
            connect(open, &QPushButton::clicked, this,
                    [this, id = instance.id, n = app.name] { Q_EMIT openAppRequested(id, n); });
            m_appsGrid->addWidget(name, row, 0);
            m_appsGrid->addWidget(status, row, 1);
            m_appsGrid->addWidget(open, row, 2);
            for (QWidget *widget : {static_cast<QWidget *>(name), static_cast<QWidget *>(status),
                                    static_cast<QWidget *>(open)})
                widget->show();
            ++row;
        }
        // The sentence alone takes the width; with apps, their status does.
        m_appsGrid->setColumnStretch(0, instance.apps.isEmpty() ? 1 : 0);
        m_appsGrid->setColumnStretch(1, instance.apps.isEmpty() ? 0 : 1);
    }
    if (auto *none = m_apps->findChild<QLabel *>(u"noAppsLabel"_s))
        none->setText(tr("This image serves no web apps."));
    const bool reachable = instance.state == InstanceState::Running && instance.ssh;
    for (const InstanceApp &app : instance.apps) {
        auto *name = m_apps->findChild<QLabel *>(u"appName_"_s + app.name);
        auto *status = m_apps->findChild<QLabel *>(u"appStatus_"_s + app.name);
        auto *open = m_apps->findChild<QPushButton *>(u"openApp_"_s + app.name);
        if (!name || !status || !open)
            continue;
        const bool answers = reachable && app.ready;
        name->setText(tr("%1 (port %2)").arg(app.name).arg(app.port));
        status->setText(appStatusText(instance, app));
        status->setAccessibleName(tr("%1: status").arg(app.name));
        QPalette statusPalette = status->palette();
        statusPalette.setColor(
            QPalette::WindowText,
            StateStyle::colour(answers ? InstanceState::Running : InstanceState::Starting,
                               palette()));
        status->setPalette(statusPalette);
        open->setText(tr("Open in browser"));
        open->setIcon(Icons::icon(Icon::OpenApp, palette())); // made per palette (theme)
        open->setAccessibleName(tr("Open %1 in the browser").arg(app.name));
        open->setEnabled(answers);
        open->setToolTip(answers
                             ? tr("Through an SSH forward to port %1 in the instance").arg(app.port)
                             : appStatusText(instance, app));
    }
}

// ---- the sentences --------------------------------------------------------------------------

QString InstanceDetails::timelineText(const Instance &instance, const QTimeZone &zone)
{
    const core::Launch &launch = instance.launch;
    if (!launch.requestedAt.isValid())
        return tr("not launched yet");
    QStringList lines{tr("requested at %1").arg(Format::dateTime(launch.requestedAt, zone, true))};
    for (const core::LaunchStage &stage : launch.stages)
        lines << tr("%1: %2 after the request")
                     .arg(Format::stage(stage.name),
                          Format::seconds(launch.requestedAt.msecsTo(stage.at)));
    if (instance.state == InstanceState::Creating || instance.state == InstanceState::Starting)
        lines << tr("waiting for the next stage…");
    return lines.join(u'\n');
}

QString InstanceDetails::hardwareCheckText(const Instance &instance)
{
    if (!instance.hardwareCheck) {
        const bool launching =
            instance.state == InstanceState::Creating || instance.state == InstanceState::Starting;
        return launching ? tr("not yet: the box is checked once it answers, before billing")
                         : tr("not checked");
    }
    const core::HardwareCheck &check = *instance.hardwareCheck;
    if (!check.passed)
        return tr("failed, not billed:\n%1").arg(check.differences.join(u'\n'));
    QStringList found{tr("%1 × %2, %3 GiB each")
                          .arg(check.foundGpuCount.value_or(0))
                          .arg(check.orderedGpuName)
                          .arg(QLocale().toString(check.foundCards.isEmpty()
                                                      ? 0.0
                                                      : check.foundCards.first().vramMib / 1024.0,
                                                  'f', 0))};
    if (check.foundCpus)
        found << tr("%1 CPUs").arg(QLocale().toString(*check.foundCpus, 'g', 4));
    if (check.foundMemoryMib)
        found
            << tr("%1 GiB memory").arg(QLocale().toString(*check.foundMemoryMib / 1024.0, 'g', 4));
    if (check.foundWorkspaceBytes && check.workspaceBounded)
        found << tr("/workspace %1 GiB")
                     .arg(QLocale().toString(*check.foundWorkspaceBytes / double(1 << 30), 'f', 1));
    return tr("passed: the box has what was ordered (%1); billed from then on")
        .arg(found.join(u", "_s));
}

QString InstanceDetails::sshAddressText(const Instance &instance)
{
    if (!instance.ssh || instance.ssh->port <= 0)
        return tr("not reachable yet");
    return u"%1@%2:%3"_s.arg(instance.ssh->user, instance.ssh->host).arg(instance.ssh->port);
}

QString InstanceDetails::resourcesText(const Instance &instance)
{
    QStringList parts;
    if (instance.cpus > 0)
        parts << tr("%1 CPUs").arg(QLocale().toString(instance.cpus, 'g', 4));
    if (instance.memoryMib > 0)
        parts << tr("%1 GiB memory").arg(QLocale().toString(instance.memoryMib / 1024.0, 'g', 4));
    if (instance.retention.storageGib > 0)
        parts << tr("%1 GiB disk").arg(instance.retention.storageGib);
    return parts.isEmpty() ? tr("not reported by the provider") : parts.join(u" · "_s);
}

QString InstanceDetails::cardsText(const Instance &instance)
{
    const QString gpu = instance.gpuName.isEmpty() ? instance.gpuType : instance.gpuName;
    QString text = tr("%1 × %2").arg(instance.gpuCount).arg(gpu);
    if (!instance.gpuCards.isEmpty()) {
        QStringList numbers;
        for (const int card : instance.gpuCards)
            numbers << QString::number(card);
        text = tr("%1 (cards %2)").arg(text, numbers.join(u", "_s));
    }
    return text;
}

QString InstanceDetails::datasetsText(const Instance &instance)
{
    if (instance.datasets.isEmpty())
        return tr("none mounted");
    QStringList lines;
    for (const QString &name : instance.datasets)
        lines << tr("%1 at /datasets/%1 (read-only)").arg(name);
    return lines.join(u'\n');
}

QString InstanceDetails::computeText(const Instance &instance)
{
    const QString rate = Format::ratePerHour(instance.pricePerHourMicros);
    QString text = instance.isBilled() ? tr("%1 while running, billed now").arg(rate)
                                       : tr("%1 while running, not billed now").arg(rate);
    if (instance.interruptible)
        text += u'\n'
            + (instance.restartWhenAvailable
                   ? tr("Interruptible: may be stopped; restarts when cards are free")
                   : tr("Interruptible: the provider may stop it"));
    return text;
}

QString InstanceDetails::storageText(const Retention &retention)
{
    if (!retention.billedWhileStopped.contains(u"storage"_s)
        || retention.storageRateMicrosPerHourWhenStopped <= 0)
        return tr("nothing is billed while it is stopped");
    const qint64 rate = retention.storageRateMicrosPerHourWhenStopped;
    return tr("%1 for the %2 GiB kept (%3 per GiB-hour)")
        .arg(Format::ratePerHour(rate))
        .arg(retention.storageGib)
        .arg(Format::exactMoney(retention.storagePricePerGibHourMicros));
}

QString InstanceDetails::retentionText(const Retention &retention)
{
    QStringList sentences;
    if (retention.stopKeeps.isEmpty())
        sentences << tr("Stop keeps nothing.");
    else
        sentences << tr("Stop keeps %1.").arg(listOf(retention.stopKeeps));
    if (!retention.stopReleases.isEmpty())
        sentences << tr("It releases %1.").arg(listOf(retention.stopReleases));
    if (retention.terminateDeletes.isEmpty())
        sentences << tr("Terminate has nothing kept to delete.");
    else
        sentences << tr("Terminate deletes %1.").arg(listOf(retention.terminateDeletes));
    return sentences.join(u' ');
}

QString InstanceDetails::appStatusText(const Instance &instance, const InstanceApp &app)
{
    if (instance.state != InstanceState::Running || !instance.ssh)
        return tr("not running");
    if (!app.ready)
        return tr("not answering yet");
    if (app.readyAt.isValid() && instance.launch.requestedAt.isValid())
        return tr("answers (since %1 after the request)")
            .arg(Format::seconds(instance.launch.requestedAt.msecsTo(app.readyAt)));
    return tr("answers");
}

} // namespace cardhour::ui
