#pragma once

#include "api/ApiError.h"
#include "api/Models.h"
#include "billing/CostComparison.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

class CostChart;

// The Billing page's cost comparison: own cards written off over some years, a public cloud's
// per-card-hour price and this provider's catalog price, for a planned job (GPU type, cards,
// hours) and for the compute the ledger shows in the last 30 days. The arithmetic is written
// out and drawn as bars. Inputs are checked as typed; a bad one is named and keeps its text.
class CostCalculator : public QWidget
{
    Q_OBJECT
public:
    struct Job
    {
        QString gpuType; // empty: the catalog's first
        int cards = 8;
        int hours = 198;
    };

    CostCalculator(core::ClientSession *session, const core::CostInputs &inputs, const Job &job,
                   QWidget *parent = nullptr);

    // Fetches the catalog and the instances (terminated ones too: their card counts).
    void reload();
    void setGpuTypes(const QList<core::GpuType> &types);
    void setInstances(const QList<core::Instance> &instances);
    void setPostings(const QList<core::Posting> &postings);

    // What the fields say now; unset while one of them is not a valid figure.
    std::optional<core::CostInputs> inputs() const;
    Job job() const;
    std::optional<core::CostComparison> jobComparison() const { return m_job; }
    std::optional<core::CostComparison> usageComparison() const { return m_usage; }
    QString jobArithmetic() const;
    QString usageArithmetic() const;

Q_SIGNALS:
    // A valid change of any input (to remember).
    void inputsEdited(const cardhour::core::CostInputs &inputs,
                      const cardhour::ui::CostCalculator::Job &job);

protected:
    void changeEvent(QEvent *event) override;

private:
    void recompute();
    void retranslate();
    const core::GpuType *chosenType() const;

    core::ClientSession *m_session;
    QLineEdit *m_cardPrice;
    QLineEdit *m_upkeep;
    QSpinBox *m_years;
    QLineEdit *m_cloudPrice;
    QComboBox *m_gpuType;
    QSpinBox *m_cards;
    QSpinBox *m_hours;
    QLabel *m_inputError;
    QLabel *m_jobText;
    CostChart *m_jobChart;
    QLabel *m_usageText;
    CostChart *m_usageChart;
    QList<QLabel *> m_captions;
    QList<core::GpuType> m_types;
    QHash<QString, int> m_cardsByInstance;
    QList<core::Posting> m_postings;
    QString m_wantedType;
    std::optional<core::CostComparison> m_job;
    std::optional<core::CostComparison> m_usage;
    core::LedgerUsage m_ledgerUsage;
    QDateTime m_usageFrom;
};

} // namespace cardhour::ui
