#include "CostCalculator.h"

#include "Format.h"
#include "billing/Money.h"
#include "charts/CostChart.h"
#include "session/ClientSession.h"
#include "theme/Design.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::CostComparison;
using core::CostInputs;
using core::Money;

namespace {

constexpr int kUsageDays = 30;

QString yuanText(qint64 micros)
{
    // What the field shows: the amount without the symbol, every digit it has.
    return Format::moneyInput(micros);
}

// "12.50": card-seconds as card-hours with two decimals, cut from the integer.
QString cardHoursText(qint64 cardSeconds)
{
    return u"%1.%2"_s.arg(cardSeconds / 3600)
        .arg((cardSeconds % 3600) * 100 / 3600, 2, 10, QChar(u'0'));
}

// "58.2 %" from tenths of a percent.
QString percentText(qint64 permille)
{
    const qint64 magnitude = permille < 0 ? -permille : permille;
    return u"%1.%2 %"_s.arg(magnitude / 10).arg(magnitude % 10);
}

QString savingSentence(const std::optional<qint64> &permille, const QString &versus)
{
    if (!permille)
        return {};
    if (*permille > 0)
        return CostCalculator::tr("This provider costs %1 less than %2.")
            .arg(percentText(*permille), versus);
    if (*permille < 0)
        return CostCalculator::tr("This provider costs %1 more than %2.")
            .arg(percentText(*permille), versus);
    return CostCalculator::tr("This provider costs the same as %1.").arg(versus);
}

} // namespace

CostCalculator::CostCalculator(core::ClientSession *session, const CostInputs &inputs,
                               const Job &job, QWidget *parent)
    : QWidget(parent), m_session(session), m_cardPrice(new QLineEdit(this)),
      m_upkeep(new QLineEdit(this)), m_years(new QSpinBox(this)), m_cloudPrice(new QLineEdit(this)),
      m_gpuType(new QComboBox(this)), m_cards(new QSpinBox(this)), m_hours(new QSpinBox(this)),
      m_inputError(new QLabel(this)), m_jobText(new QLabel(this)), m_jobChart(new CostChart(this)),
      m_usageText(new QLabel(this)), m_usageChart(new CostChart(this)), m_wantedType(job.gpuType)
{
    setObjectName(u"costCalculator"_s);
    m_cardPrice->setObjectName(u"costCardPrice"_s);
    m_upkeep->setObjectName(u"costUpkeep"_s);
    m_years->setObjectName(u"costYears"_s);
    m_cloudPrice->setObjectName(u"costCloudPrice"_s);
    m_gpuType->setObjectName(u"costGpuType"_s);
    m_cards->setObjectName(u"costCards"_s);
    m_hours->setObjectName(u"costHours"_s);
    m_inputError->setObjectName(u"costInputError"_s);
    m_jobText->setObjectName(u"costJobArithmetic"_s);
    m_jobChart->setObjectName(u"costJobChart"_s);
    m_usageText->setObjectName(u"costUsageArithmetic"_s);
    m_usageChart->setObjectName(u"costUsageChart"_s);

    m_cardPrice->setText(yuanText(inputs.cardPriceMicros));
    m_upkeep->setText(yuanText(inputs.upkeepPerYearMicros));
    m_cloudPrice->setText(yuanText(inputs.cloudPerCardHourMicros));
    m_years->setRange(1, 20);
    m_years->setValue(inputs.years);
    m_cards->setRange(1, 1024);
    m_cards->setValue(qBound(1, job.cards, 1024));
    m_hours->setRange(1, 1'000'000);
    m_hours->setValue(qBound(1, job.hours, 1'000'000));
    m_inputError->setWordWrap(true);
    Design::setTextTone(m_inputError, Tone::Error);
    m_inputError->hide();
    for (QLabel *text : {m_jobText, m_usageText}) {
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    }

    auto caption = [this](QWidget *buddy) {
        auto *label = new QLabel(this);
        label->setBuddy(buddy);
        m_captions.append(label);
        return label;
    };
    auto *own = new QGroupBox(this);
    own->setObjectName(u"costFiguresBox"_s);
    auto *ownForm = new QFormLayout(own);
    ownForm->addRow(caption(m_cardPrice), m_cardPrice);
    ownForm->addRow(caption(m_upkeep), m_upkeep);
    ownForm->addRow(caption(m_years), m_years);
    ownForm->addRow(caption(m_cloudPrice), m_cloudPrice);
    auto *planned = new QGroupBox(this);
    planned->setObjectName(u"costJobBox"_s);
    auto *jobForm = new QFormLayout(planned);
    jobForm->addRow(caption(m_gpuType), m_gpuType);
    jobForm->addRow(caption(m_cards), m_cards);
    jobForm->addRow(caption(m_hours), m_hours);

    auto *left = new QVBoxLayout;
    left->addWidget(own);
    left->addWidget(planned);
    left->addWidget(m_inputError);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_jobChart);
    right->addWidget(m_jobText);
    right->addSpacing(12);
    right->addWidget(m_usageChart);
    right->addWidget(m_usageText);
    right->addStretch(1);
    auto *layout = new QHBoxLayout(this);
    layout->addLayout(left, 2);
    layout->addLayout(right, 3);

    for (QLineEdit *edit : {m_cardPrice, m_upkeep, m_cloudPrice})
        connect(edit, &QLineEdit::textChanged, this, &CostCalculator::recompute);
    for (QSpinBox *spin : {m_years, m_cards, m_hours})
        connect(spin, &QSpinBox::valueChanged, this, &CostCalculator::recompute);
    connect(m_gpuType, &QComboBox::currentIndexChanged, this, &CostCalculator::recompute);
    retranslate();
}

