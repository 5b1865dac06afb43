#pragma once

#include "api/SpendingModels.h"

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

// The Billing page's spending limits: for the day, the calendar month (in the provider's time
// zone, named) and in total, what has been spent against the alert amount and the hard maximum,
// and both edited (empty: none). It shows what the provider last said (GET, the PUT's answer or
// the `spending_limits` event); a field being edited is left alone until it is saved. While it is
// shown it asks again whenever the provider's bill moves, so what has been spent is current.
class SpendingLimitsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SpendingLimitsPanel(core::ClientSession *session, QWidget *parent = nullptr);

    void reload();
    void setLimits(const core::SpendingLimits &limits);
    const std::optional<core::SpendingLimits> &limits() const { return m_limits; }
    // What the fields ask to change; unset with `problem` in words when one is not an amount
    // or an alert is above its maximum.
    std::optional<core::SpendingLimitsChange> change(QString *problem) const;
    // Sends change() (nothing when it is empty or invalid).
    void save();

    static QString periodName(const QString &period);
    // "¥3.80 of ¥50.00 (7.6 %)", "¥3.80, no maximum".
    static QString spentText(const core::SpendingPeriod &period);

Q_SIGNALS:
    void limitsChanged(const cardhour::core::SpendingLimits &limits);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    struct Row
    {
        QString period;
        QLabel *name = nullptr;
        QLabel *spent = nullptr;
        QLineEdit *alert = nullptr;
        QLineEdit *max = nullptr;
        QLabel *window = nullptr;
    };
    void retranslate();
    void showRows();

    core::ClientSession *m_session;
    QList<Row> m_rows;
    QList<QLabel *> m_headers;
    QLabel *m_zone;
    QLabel *m_status;
    QPushButton *m_save;
    QPushButton *m_reload;
    std::optional<core::SpendingLimits> m_limits;
    bool m_loading = false; // a GET is on its way
    bool m_reloadAgain = false; // the bill moved while it was: ask once more when it answers
};

} // namespace cardhour::ui
