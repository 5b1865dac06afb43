#include "pages/HostCard.h"

#include "Icons.h"
#include "InstanceTableModel.h"
#include "SparklineDelegate.h"
#include "StateStyle.h"
#include "StopText.h"
#include "billing/Clock.h"
#include "theme/Design.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceState;

class HostCard::Sparkline : public QWidget
{
public:
    explicit Sparkline(QWidget *parent) : QWidget(parent)
    {
        setMinimumSize(120, 28);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    void setValues(const QList<double> &values)
    {
        if (values == m_values)
            return;
        m_values = values;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(QPointF(0, height() - 0.5), QPointF(width(), height() - 0.5));
        SparklineDelegate::drawLine(&painter, QRectF(rect()).adjusted(1, 2, -1, -2), m_values,
                                    palette().color(QPalette::Highlight));
    }

private:
    QList<double> m_values;
};

namespace {

QToolButton *actionButton(const QString &objectName, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setAutoRaise(true);
    return button;
}

} // namespace

HostCard::HostCard(InstanceTableModel *model, const QString &instanceId, QWidget *parent)
    : QFrame(parent), m_model(model), m_id(instanceId), m_name(new QLabel(this)),
      m_state(new QLabel(this)), m_gpu(new QLabel(this)), m_cost(new QLabel(this)),
      m_plannedStop(new QLabel(this)), m_sparkline(new Sparkline(this)),
      m_terminal(actionButton(u"cardTerminal"_s, this)), m_app(actionButton(u"cardApp"_s, this)),
      m_stop(actionButton(u"cardStop"_s, this)), m_start(actionButton(u"cardStart"_s, this))
{
    setObjectName(u"hostCard_"_s + instanceId);
    setFrameShape(QFrame::StyledPanel);
    Design::setCard(this);
    setMinimumWidth(kMinimumWidth);
    setMaximumWidth(480);
    Design::setTextRole(m_name, TextRole::Heading);
    Design::setTextRole(m_gpu, TextRole::Caption);
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setObjectName(u"cardState"_s);
    m_cost->setObjectName(u"cardCost"_s);
    m_cost->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_gpu->setObjectName(u"cardGpu"_s);
    m_plannedStop->setObjectName(u"cardPlannedStop"_s);
    m_plannedStop->setWordWrap(true);
    m_plannedStop->hide();

    auto *layout = new QGridLayout(this);
    layout->addWidget(m_name, 0, 0);
    layout->addWidget(m_cost, 0, 1);
    layout->addWidget(m_state, 1, 0, 1, 2);
    layout->addWidget(m_gpu, 2, 0, 1, 2);
    layout->addWidget(m_plannedStop, 3, 0, 1, 2);
    layout->addWidget(m_sparkline, 4, 0, 1, 2);
    auto *buttons = new QHBoxLayout;
    buttons->setSpacing(0);
    for (QToolButton *button : {m_terminal, m_app, m_stop, m_start})
        buttons->addWidget(button);
    buttons->addStretch(1);
    layout->addLayout(buttons, 5, 0, 1, 2);

    connect(m_terminal, &QToolButton::clicked, this, [this] { Q_EMIT terminalRequested(m_id); });
    connect(m_app, &QToolButton::clicked, this, [this] { Q_EMIT appRequested(m_id); });
    connect(m_stop, &QToolButton::clicked, this, [this] { Q_EMIT stopRequested(m_id); });
    connect(m_start, &QToolButton::clicked, this, [this] { Q_EMIT startRequested(m_id); });
    paintIcons();
    retranslate();
    refresh();
}

void HostCard::refresh()
{
    const Instance *instance = m_model->instance(m_id);
    if (!instance)
        return;
    m_name->setText(instance->name);
    setAccessibleName(instance->name);
    m_state->setText(u"<span style=\"color:%1\">%2</span>&nbsp;%3"_s.arg(
        StateStyle::colour(instance->state, palette()).name(), QString(QChar(0x25CF)),
        InstanceTableModel::stateText(*instance).toHtmlEscaped()));
    m_state->setAccessibleName(StateStyle::accessibleText(instance->state, instance->stateText));
    m_gpu->setText(tr("%1 × %2")
                       .arg(instance->gpuName.isEmpty() ? instance->gpuType : instance->gpuName)
                       .arg(instance->gpuCount));
    const bool running = instance->state == InstanceState::Running;
    const bool reachable = running && instance->ssh && instance->ssh->port > 0;
    m_terminal->setEnabled(reachable);
    m_app->setVisible(!instance->apps.isEmpty());
    m_app->setEnabled(reachable);
    if (!instance->apps.isEmpty())
        m_app->setText(instance->apps.first().name);
    m_stop->setVisible(instance->state != InstanceState::Stopped);
    m_stop->setEnabled(running);
    m_start->setVisible(instance->state == InstanceState::Stopped);
    refreshLive();
}

void HostCard::setClock(const core::Clock *clock)
{
    m_clock = clock;
    refreshLive();
}

void HostCard::refreshLive()
{
    const int row = m_model->rowOf(m_id);
    if (row < 0)
        return;
    m_cost->setText(
        m_model->index(row, InstanceTableModel::CostColumn).data(Qt::DisplayRole).toString());
    m_cost->setToolTip(tr("Cost so far"));
    // The countdown moves with the cost, which ticks while the host runs.
    const Instance *instance = m_model->instance(m_id);
    const QDateTime now = m_clock ? m_clock->now() : QDateTime::currentDateTimeUtc();
    const bool running = instance && instance->state == InstanceState::Running;
    // An interruption's notice comes before any planned stop: it is the sooner and not the
    // user's.
    const bool interrupting = running && instance->interruptionAt.isValid();
    const QString stop = interrupting
        ? StopText::interruption(instance->interruptionAt, m_model->timeZone(), now)
        : running ? StopText::planned(instance->plannedStop, m_model->timeZone(), now)
                  : QString();
    m_plannedStop->setText(stop);
    m_plannedStop->setVisible(!stop.isEmpty());
    QFont font = m_plannedStop->font();
    font.setBold(interrupting
                 || (instance && instance->plannedStop && instance->plannedStop->warning));
    m_plannedStop->setFont(font);
    m_sparkline->setValues(m_model->index(row, InstanceTableModel::ActivityColumn)
                               .data(InstanceTableModel::SparklineRole)
                               .value<QList<double>>());
}

void HostCard::retranslate()
{
    m_terminal->setText(tr("Terminal"));
    m_terminal->setToolTip(tr("Open a terminal on this host"));
    m_app->setToolTip(tr("Open the host's app in the browser"));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop this host (asks first)"));
    m_start->setText(tr("Start"));
    m_start->setToolTip(tr("Start this host again (asks first)"));
    m_sparkline->setAccessibleName(tr("GPU utilisation over the last minute"));
    for (QToolButton *button : {m_terminal, m_app, m_stop, m_start})
        button->setAccessibleName(button->toolTip());
}

void HostCard::paintIcons()
{
    m_terminal->setIcon(Icons::icon(Icon::Terminal, palette()));
    m_app->setIcon(Icons::icon(Icon::OpenApp, palette()));
    m_stop->setIcon(Icons::icon(Icon::Stop, palette()));
    m_start->setIcon(Icons::icon(Icon::Start, palette()));
}

void HostCard::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        refresh();
    } else if (event->type() == QEvent::PaletteChange) {
        paintIcons();
        refresh();
    }
    QFrame::changeEvent(event);
}

} // namespace cardhour::ui
