#include "StopPolicyEditor.h"

#include "Format.h"
#include "ZonedDateTimeEdit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
constexpr qint64 kMicrosPerYuan = 1'000'000;
constexpr qint64 kMsPerHour = 3'600'000;
// The provider takes any stop time in the future; two decimals of an hour (36 s) are the finest
// the field shows, so its least is the least it can hold.
constexpr double kLeastAfterHours = 0.01;
constexpr double kMostAfterHours = 24 * 30;
} // namespace

StopPolicyEditor::StopPolicyEditor(QWidget *parent)
    : QWidget(parent), m_timeRule(new QComboBox(this)), m_stopAt(new ZonedDateTimeEdit(this)),
      m_afterHours(new QDoubleSpinBox(this)), m_costOn(new QCheckBox(this)),
      m_maxCost(new QDoubleSpinBox(this)), m_idleOn(new QCheckBox(this)),
      m_idlePercent(new QSpinBox(this)), m_idleMinutes(new QSpinBox(this)),
      m_idleNoConnections(new QCheckBox(this)), m_idleNote(new QLabel(this))
{
    setObjectName(u"stopPolicyEditor"_s);
    m_timeRule->setObjectName(u"stopTimeRule"_s);
    m_timeRule->addItem(QString(), int(TimeRule::None));
    m_timeRule->addItem(QString(), int(TimeRule::At));
    m_timeRule->addItem(QString(), int(TimeRule::After));
    m_stopAt->setObjectName(u"stopAtEdit"_s);
    m_stopAt->setCalendarPopup(true);
    m_stopAt->setDisplayFormat(u"yyyy-MM-dd HH:mm"_s);
    m_stopAt->setInstant(QDateTime::currentDateTimeUtc().addSecs(2 * 3600));
    m_afterHours->setObjectName(u"stopAfterHours"_s);
    m_afterHours->setRange(kLeastAfterHours, kMostAfterHours);
    m_afterHours->setDecimals(2);
    m_afterHours->setSingleStep(0.5);
    m_afterHours->setValue(2);
    m_costOn->setObjectName(u"stopAtCost"_s);
    m_maxCost->setObjectName(u"maxCostYuan"_s);
    m_maxCost->setRange(0.01, 1'000'000);
    m_maxCost->setDecimals(2);
    m_maxCost->setValue(10);
    m_maxCost->setPrefix(u"¥"_s);
    m_idleOn->setObjectName(u"stopWhenIdle"_s);
    const core::IdlePolicy defaults;
    m_idlePercent->setObjectName(u"idlePercent"_s);
    m_idlePercent->setRange(1, 99);
    m_idlePercent->setValue(defaults.thresholdPercent);
    m_idlePercent->setSuffix(u" %"_s);
    m_idleMinutes->setObjectName(u"idleMinutes"_s);
    m_idleMinutes->setRange(5, 24 * 60);
    m_idleMinutes->setValue(defaults.windowSeconds / 60);
    m_idleNoConnections->setObjectName(u"idleNoConnections"_s);
    m_idleNoConnections->setChecked(defaults.requireNoConnections);
    m_idleNote->setWordWrap(true);

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto *timeRow = new QHBoxLayout;
    timeRow->addWidget(m_timeRule);
    timeRow->addWidget(m_stopAt);
    timeRow->addWidget(m_afterHours);
    timeRow->addStretch(1);
    grid->addLayout(timeRow, 0, 0, 1, 2);
    grid->addWidget(m_costOn, 1, 0);
    grid->addWidget(m_maxCost, 1, 1, Qt::AlignLeft);
    auto *idleRow = new QHBoxLayout;
    idleRow->addWidget(m_idlePercent);
    idleRow->addWidget(m_idleMinutes);
    idleRow->addStretch(1);
    grid->addWidget(m_idleOn, 2, 0);
    grid->addLayout(idleRow, 2, 1);
    grid->addWidget(m_idleNoConnections, 3, 1);
    grid->addWidget(m_idleNote, 4, 0, 1, 2);

    for (QCheckBox *box : {m_costOn, m_idleOn, m_idleNoConnections})
        connect(box, &QCheckBox::toggled, this, [this] {
            updateEnabled();
            Q_EMIT changed();
        });
    connect(m_timeRule, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    connect(m_stopAt, &QDateTimeEdit::dateTimeChanged, this, &StopPolicyEditor::changed);
    // Every keystroke, also one that leaves no value (the spin box says nothing then): what is
    // typed but not a value is refused by problem(), never silently replaced by the last
    // value when the field is left.
    connect(m_afterHours->findChild<QLineEdit *>(), &QLineEdit::textChanged, this,
            &StopPolicyEditor::changed);
    connect(m_maxCost, &QDoubleSpinBox::valueChanged, this, &StopPolicyEditor::changed);
    connect(m_idlePercent, &QSpinBox::valueChanged, this, &StopPolicyEditor::changed);
    connect(m_idleMinutes, &QSpinBox::valueChanged, this, &StopPolicyEditor::changed);
    retranslate();
    updateEnabled();
}

core::StopPolicy StopPolicyEditor::policy(const QDateTime &now) const
{
    core::StopPolicy p;
    switch (TimeRule(m_timeRule->currentData().toInt())) {
    case TimeRule::None:
        break;
    case TimeRule::At:
        p.stopAt = m_stopAt->instant();
        break;
    case TimeRule::After:
        p.stopAt = now.toUTC().addMSecs(qint64(std::llround(m_afterHours->value() * kMsPerHour)));
        break;
    }
    if (m_costOn->isChecked())
        p.maxCostMicros = qint64(std::llround(m_maxCost->value() * kMicrosPerYuan));
    if (m_idleOn->isChecked()) {
        core::IdlePolicy idle;
        idle.thresholdPercent = m_idlePercent->value();
        idle.windowSeconds = m_idleMinutes->value() * 60;
        idle.requireNoConnections = m_idleNoConnections->isChecked();
        p.idle = idle;
    }
    return p;
}

void StopPolicyEditor::setTimeZone(const QTimeZone &zone)
{
    m_stopAt->setZone(zone);
}

void StopPolicyEditor::setPolicy(const core::StopPolicy &policy, const QDateTime &now)
{
    m_timeRule->setCurrentIndex(
        m_timeRule->findData(int(policy.stopAt.isValid() ? TimeRule::At : TimeRule::None)));
    m_stopAt->setInstant(policy.stopAt.isValid() ? policy.stopAt : now.addSecs(2 * 3600));
    m_costOn->setChecked(policy.maxCostMicros.has_value());
    if (policy.maxCostMicros)
        m_maxCost->setValue(double(*policy.maxCostMicros) / kMicrosPerYuan);
    m_idleOn->setChecked(policy.idle.has_value());
    if (policy.idle) {
        m_idlePercent->setValue(policy.idle->thresholdPercent);
        m_idleMinutes->setValue(policy.idle->windowSeconds / 60);
        m_idleNoConnections->setChecked(policy.idle->requireNoConnections);
    }
    updateEnabled();
}

QString StopPolicyEditor::problem(const QDateTime &now) const
{
    if (TimeRule(m_timeRule->currentData().toInt()) == TimeRule::After
        && !m_afterHours->hasAcceptableInput()) {
        const QLocale locale = m_afterHours->locale();
        return tr("Stop after: enter a number of hours from %1 to %2, e.g. %3.")
            .arg(locale.toString(kLeastAfterHours, 'f', 2),
                 locale.toString(kMostAfterHours, 'f', 0), locale.toString(0.1, 'f', 1));
    }
    const core::StopPolicy p = policy(now);
    if (p.stopAt.isValid() && p.stopAt <= now)
        return tr("The stop time has passed: choose a later one.");
    return {};
}

QString StopPolicyEditor::summary(const QDateTime &now) const
{
    const core::StopPolicy p = policy(now);
    QStringList parts;
    if (p.stopAt.isValid())
        parts << tr("at %1").arg(Format::dateTime(p.stopAt, m_stopAt->zone()));
    if (p.maxCostMicros)
        parts << tr("when it has cost %1").arg(Format::money(*p.maxCostMicros));
    if (p.idle && p.idle->requireNoConnections)
        parts << tr("when its cards stay under %1 % for %n min with no connection open", nullptr,
                    p.idle->windowSeconds / 60)
                     .arg(p.idle->thresholdPercent);
    else if (p.idle)
        parts << tr("when its cards stay under %1 % for %n min", nullptr,
                    p.idle->windowSeconds / 60)
                     .arg(p.idle->thresholdPercent);
    return parts.isEmpty() ? QString()
                           : tr("Stops by itself %1.").arg(QLocale().createSeparatedList(parts));
}

void StopPolicyEditor::retranslate()
{
    m_timeRule->setItemText(0, tr("No stop time"));
    m_timeRule->setItemText(1, tr("Stop at"));
    m_timeRule->setItemText(2, tr("Stop after"));
    m_afterHours->setSuffix(tr(" h"));
    m_costOn->setText(tr("Stop when it has cost"));
    m_idleOn->setText(tr("Stop when idle: cards under"));
    m_idlePercent->setToolTip(tr("Utilisation of every card stays under this"));
    m_idleMinutes->setPrefix(tr("for "));
    m_idleMinutes->setSuffix(tr(" min"));
    m_idleNoConnections->setText(tr("Only while no SSH session or app connection is open"));
    m_idleNoConnections->setToolTip(
        tr("An open terminal, file transfer or app tab then keeps the host running"));
    m_idleNote->setText(tr("The provider keeps these, also while this computer sleeps, and warns "
                           "before an idle stop so that you can keep the host running. A running "
                           "job counts as load; an open notebook tab with nothing running does "
                           "not."));
}

void StopPolicyEditor::updateEnabled()
{
    const auto rule = TimeRule(m_timeRule->currentData().toInt());
    m_stopAt->setVisible(rule == TimeRule::At);
    m_afterHours->setVisible(rule == TimeRule::After);
    m_maxCost->setEnabled(m_costOn->isChecked());
    m_idlePercent->setEnabled(m_idleOn->isChecked());
    m_idleMinutes->setEnabled(m_idleOn->isChecked());
    m_idleNoConnections->setEnabled(m_idleOn->isChecked());
}

void StopPolicyEditor::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
