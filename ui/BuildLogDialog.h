#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace cardhour::ui {

// The whole output of the image build, growing while the build runs; opened with open().
class BuildLogDialog : public QDialog
{
    Q_OBJECT
public:
    explicit BuildLogDialog(QWidget *parent = nullptr);

    void setLog(const QString &text);
    void appendLine(const QString &line);
    QString text() const;

private:
    QPlainTextEdit *m_text;
};

} // namespace cardhour::ui
