#include "GpuSlicePicker.h"

#include "Format.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QStandardItemModel>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::GpuType;

GpuSlicePicker::GpuSlicePicker(QWidget *parent)
    : QWidget(parent), m_whole(new QRadioButton(this)), m_slice(new QRadioButton(this)),
      m_slices(new QComboBox(this))
{
    setObjectName(u"gpuSlicePicker"_s);
    m_whole->setObjectName(u"wholeCardButton"_s);
    m_slice->setObjectName(u"sliceButton"_s);
    m_slices->setObjectName(u"sliceCombo"_s);
    m_whole->setText(tr("&Whole card"));
    m_slice->setText(tr("MIG &slice:"));
    m_slices->setAccessibleName(tr("MIG slice of the card"));
    // Narrow enough for the narrow dialog: the popup still shows each slice whole.
    m_slices->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_slices->setMinimumContentsLength(16);
    m_slices->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto *group = new QButtonGroup(this);
    group->addButton(m_whole);
    group->addButton(m_slice);
    m_whole->setChecked(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(tr("Rent:"), this);
    layout->addWidget(label);
    layout->addWidget(m_whole);
    layout->addWidget(m_slice);
    layout->addWidget(m_slices, 1);
    connect(m_whole, &QRadioButton::toggled, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    connect(m_slices, &QComboBox::currentIndexChanged, this, [this] {
        if (m_slice->isChecked())
            Q_EMIT changed();
    });
    hide();
}

QString GpuSlicePicker::offerLine(const QString &cardId, const QList<GpuType> &catalog)
{
    qint64 cheapest = -1;
    for (const GpuType &gpu : catalog)
        if (gpu.sliceOf == cardId && (cheapest < 0 || gpu.pricePerHourMicros < cheapest))
            cheapest = gpu.pricePerHourMicros;
    //: a card also rented in MIG slices, from the cheapest slice's price per hour
    return cheapest < 0 ? QString()
                        : tr("or MIG slices from %1").arg(Format::ratePerHour(cheapest));
}

bool GpuSlicePicker::anyFree(const QString &cardId, const QList<GpuType> &catalog)
{
    return std::any_of(catalog.cbegin(), catalog.cend(), [&cardId](const GpuType &gpu) {
        return gpu.sliceOf == cardId && gpu.available > 0;
    });
}

void GpuSlicePicker::setCard(const GpuType *card, const QList<GpuType> &catalog)
{
    const QString previous =
        m_cardId == (card ? card->id : QString()) ? chosenSliceId() : QString();
    const bool wasSlice = m_slice->isChecked() && !previous.isEmpty();
    m_cardId = card ? card->id : QString();
    m_wholeFree = card && card->available > 0;
    QSignalBlocker blockCombo(m_slices);
    QSignalBlocker blockWhole(m_whole);
    m_slices->clear();
    int firstFree = -1;
    for (const GpuType &gpu : catalog) {
        if (!card || gpu.sliceOf != card->id)
            continue;
        //: one MIG slice: profile, VRAM, share of the card's SMs, price per hour, free count
        const QString text = tr("%1  ·  %2 GiB VRAM  ·  %3/%4 of the SMs  ·  %5  ·  %6 free")
                                 .arg(gpu.migProfile)
                                 .arg((gpu.vramMib + 512) / 1024)
                                 .arg(gpu.computeSlices)
                                 .arg(gpu.cardComputeSlices)
                                 .arg(Format::ratePerHour(gpu.pricePerHourMicros))
                                 .arg(gpu.available);
        m_slices->addItem(text, gpu.id);
        const int row = m_slices->count() - 1;
        m_slices->setItemData(row, gpu.description, Qt::ToolTipRole);
        if (gpu.available <= 0) {
            if (auto *model = qobject_cast<QStandardItemModel *>(m_slices->model()))
                model->item(row)->setEnabled(false);
        } else if (firstFree < 0) {
            firstFree = row;
        }
    }
    setVisible(m_slices->count() > 0);
    const int keep = m_slices->findData(previous);
    m_slices->setCurrentIndex(keep >= 0 ? keep : qMax(0, firstFree));
    // No whole card free, but slices: the slice it is.
    const bool slice = m_slices->count() > 0 && (wasSlice || !m_wholeFree) && firstFree >= 0;
    (slice ? m_slice : m_whole)->setChecked(true);
    updateEnabled();
}

QString GpuSlicePicker::chosenSliceId() const
{
    if (isHidden()) // the card has no slices
        return {};
    return m_slice->isChecked() ? m_slices->currentData().toString() : QString();
}

void GpuSlicePicker::updateEnabled()
{
    m_whole->setEnabled(m_wholeFree);
    m_slices->setEnabled(m_slice->isChecked());
}

} // namespace cardhour::ui