void CostCalculator::reload()
{
    if (!m_session)
        return;
    m_session->gpuTypes()->onFinished(this, [this](const core::Reply<QList<core::GpuType>> &r) {
        if (r.ok())
            setGpuTypes(r.value());
        else
            m_jobText->setText(
                tr("The catalog could not be loaded: %1").arg(r.error().userMessage()));
    });
    m_session->fetchInstances(true)->onFinished(
        this, [this](const core::Reply<QList<core::Instance>> &r) {
            if (r.ok())
                setInstances(r.value());
        });
}

void CostCalculator::setGpuTypes(const QList<core::GpuType> &types)
{
    const QString chosen =
        m_gpuType->count() > 0 ? m_gpuType->currentData().toString() : m_wantedType;
    m_types = types;
    {
        QSignalBlocker block(m_gpuType);
        m_gpuType->clear();
        for (const core::GpuType &t : types)
            m_gpuType->addItem(
                tr("%1, %2 per card-hour").arg(t.name, Format::exactMoney(t.pricePerHourMicros)),
                t.id);
        m_gpuType->setCurrentIndex(qMax(0, m_gpuType->findData(chosen)));
    }
    recompute();
}

void CostCalculator::setInstances(const QList<core::Instance> &instances)
{
    for (const core::Instance &i : instances)
        m_cardsByInstance.insert(i.id, i.gpuCount);
    recompute();
}

void CostCalculator::setPostings(const QList<core::Posting> &postings)
{
    m_postings = postings;
    recompute();
}

std::optional<CostInputs> CostCalculator::inputs() const
{
    CostInputs in;
    const auto card = Money::parseYuan(m_cardPrice->text(), 2);
    const auto upkeep = Money::parseYuan(m_upkeep->text(), 2);
    const auto cloud = Money::parseYuan(m_cloudPrice->text(), 6);
    if (!card || !upkeep || !cloud)
        return std::nullopt;
    in.cardPriceMicros = *card;
    in.upkeepPerYearMicros = *upkeep;
    in.cloudPerCardHourMicros = *cloud;
    in.years = m_years->value();
    if (!in.isValid())
        return std::nullopt;
    return in;
}

