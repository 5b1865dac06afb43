#include "PriceClassChooser.h"

#include "Format.h"
#include "api/Models.h"

#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QRadioButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

PriceClassChooser::PriceClassChooser(QWidget *parent)
    : QGroupBox(parent), m_onDemand(new QRadioButton(this)),
      m_interruptible(new QRadioButton(this)), m_note(new QLabel(this)),
      m_restart(new QCheckBox(this))
{
    setObjectName(u"priceClassBox"_s);
    m_onDemand->setObjectName(u"onDemandRadio"_s);
    m_interruptible->setObjectName(u"interruptibleRadio"_s);
    m_restart->setObjectName(u"restartWhenAvailableCheck"_s);
    m_note->setObjectName(u"interruptibleNote"_s);
    m_note->setWordWrap(true);
    m_onDemand->setChecked(true);
    m_restart->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_onDemand);
    layout->addWidget(m_interruptible);
    layout->addWidget(m_note);
    layout->addWidget(m_restart);
    connect(m_interruptible, &QRadioButton::toggled, this, [this](bool on) {
        m_restart->setEnabled(on);
        Q_EMIT changed();
    });
    connect(m_restart, &QCheckBox::toggled, this, &PriceClassChooser::changed);
    retranslate();
}

void PriceClassChooser::setGpu(const core::GpuType *gpu)
{
    m_onDemandPrice = gpu ? gpu->pricePerHourMicros : -1;
    m_interruptiblePrice = gpu ? gpu->interruptiblePricePerHourMicros : -1;
    m_noticeSeconds = gpu ? gpu->interruptionNoticeSeconds : 0;
    retranslate();
}

bool PriceClassChooser::interruptible() const
{
    return m_interruptible->isChecked();
}

bool PriceClassChooser::restartWhenAvailable() const
{
    return m_interruptible->isChecked() && m_restart->isChecked();
}

qint64 PriceClassChooser::cardPrice(const core::GpuType &gpu, bool interruptible)
{
    return interruptible ? gpu.interruptiblePricePerHourMicros : gpu.pricePerHourMicros;
}

void PriceClassChooser::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QGroupBox::changeEvent(event);
}

void PriceClassChooser::retranslate()
{
    setTitle(tr("Price class"));
    const bool known = m_onDemandPrice >= 0;
    m_onDemand->setText(known ? tr("On demand: %1 per card-hour, runs until you stop it")
                                    .arg(Format::exactMoney(m_onDemandPrice))
                              : tr("On demand"));
    m_interruptible->setText(
        known ? tr("Interruptible: %1 per card-hour").arg(Format::exactMoney(m_interruptiblePrice))
              : tr("Interruptible"));
    m_note->setText(
        tr("The provider may stop an interruptible host when an on-demand launch needs its "
           "cards (at once; the most recently started goes first), or otherwise with %1 of "
           "notice. /workspace is kept; the stopped disk is billed as any stopped host's.")
            .arg(Format::duration(qint64(m_noticeSeconds) * 1000)));
    m_restart->setText(tr("Start it again when cards of its type are free"));
}

} // namespace cardhour::ui
