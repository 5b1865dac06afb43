#include "SpendingLimitsPanel.h"

#include "Format.h"
#include "billing/CostComparison.h"
#include "billing/Money.h"
#include "session/ClientSession.h"
#include "theme/Design.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimeZone>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::SpendingLimitChange;
using core::SpendingLimits;
using core::SpendingLimitsChange;
using core::SpendingPeriod;

namespace {

QString fieldText(const std::optional<qint64> &micros)
{
    return micros ? Format::moneyInput(*micros) : QString();
}

} // namespace

SpendingLimitsPanel::SpendingLimitsPanel(core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_zone(new QLabel(this)), m_status(new QLabel(this)),
      m_save(new QPushButton(this)), m_reload(new QPushButton(this))
{
    setObjectName(u"spendingLimitsPanel"_s);
    m_zone->setObjectName(u"limitsZone"_s);
    m_status->setObjectName(u"limitsStatus"_s);
    m_save->setObjectName(u"limitsSaveButton"_s);
    Design::setPrimary(m_save);
    m_status->setWordWrap(true);
    auto *grid = new QGridLayout;
    for (int c = 0; c < 5; ++c) {
        auto *header = new QLabel(this);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        m_headers.append(header);
        grid->addWidget(header, 0, c);
    }
    int r = 1;
    for (const QString &period : {u"day"_s, u"month"_s, u"total"_s}) {
        Row row;
        row.period = period;
        row.name = new QLabel(this);
        row.spent = new QLabel(this);
        row.spent->setObjectName(u"limitsSpent_"_s + period);
        row.alert = new QLineEdit(this);
        row.alert->setObjectName(u"limitsAlert_"_s + period);
        row.max = new QLineEdit(this);
        row.max->setObjectName(u"limitsMax_"_s + period);
        row.window = new QLabel(this);
        grid->addWidget(row.name, r, 0);
        grid->addWidget(row.spent, r, 1);
        grid->addWidget(row.alert, r, 2);
        grid->addWidget(row.max, r, 3);
        grid->addWidget(row.window, r, 4);
        connect(row.alert, &QLineEdit::returnPressed, this, &SpendingLimitsPanel::save);
        connect(row.max, &QLineEdit::returnPressed, this, &SpendingLimitsPanel::save);
        m_rows.append(row);
        ++r;
    }
    grid->setColumnStretch(4, 1);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_reload);
    buttons->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_zone);
    layout->addLayout(grid);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_save, &QPushButton::clicked, this, &SpendingLimitsPanel::save);
    connect(m_reload, &QPushButton::clicked, this, &SpendingLimitsPanel::reload);
    // What is spent moves with the bill (the `spending_limits` event comes only when a limit or
    // an alert changes): asked again while someone looks at it.
    if (m_session)
        connect(m_session, &core::ClientSession::billMoved, this, [this] {
            if (isVisible() && m_session->isLoggedIn())
                reload();
        });
    retranslate();
}

void SpendingLimitsPanel::reload()
{
    if (!m_session)
        return;
    if (m_loading) {
        m_reloadAgain = true;
        return;
    }
    m_loading = true;
    m_session->spendingLimits()->onFinished(this, [this](const core::Reply<SpendingLimits> &r) {
        m_loading = false;
        if (m_reloadAgain) {
            m_reloadAgain = false;
            reload();
        }
        if (r.ok())
            setLimits(r.value());
        else
            m_status->setText(
                tr("The spending limits could not be loaded: %1").arg(r.error().userMessage()));
    });
}

void SpendingLimitsPanel::setLimits(const SpendingLimits &limits)
{
    m_limits = limits;
    showRows();
    Q_EMIT limitsChanged(limits);
}

void SpendingLimitsPanel::showRows()
{
    if (!m_limits) {
        m_zone->setText(tr("The provider's spending limits have not been loaded yet."));
        return;
    }
    m_zone->setText(
        tr("Days and months are counted in the provider's time zone, %1.").arg(m_limits->timeZone));
    const QTimeZone zone(m_limits->timeZone.toUtf8());
    for (Row &row : m_rows) {
        const std::optional<SpendingPeriod> p = m_limits->period(row.period);
        if (!p)
            continue;
        row.spent->setText(spentText(*p));
        // A field the user is typing in keeps what they typed.
        if (!row.alert->isModified())
            row.alert->setText(fieldText(p->alertMicros));
        if (!row.max->isModified())
            row.max->setText(fieldText(p->maxMicros));
        row.window->setText(
            p->endsAt.isValid()
                ? tr("%1 to %2")
                      .arg(Format::dateTime(p->startsAt, zone), Format::dateTime(p->endsAt, zone))
                : tr("since %1").arg(Format::dateTime(p->startsAt, zone)));
    }
}

