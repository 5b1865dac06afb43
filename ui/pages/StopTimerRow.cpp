#include "StopTimerRow.h"

#include "Format.h"
#include "ZonedDateTimeEdit.h"
#include "session/ClientSession.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

StopTimerRow::StopTimerRow(core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_current(new QLabel(this)),
      m_time(new ZonedDateTimeEdit(this)), m_move(new QPushButton(this)),
      m_remove(new QPushButton(this)), m_status(new QLabel(this))
{
    setObjectName(u"stopTimerRow"_s);
    m_current->setObjectName(u"stopTimerText"_s);
    m_current->setWordWrap(true);
    m_current->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_time->setObjectName(u"stopTimerEdit"_s);
    m_time->setCalendarPopup(true);
    m_time->setDisplayFormat(u"yyyy-MM-dd HH:mm"_s);
    m_time->setZone(session->timeZone());
    connect(session, &core::ClientSession::timeZoneChanged, m_time, &ZonedDateTimeEdit::setZone);
    m_move->setObjectName(u"stopTimerMove"_s);
    m_remove->setObjectName(u"stopTimerRemove"_s);
    m_status->setObjectName(u"stopTimerStatus"_s);
    m_status->setWordWrap(true);
    m_status->hide();

    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_current);
    auto *row = new QHBoxLayout;
    row->addWidget(m_time);
    row->addWidget(m_move);
    row->addWidget(m_remove);
    row->addStretch(1);
    column->addLayout(row);
    column->addWidget(m_status);

    connect(m_move, &QPushButton::clicked, this, [this] {
        core::StopPolicy policy = m_instance.stopPolicy;
        policy.stopAt = m_time->instant();
        send(policy, false);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        core::StopPolicy policy = m_instance.stopPolicy;
        policy.stopAt = {};
        send(policy, true);
    });
    retranslate();
    updateButtons();
}

void StopTimerRow::setInstance(const core::Instance &instance)
{
    const QDateTime stopAt = instance.stopPolicy.stopAt;
    // The field follows the provider only when another host or another time is shown, so
    // that an event does not undo what is being typed.
    if (instance.id != m_shownId || stopAt != m_shownStopAt) {
        m_time->setInstant(stopAt.isValid() ? stopAt
                                            : m_session->providerClock()->now().addSecs(3600));
        if (instance.id != m_shownId)
            m_status->hide();
    }
    m_shownId = instance.id;
    m_shownStopAt = stopAt;
    m_instance = instance;
    retranslate();
    updateButtons();
}

QString StopTimerRow::statusText() const
{
    return m_status->isVisible() ? m_status->text() : QString();
}

void StopTimerRow::send(const core::StopPolicy &policy, bool removing)
{
    if (m_busy || m_instance.id.isEmpty())
        return;
    m_busy = true;
    updateButtons();
    const QString name = m_instance.name;
    m_session->setStopPolicy(m_instance.id, policy)
        ->onFinished(this, [this, removing, name](const core::Reply<core::Instance> &reply) {
            m_busy = false;
            if (reply.ok()) {
                const QDateTime at = reply.value().stopPolicy.stopAt;
                m_status->setText(
                    removing || !at.isValid()
                        ? tr("%1 no longer stops at a set time.").arg(name)
                        : tr("%1 now stops at %2.")
                              .arg(name, Format::dateTime(at, m_session->timeZone())));
            } else {
                m_status->setText(
                    tr("The stop time was not changed: %1").arg(reply.error().userMessage()));
            }
            m_status->show();
            updateButtons();
        });
}

void StopTimerRow::updateButtons()
{
    const bool running = m_instance.state == core::InstanceState::Running;
    const bool timed = m_instance.stopPolicy.stopAt.isValid();
    m_time->setEnabled(running && !m_busy);
    m_move->setEnabled(running && !m_busy);
    m_remove->setEnabled(running && timed && !m_busy);
}

void StopTimerRow::retranslate()
{
    const QDateTime at = m_instance.stopPolicy.stopAt;
    if (at.isValid())
        m_current->setText(tr("Stops at %1, kept by the provider.")
                               .arg(Format::dateTime(at, m_session->timeZone())));
    else
        m_current->setText(tr("No stop time."));
    m_move->setText(at.isValid() ? tr("Move") : tr("Set"));
    m_move->setToolTip(tr("Stop the host at the time in the field"));
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(tr("Keep it running without a stop time"));
    m_time->setAccessibleName(tr("Stop time"));
}

void StopTimerRow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
