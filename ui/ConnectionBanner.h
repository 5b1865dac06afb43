#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace cardhour::ui {

// The strip across the top of the main window while the provider cannot be reached (the event
// stream is down). It says why and offers Retry; the stream itself keeps reconnecting anyway,
// so the banner goes away by itself once the provider is back.
class ConnectionBanner : public QFrame
{
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget *parent = nullptr);

    // Shows the banner with the reason the connection was lost (as the core words it).
    void showProblem(const QString &reason);
    QString reason() const { return m_reason; }

Q_SIGNALS:
    void retryRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QLabel *m_label;
    QPushButton *m_retry;
    QString m_reason;
};

} // namespace cardhour::ui
