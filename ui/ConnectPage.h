#pragma once

#include <QUrl>
#include <QWidget>

#include <memory>

class QHBoxLayout;

namespace Ui {
class ConnectPage;
}

namespace cardhour::core {
class SandboxImages;
class SandboxLauncher;
} // namespace cardhour::core

namespace cardhour::ui {

class AfterPaint;
class ImagePreparation;

// The first screen: the local sandbox (started or found by SandboxLauncher) or a provider at
// a URL. It only asks; MainWindow does the connecting and reports back through setBusy() and
// setProblem(), so nothing here blocks. Given the sandbox's launcher, it also shows under the
// choice what the sandbox still needs on this computer (ImagePreparation: images, doctor).
class ConnectPage : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectPage(QWidget *parent = nullptr);
    // `launcher` is not owned and must outlive the page.
    explicit ConnectPage(const core::SandboxLauncher *launcher, QWidget *parent = nullptr);
    ~ConnectPage() override;

    void setBusy(bool busy, const QString &message = {});
    void setProblem(const QString &message);
    // Fills in the address; `choose`: the provider-at-URL choice is ticked.
    void setUrl(const QUrl &url, bool choose = true);

Q_SIGNALS:
    void sandboxRequested();
    void urlRequested(const QUrl &url);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onConnect();
    void validate();
    // The address typed (the placeholder's when empty); empty, and why, when it is not one.
    QUrl enteredUrl(QString *problem = nullptr) const;

    void updatePreparation();
    // The panel under the choice, built when first needed (after the first frame).
    ImagePreparation *ensurePreparation();

    std::unique_ptr<Ui::ConnectPage> m_ui;
    core::SandboxImages *m_images = nullptr;
    ImagePreparation *m_preparation = nullptr; // null until first needed
    QHBoxLayout *m_preparationRow = nullptr; // where it goes
    AfterPaint *m_afterPaint = nullptr; // looks at the images once this page is on screen
    bool m_looked = false; // the first look was taken (after the first frame)
};

} // namespace cardhour::ui
