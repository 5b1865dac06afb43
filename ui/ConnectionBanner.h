#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace cardhour::ui {

// The strip across the top of the main window while the provider cannot be reached (the event
// stream is down). It says why and offers Retry; the stream itself keeps reconnecting anyway,
// so the banner goes away by itself once the provider is back. It also says when the provider
// answers slowly (how long its last answer took), until an answer comes promptly again; a
// provider that cannot be reached is said first.
class ConnectionBanner : public QFrame
{
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget *parent = nullptr);

    // Shows the banner with the reason the connection was lost (as the core words it).
    void showProblem(const QString &reason);
    QString reason() const { return m_reason; }
    // The provider's last answer took this long (unless it cannot be reached at all).
    void showSlow(qint64 elapsedMs);
    // Answers are prompt again: hides a banner that said they were slow (not a lost one).
    void clearSlow();
    bool showsSlow() const { return isVisible() && m_slowMs > 0; }

Q_SIGNALS:
    void retryRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QLabel *m_label;
    QPushButton *m_retry;
    QString m_reason;
    qint64 m_slowMs = 0; // > 0: the banner says answers are slow, not that the provider is lost
};

} // namespace cardhour::ui
