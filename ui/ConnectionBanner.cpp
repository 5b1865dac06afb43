#include "ConnectionBanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

ConnectionBanner::ConnectionBanner(QWidget *parent)
    : QFrame(parent), m_label(new QLabel(this)), m_retry(new QPushButton(this))
{
    setObjectName(u"connectionBanner"_s);
    m_label->setObjectName(u"connectionBannerText"_s);
    m_retry->setObjectName(u"retryButton"_s);
    m_label->setWordWrap(true);
    setAutoFillBackground(true);
    // A warning colour that reads on light and dark themes alike.
    setStyleSheet(
        u"#connectionBanner { background: #8a5a00; } #connectionBanner QLabel { color: white; }"_s);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_retry);
    connect(m_retry, &QPushButton::clicked, this, &ConnectionBanner::retryRequested);
    retranslate();
    hide();
}

void ConnectionBanner::showProblem(const QString &reason)
{
    m_reason = reason;
    m_slowMs = 0;
    retranslate();
    show();
}

void ConnectionBanner::showSlow(qint64 elapsedMs)
{
    if (isVisible() && m_slowMs == 0)
        return; // cannot be reached: that says more
    m_slowMs = elapsedMs;
    retranslate();
    show();
}

void ConnectionBanner::clearSlow()
{
    if (m_slowMs == 0)
        return;
    m_slowMs = 0;
    hide();
}

void ConnectionBanner::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QFrame::changeEvent(event);
}

void ConnectionBanner::retranslate()
{
    m_retry->setText(tr("Retry"));
    m_retry->setVisible(m_slowMs == 0);
    if (m_slowMs > 0) {
        m_label->setText(tr("The provider is answering slowly: its last answer took %1 s.")
                             .arg(QLocale().toString(double(m_slowMs) / 1000.0, 'f', 1)));
        return;
    }
    const QString head =
        tr("The provider cannot be reached; reconnecting. What you see may be out of date.");
    m_label->setText(m_reason.isEmpty() ? head : head + u' ' + tr("(%1)").arg(m_reason));
}

} // namespace cardhour::ui
