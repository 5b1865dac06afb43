#pragma once

#include <QGroupBox>

class QCheckBox;
class QLabel;
class QRadioButton;

namespace cardhour::core {
struct GpuType;
}

namespace cardhour::ui {

// The launch's price class: on demand, or the cheaper interruptible class the provider may stop
// with a notice when it needs the cards back (with the choice to start it again once they are
// free). Both prices are the catalog's, per card-hour, for the GPU type chosen.
class PriceClassChooser : public QGroupBox
{
    Q_OBJECT
public:
    explicit PriceClassChooser(QWidget *parent = nullptr);

    // The prices and notice of `gpu`; none (nullptr): the choice waits for a type.
    void setGpu(const core::GpuType *gpu);
    bool interruptible() const;
    bool restartWhenAvailable() const;
    // The per-card price of the chosen class.
    static qint64 cardPrice(const core::GpuType &gpu, bool interruptible);

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QRadioButton *m_onDemand;
    QRadioButton *m_interruptible;
    QLabel *m_note;
    QCheckBox *m_restart;
    qint64 m_onDemandPrice = -1; // per card-hour; -1: no type chosen
    qint64 m_interruptiblePrice = -1;
    int m_noticeSeconds = 0;
};

} // namespace cardhour::ui
