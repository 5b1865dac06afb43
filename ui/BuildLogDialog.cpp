#include "BuildLogDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

BuildLogDialog::BuildLogDialog(QWidget *parent) : QDialog(parent), m_text(new QPlainTextEdit(this))
{
    setObjectName(u"buildLogDialog"_s);
    setWindowTitle(tr("Image build log"));
    m_text->setObjectName(u"buildLog"_s);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setMaximumBlockCount(20000);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("Copy all"), QDialogButtonBox::ActionRole);
    copy->setObjectName(u"copyLogButton"_s);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_text->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(buttons);
    resize(820, 480);
}

void BuildLogDialog::setLog(const QString &text)
{
    m_text->setPlainText(text);
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
}

void BuildLogDialog::appendLine(const QString &line)
{
    // Follows the end unless the reader scrolled up.
    QScrollBar *bar = m_text->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    m_text->appendPlainText(line);
    if (atEnd)
        bar->setValue(bar->maximum());
}

QString BuildLogDialog::text() const
{
    return m_text->toPlainText();
}

} // namespace cardhour::ui
