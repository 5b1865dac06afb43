#include "pages/HomePage.h"

#include "AppsPanel.h"
#include "EmptyState.h"
#include "InstanceTableModel.h"
#include "pages/HostCard.h"
#include "theme/Design.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::InstanceState;

HomePage::HomePage(InstanceTableModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_stack(new QStackedWidget(this)),
      m_empty(new EmptyState(Icon::Instances, m_stack)), m_cardsPage(new QWidget(m_stack)),
      m_heading(new QLabel(m_cardsPage)), m_grid(new QWidget), m_gridLayout(new QGridLayout(m_grid))
{
    setObjectName(u"homePage"_s);
    m_empty->setObjectName(u"homeEmpty"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    m_stack->addWidget(m_empty);

    auto *cardsLayout = new QVBoxLayout(m_cardsPage);
    Design::setTextRole(m_heading, TextRole::Heading);
    m_heading->setObjectName(u"homeHeading"_s);
    cardsLayout->addWidget(m_heading);
    m_scroll = new QScrollArea(m_cardsPage);
    m_scroll->setObjectName(u"homeCards"_s);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_gridLayout->setAlignment(Qt::AlignTop);
    m_gridLayout->setContentsMargins(0, 0, 0, 0);
    m_gridLayout->setSpacing(space::m);
    m_grid->setAutoFillBackground(false);
    m_scroll->setWidget(m_grid);
    m_scroll->viewport()->setAutoFillBackground(false);
    // The columns follow the width the cards really get: the viewport's, which the scroll area
    // sets after this page's own resize (and while the page is hidden).
    m_scroll->viewport()->installEventFilter(this);
    cardsLayout->addWidget(m_scroll, 1);
    m_stack->addWidget(m_cardsPage);

    connect(m_empty, &EmptyState::actionTriggered, this, &HomePage::launchRequested);
    connect(m_model, &QAbstractItemModel::modelReset, this, &HomePage::rebuild);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &HomePage::rebuild);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &HomePage::rebuild);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &HomePage::onDataChanged);
    retranslate();
    rebuild();
}

void HomePage::setClock(const core::Clock *clock)
{
    m_clock = clock;
    for (HostCard *card : std::as_const(m_cards))
        card->setClock(clock);
}

QList<HostCard *> HomePage::cards() const
{
    QList<HostCard *> list;
    for (const QString &id : m_order)
        list << m_cards.value(id);
    return list;
}

void HomePage::showApps(core::ClientSession *session, SshActions *ssh)
{
    if (m_apps)
        return;
    m_apps = new AppsPanel(session, ssh, this);
    // As tall as its cards; the hosts (or the empty state) take the rest.
    auto *box = static_cast<QVBoxLayout *>(layout());
    box->insertWidget(0, m_apps);
    box->setStretchFactor(m_stack, 1);
}

void HomePage::rebuild()
{
    if (!isVisible() && !m_cards.isEmpty()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    // Running hosts first (they are billed), then the others in the model's order.
    QList<QString> order;
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const core::Instance *instance = m_model->instanceAt(row);
            if ((instance->state == InstanceState::Running) == (pass == 0))
                order << instance->id;
        }
    }
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        if (!order.contains(it.key())) {
            delete it.value();
            it = m_cards.erase(it);
        } else {
            (*it)->refresh();
            ++it;
        }
    }
    for (const QString &id : std::as_const(order)) {
        if (m_cards.contains(id))
            continue;
        auto *card = new HostCard(m_model, id, m_grid);
        card->setClock(m_clock);
        connect(card, &HostCard::terminalRequested, this, &HomePage::terminalRequested);
        connect(card, &HostCard::appRequested, this, &HomePage::appRequested);
        connect(card, &HostCard::stopRequested, this, &HomePage::stopRequested);
        connect(card, &HostCard::startRequested, this, &HomePage::startRequested);
        m_cards.insert(id, card);
    }
    const bool orderChanged = order != m_order;
    m_order = order;
    m_stack->setCurrentWidget(m_order.isEmpty() ? static_cast<QWidget *>(m_empty) : m_cardsPage);
    retranslate();
    if (orderChanged)
        m_columns = 0;
    layoutCards();
}

void HomePage::layoutCards()
{
    // As many columns of cards at their least width as the viewport holds, the cards sharing
    // what is left over.
    const int spacing = m_gridLayout->horizontalSpacing();
    const int cardWidth = HostCard::kMinimumWidth + spacing;
    const int columns = qMax(1, (m_scroll->viewport()->width() + spacing) / cardWidth);
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (int i = 0; i < m_order.size(); ++i) {
        HostCard *card = m_cards.value(m_order[i]);
        m_gridLayout->removeWidget(card);
        m_gridLayout->addWidget(card, i / columns, i % columns);
        card->show();
    }
    for (int column = 0; column < m_gridLayout->columnCount(); ++column)
        m_gridLayout->setColumnStretch(column, column < columns ? 1 : 0);
}

void HomePage::onDataChanged(const QModelIndex &from, const QModelIndex &to,
                             const QList<int> &roles)
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    // The per-second cost and the metrics samples touch only the live figures of a card.
    const bool live = roles.size() == 1
        && (roles.first() == InstanceTableModel::SparklineRole || roles.first() == Qt::DisplayRole)
        && from.column() == to.column()
        && (from.column() == InstanceTableModel::CostColumn
            || from.column() == InstanceTableModel::ActivityColumn);
    if (!live) {
        // A state or name changed (rare): the order (running first) and the heading may too.
        rebuild();
        return;
    }
    for (int row = from.row(); row <= to.row(); ++row) {
        const core::Instance *instance = m_model->instanceAt(row);
        if (HostCard *card = instance ? m_cards.value(instance->id) : nullptr)
            card->refreshLive();
    }
}

void HomePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        rebuild();
    for (HostCard *card : std::as_const(m_cards))
        card->refreshLive();
}

void HomePage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layoutCards();
}

bool HomePage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        layoutCards();
    return QWidget::eventFilter(watched, event);
}

void HomePage::retranslate()
{
    m_empty->setTitle(tr("No hosts yet"));
    m_empty->setText(
        tr("Launch a GPU host: pick a card and an image, and it is ready for SSH within "
           "seconds. The launch dialog shows what it costs per hour before you confirm."));
    m_empty->setAction(tr("Launch a host…"));
    int running = 0;
    for (const QString &id : std::as_const(m_order)) {
        const core::Instance *instance = m_model->instance(id);
        running += instance && instance->state == InstanceState::Running ? 1 : 0;
    }
    m_heading->setText(tr("Hosts: %1 · running: %2").arg(m_order.size()).arg(running));
}

void HomePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
