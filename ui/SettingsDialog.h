#pragma once

#include "AppSettings.h"

#include <QDialog>

#include <memory>

namespace Ui {
class SettingsDialog;
}

namespace cardhour::ui {

// Settings (.ui form): provider URL, language, theme, the two warning thresholds. OK checks the
// fields (a URL that is http(s) or empty, the second threshold below the first) and emits
// applied(); the caller stores and applies them. Nothing is changed before OK.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings &initial, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // What the form says now; `problem` (when not null) gets why it cannot be applied.
    AppSettings settings(QString *problem = nullptr) const;

Q_SIGNALS:
    void applied(const cardhour::ui::AppSettings &settings);

protected:
    void changeEvent(QEvent *event) override;

private:
    void validate();
    void retranslate();

    std::unique_ptr<Ui::SettingsDialog> m_ui;
};

} // namespace cardhour::ui
