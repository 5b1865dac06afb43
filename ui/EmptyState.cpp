#include "EmptyState.h"

#include "theme/Design.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

EmptyState::EmptyState(Icon icon, QWidget *parent)
    : QWidget(parent), m_icon(icon), m_iconLabel(new QLabel(this)), m_title(new QLabel(this)),
      m_text(new QLabel(this)), m_button(new QPushButton(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    m_iconLabel->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_iconLabel);
    Design::setTextRole(m_title, TextRole::Heading);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setObjectName(u"emptyTitle"_s);
    layout->addWidget(m_title);
    m_text->setAlignment(Qt::AlignCenter);
    m_text->setWordWrap(true);
    m_text->setObjectName(u"emptyText"_s);
    // A readable measure, centred: stretches either side (an alignment flag on a word-wrapped
    // label would lose its height-for-width and cut the text).
    m_text->setMaximumWidth(520);
    m_text->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    auto *textRow = new QHBoxLayout;
    textRow->addStretch(1);
    textRow->addWidget(m_text, 4);
    textRow->addStretch(1);
    layout->addLayout(textRow);
    m_button->setObjectName(u"emptyAction"_s);
    // The way out of an empty page is its primary action (the GNOME HIG's placeholder pages).
    Design::setPrimary(m_button);
    m_button->hide();
    layout->addWidget(m_button, 0, Qt::AlignHCenter);
    layout->addStretch(2);
    connect(m_button, &QPushButton::clicked, this, &EmptyState::actionTriggered);
    paintIcon();
}

void EmptyState::setTitle(const QString &title)
{
    m_title->setText(title);
    setAccessibleName(title);
}

void EmptyState::setText(const QString &text)
{
    m_text->setText(text);
    setAccessibleDescription(text);
}

void EmptyState::setIcon(Icon icon)
{
    m_icon = icon;
    paintIcon();
}

void EmptyState::setAction(const QString &label)
{
    m_button->setText(label);
    m_button->setVisible(!label.isEmpty());
}

QString EmptyState::title() const
{
    return m_title->text();
}

QString EmptyState::text() const
{
    return m_text->text();
}

void EmptyState::paintIcon()
{
    // The placeholder's icon is muted: it is a picture, not something to click.
    QPalette muted = palette();
    muted.setColor(QPalette::Active, QPalette::WindowText,
                   palette().color(QPalette::Disabled, QPalette::WindowText));
    m_iconLabel->setPixmap(Icons::icon(m_icon, muted).pixmap(QSize(48, 48)));
}

void EmptyState::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        paintIcon();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