CostCalculator::Job CostCalculator::job() const
{
    return Job{m_gpuType->count() > 0 ? m_gpuType->currentData().toString() : m_wantedType,
               m_cards->value(), m_hours->value()};
}

const core::GpuType *CostCalculator::chosenType() const
{
    const QString id = m_gpuType->currentData().toString();
    for (const core::GpuType &t : m_types) {
        if (t.id == id)
            return &t;
    }
    return nullptr;
}

void CostCalculator::recompute()
{
    // Name the first field that is not a figure; its text stays as typed.
    QString problem;
    if (!Money::parseYuan(m_cardPrice->text(), 2).value_or(0))
        problem = tr("Card price: enter a positive amount in yuan, e.g. 13500.");
    else if (!Money::parseYuan(m_upkeep->text(), 2))
        problem = tr("Power and upkeep: enter an amount in yuan per year, e.g. 4500.");
    else if (!Money::parseYuan(m_cloudPrice->text(), 6).value_or(0))
        problem = tr("Public cloud price: enter a positive amount in yuan per card-hour, e.g. "
                     "4.55.");
    const std::optional<CostInputs> in = problem.isEmpty() ? inputs() : std::nullopt;
    if (!in && problem.isEmpty())
        problem = tr("These figures are too large to compare.");
    m_inputError->setText(problem);
    m_inputError->setVisible(!problem.isEmpty());

    const core::GpuType *type = chosenType();
    m_job = in && type
        ? CostComparison::forJob(*in, type->pricePerHourMicros, m_cards->value(), m_hours->value())
        : std::nullopt;
    QDateTime to = QDateTime::currentDateTimeUtc();
    for (const core::Posting &p : std::as_const(m_postings)) {
        if (p.periodEnd.isValid() && p.periodEnd >= to)
            to = p.periodEnd.addMSecs(1); // the provider's clock runs ahead (a test clock)
    }
    m_usageFrom = to.addDays(-kUsageDays);
    m_ledgerUsage = core::LedgerUsage::fromLedger(
        m_postings, m_usageFrom, to, [this](const QString &id) -> std::optional<int> {
            const auto it = m_cardsByInstance.constFind(id);
            return it == m_cardsByInstance.constEnd() ? std::nullopt : std::optional<int>(*it);
        });
    m_usage = in
        ? CostComparison::forUsage(*in, m_ledgerUsage.cardSeconds, m_ledgerUsage.chargedMicros)
        : std::nullopt;

    auto bars = [this](const CostComparison &c, const QString &provider) {
        return QList<CostChart::Bar>{
            {provider, c.providerMicros, Format::money(c.providerMicros)},
            {tr("Public cloud"), c.cloudMicros, Format::money(c.cloudMicros)},
            {tr("Own cards (share)"), c.ownShareMicros, Format::money(c.ownShareMicros)}};
    };
    m_jobChart->setBars(m_job ? bars(*m_job, tr("This provider")) : QList<CostChart::Bar>{});
    m_usageChart->setBars(m_usage && m_ledgerUsage.cardSeconds > 0
                              ? bars(*m_usage, tr("This provider (charged)"))
                              : QList<CostChart::Bar>{});
    m_jobText->setText(jobArithmetic());
    m_usageText->setText(usageArithmetic());
    if (in)
        Q_EMIT inputsEdited(*in, job());
}

