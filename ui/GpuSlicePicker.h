#pragma once

#include "api/Models.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QRadioButton;

namespace cardhour::ui {

// Below the launch dialog's GPU cards: the whole card or one of its MIG slices, for a card the
// provider also offers in slices (hidden otherwise). Each slice says its NVIDIA profile, its VRAM,
// its share of the card's SMs, its price per hour and how many are free, all from the catalog.
class GpuSlicePicker : public QWidget
{
    Q_OBJECT
public:
    explicit GpuSlicePicker(QWidget *parent = nullptr);

    // The card picked and the catalog (its slices are the types whose sliceOf is its id);
    // nullptr: none picked. Keeps the slice chosen when the same card is shown again.
    void setCard(const core::GpuType *card, const QList<core::GpuType> &catalog);
    // The slice type chosen; empty while the whole card is.
    QString chosenSliceId() const;
    // What a card's tile says of its slices, from the cheapest slice's price ("or MIG slices
    // from ¥1.071429/h"); empty for a card without slices.
    static QString offerLine(const QString &cardId, const QList<core::GpuType> &catalog);
    // Whether any slice of the card is free now.
    static bool anyFree(const QString &cardId, const QList<core::GpuType> &catalog);

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    QRadioButton *m_whole;
    QRadioButton *m_slice;
    QComboBox *m_slices;
    QString m_cardId;
    bool m_wholeFree = true;
};

} // namespace cardhour::ui
