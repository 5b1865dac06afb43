#pragma once

#include "theme/Design.h"

#include <QMessageBox>
#include <QString>

#include <utility>

class QPushButton;
class QWidget;

namespace cardhour::ui {

// Every message box of the client, built one way: a short title in the heading size, one
// sentence under it, and whatever else there is to say behind "Show Details…". The button that
// does the thing is the primary (or, when it destroys, the destructive) one; Cancel stays plain.
class Notice
{
public:
    enum class Kind {
        Information,
        Question,
        Warning,
        Error,
    };

    // A window-modal box, deleted on close, not yet shown (open() it). No buttons unless
    // `standardButtons` names some; add the action with addAction().
    static QMessageBox *
    create(QWidget *parent, Kind kind, const QString &title, const QString &sentence,
           const QString &details = {},
           QMessageBox::StandardButtons standardButtons = QMessageBox::NoButton);
    // The same for a message of unknown length (an error from the provider, from the system):
    // its first sentence is shown, the rest goes behind Show Details.
    static QMessageBox *fromMessage(QWidget *parent, Kind kind, const QString &title,
                                    const QString &message,
                                    QMessageBox::StandardButtons standardButtons = QMessageBox::Ok);
    // The button that does it, painted in `role`.
    static QPushButton *addAction(QMessageBox *box, const QString &text,
                                  ButtonRole role = ButtonRole::Primary);
    // "First sentence." and the rest, split after the first full stop (., 。, !, ?, or a line
    // break) that ends a sentence; the rest is empty when there is one sentence only.
    static std::pair<QString, QString> splitFirstSentence(const QString &message);
};

} // namespace cardhour::ui