QString CostCalculator::jobArithmetic() const
{
    const core::GpuType *type = chosenType();
    const std::optional<CostInputs> in = inputs();
    if (!m_job || !type || !in)
        return type ? QString() : tr("The catalog has not been loaded yet.");
    const CostComparison &c = *m_job;
    const QString cardHours = cardHoursText(c.cardSeconds);
    const qint64 ownPerCardHour =
        core::mulDivRounded(in->ownCardTotalMicros(), 1, in->ownCardHours()).value_or(0);
    QStringList lines{
        tr("%1 h × %2 cards = %3 card-hours.").arg(m_hours->value()).arg(c.cards).arg(cardHours),
        tr("This provider (%1, %2 per card-hour): %3 × %2 = %4.")
            .arg(type->name, Format::exactMoney(type->pricePerHourMicros), cardHours,
                 Format::exactMoney(c.providerMicros)),
        tr("Public cloud: %1 × %2 = %3.")
            .arg(cardHours, Format::exactMoney(in->cloudPerCardHourMicros),
                 Format::exactMoney(c.cloudMicros)),
        tr("Own cards: (%1 + %2 × %3 years) ÷ %4 h = %5 per card-hour when busy all %3 years; "
           "%6 × that = %7. Buying the %8 cards costs %9 up front.")
            .arg(Format::exactMoney(in->cardPriceMicros),
                 Format::exactMoney(in->upkeepPerYearMicros), QString::number(in->years),
                 QString::number(in->ownCardHours()), Format::exactMoney(ownPerCardHour), cardHours,
                 Format::exactMoney(c.ownShareMicros), QString::number(c.cards),
                 Format::exactMoney(c.ownOutlayMicros)),
        savingSentence(c.savingPermilleVsCloud(), tr("the public cloud")),
        savingSentence(c.savingPermilleVsOwn(), tr("owned cards kept busy")),
    };
    lines.removeAll(QString());
    return lines.join(u'\n');
}

QString CostCalculator::usageArithmetic() const
{
    const core::LedgerUsage &u = m_ledgerUsage;
    QStringList lines;
    lines.append(tr("Your last %1 days (compute billed since %2):")
                     .arg(kUsageDays)
                     .arg(Format::dateTime(m_usageFrom,
                                           m_session ? m_session->timeZone() : QTimeZone::utc())));
    if (u.postings == 0) {
        lines.append(tr("No compute in this time."));
    } else if (m_usage) {
        const QString cardHours = cardHoursText(u.cardSeconds);
        lines.append(tr("Compute postings: %1. Card-hours: %2. This provider charged %3.")
                         .arg(u.postings)
                         .arg(cardHours, Format::exactMoney(u.chargedMicros)));
        lines.append(tr("Public cloud: %1 × %2 = %3.")
                         .arg(cardHours, Format::exactMoney(inputs()->cloudPerCardHourMicros),
                              Format::exactMoney(m_usage->cloudMicros)));
        lines.append(tr("Own cards' share: %1.").arg(Format::exactMoney(m_usage->ownShareMicros)));
        lines.append(savingSentence(m_usage->savingPermilleVsCloud(), tr("the public cloud")));
    }
    if (u.leftOutPostings > 0)
        lines.append(tr("%1 postings (%2) of hosts whose size is no longer known are left out.")
                         .arg(u.leftOutPostings)
                         .arg(Format::exactMoney(u.leftOutMicros)));
    lines.removeAll(QString());
    return lines.join(u'\n');
}

void CostCalculator::retranslate()
{
    const QStringList captions{tr("Card &price (yuan):"),
                               tr("Power and &upkeep per year:"),
                               tr("&Years written off:"),
                               tr("Public c&loud per card-hour:"),
                               tr("&GPU type:"),
                               tr("&Cards:"),
                               tr("&Hours:")};
    for (int i = 0; i < m_captions.size() && i < captions.size(); ++i)
        m_captions[i]->setText(captions.at(i));
    if (auto *box = findChild<QGroupBox *>(u"costFiguresBox"_s))
        box->setTitle(tr("Owning a card and a public cloud"));
    if (auto *box = findChild<QGroupBox *>(u"costJobBox"_s))
        box->setTitle(tr("Planned job"));
    m_hours->setSuffix(tr(" h"));
    m_jobChart->setTitle(tr("The planned job"));
    m_jobChart->setPlaceholder(tr("Enter the figures and choose a GPU type."));
    m_usageChart->setTitle(tr("Your last %1 days").arg(kUsageDays));
    m_usageChart->setPlaceholder(tr("No compute in the last %1 days.").arg(kUsageDays));
    setGpuTypes(m_types);
}

void CostCalculator::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