QString SpendingLimitsPanel::spentText(const SpendingPeriod &p)
{
    QString text;
    if (!p.maxMicros) {
        text = tr("%1, no maximum").arg(Format::money(p.spentMicros));
    } else {
        const qint64 permille = *p.maxMicros > 0
            ? core::mulDivRounded(p.spentMicros, 1000, *p.maxMicros).value_or(0)
            : 1000;
        text = tr("%1 of %2 (%3.%4 %)")
                   .arg(Format::money(p.spentMicros), Format::money(*p.maxMicros))
                   .arg(permille / 10)
                   .arg(permille % 10);
    }
    if (p.alerted)
        text += tr("; alert amount reached");
    return text;
}

std::optional<SpendingLimitsChange> SpendingLimitsPanel::change(QString *problem) const
{
    SpendingLimitsChange change;
    for (const Row &row : m_rows) {
        const std::optional<SpendingPeriod> current =
            m_limits ? m_limits->period(row.period) : std::nullopt;
        SpendingLimitChange c;
        std::optional<qint64> values[2];
        QLineEdit *edits[2] = {row.alert, row.max};
        for (int i = 0; i < 2; ++i) {
            const QString text = edits[i]->text().trimmed();
            if (text.isEmpty())
                continue;
            values[i] = core::Money::parseYuan(text, 2);
            if (!values[i]) {
                if (problem)
                    *problem =
                        tr("%1, %2: enter an amount in yuan (e.g. 50 or 12.50), or "
                           "leave it empty for none.")
                            .arg(periodName(row.period), i == 0 ? tr("alert") : tr("maximum"));
                return std::nullopt;
            }
        }
        if (values[0] && values[1] && *values[0] > *values[1]) {
            if (problem)
                *problem =
                    tr("%1: the alert amount is above the maximum.").arg(periodName(row.period));
            return std::nullopt;
        }
        if (!current || current->alertMicros != values[0]) {
            c.setAlert = true;
            c.alertMicros = values[0];
        }
        if (!current || current->maxMicros != values[1]) {
            c.setMax = true;
            c.maxMicros = values[1];
        }
        if (!c.setAlert && !c.setMax)
            continue;
        if (row.period == u"day"_s)
            change.day = c;
        else if (row.period == u"month"_s)
            change.month = c;
        else
            change.total = c;
    }
    return change;
}

void SpendingLimitsPanel::save()
{
    QString problem;
    const std::optional<SpendingLimitsChange> wanted = change(&problem);
    if (!wanted) {
        m_status->setText(problem);
        return;
    }
    if (!wanted->day && !wanted->month && !wanted->total) {
        m_status->setText(tr("Nothing to save."));
        return;
    }
    if (!m_session)
        return;
    m_save->setEnabled(false);
    m_session->setSpendingLimits(*wanted)->onFinished(
        this, [this](const core::Reply<SpendingLimits> &r) {
            m_save->setEnabled(true);
            if (!r.ok()) {
                m_status->setText(tr("Not saved: %1").arg(r.error().userMessage()));
                return;
            }
            for (Row &row : m_rows) {
                row.alert->setModified(false);
                row.max->setModified(false);
            }
            setLimits(r.value());
            m_status->setText(tr("Saved. The provider applies the limits at once."));
        });
}

QString SpendingLimitsPanel::periodName(const QString &period)
{
    if (period == u"day"_s)
        return tr("Today");
    if (period == u"month"_s)
        return tr("This month");
    if (period == u"total"_s)
        return tr("In total");
    return period;
}

void SpendingLimitsPanel::retranslate()
{
    const QStringList headers{tr("Period"), tr("Spent"), tr("Alert at (yuan)"),
                              tr("Maximum (yuan)"), tr("From – to")};
    for (int i = 0; i < m_headers.size(); ++i)
        m_headers[i]->setText(headers.at(i));
    for (Row &row : m_rows) {
        row.name->setText(periodName(row.period));
        row.alert->setPlaceholderText(tr("none"));
        row.max->setPlaceholderText(tr("none"));
    }
    m_save->setText(tr("Save limits"));
    m_reload->setText(tr("Reload"));
    showRows();
}

void SpendingLimitsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_session && m_session->isLoggedIn())
        reload(); // what has been spent since it was last shown
}

void SpendingLimitsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
