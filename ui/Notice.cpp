#include "Notice.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

QMessageBox::Icon iconOf(Notice::Kind kind)
{
    switch (kind) {
    case Notice::Kind::Information:
        return QMessageBox::Information;
    case Notice::Kind::Question:
        return QMessageBox::Question;
    case Notice::Kind::Warning:
        return QMessageBox::Warning;
    case Notice::Kind::Error:
        return QMessageBox::Critical;
    }
    return QMessageBox::NoIcon;
}

} // namespace

QMessageBox *Notice::create(QWidget *parent, Kind kind, const QString &title,
                            const QString &sentence, const QString &details,
                            QMessageBox::StandardButtons standardButtons)
{
    auto *box = new QMessageBox(iconOf(kind), title, title, standardButtons, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setTextFormat(Qt::PlainText);
    if (auto *titleLabel = box->findChild<QLabel *>(u"qt_msgbox_label"_s))
        Design::setTextRole(titleLabel, TextRole::Heading);
    box->setInformativeText(sentence);
    if (!details.isEmpty())
        box->setDetailedText(details);
    // A readable measure: QMessageBox sizes itself to its shortest text, its details cramped.
    if (auto *grid = qobject_cast<QGridLayout *>(box->layout()))
        grid->addItem(new QSpacerItem(box->fontMetrics().averageCharWidth() * 60, 0,
                                      QSizePolicy::Minimum, QSizePolicy::Minimum),
                      grid->rowCount(), 0, 1, grid->columnCount());
    return box;
}

QMessageBox *Notice::fromMessage(QWidget *parent, Kind kind, const QString &title,
                                 const QString &message,
                                 QMessageBox::StandardButtons standardButtons)
{
    const auto [sentence, rest] = splitFirstSentence(message);
    return create(parent, kind, title, sentence, rest, standardButtons);
}

QPushButton *Notice::addAction(QMessageBox *box, const QString &text, ButtonRole role)
{
    QPushButton *button = box->addButton(
        text,
        role == ButtonRole::Destructive ? QMessageBox::DestructiveRole : QMessageBox::AcceptRole);
    Design::setButtonRole(button, role);
    return button;
}

std::pair<QString, QString> Notice::splitFirstSentence(const QString &message)
{
    const QString text = message.trimmed();
    // A stop followed by white space and something that starts a sentence; or a Chinese full
    // stop; or a line break. "¥3.80" and "v1.2" have no space after the point and stay whole.
    static const QRegularExpression end(u"([.!?])\\s+(?=[\\p{Lu}\\d“\"(/])|([。！？])|(\\n)"_s);
    const QRegularExpressionMatch m = end.match(text);
    if (!m.hasMatch())
        return {text, {}};
    const qsizetype cut = m.capturedStart() + (m.captured(3).isEmpty() ? 1 : 0);
    const QString first = text.first(cut).trimmed();
    const QString rest = text.sliced(m.capturedEnd()).trimmed();
    if (first.isEmpty())
        return {text, {}};
    return {first, rest};
}

} // namespace cardhour::ui
