#pragma once

#include <QUrl>
#include <QWidget>

#include <memory>

namespace Ui {
class ConnectPage;
}

namespace cardhour::ui {

// The first screen: the local sandbox (started or found by SandboxLauncher) or a provider at
// a URL. It only asks; MainWindow does the connecting and reports back through setBusy() and
// setProblem(), so nothing here blocks.
class ConnectPage : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectPage(QWidget *parent = nullptr);
    ~ConnectPage() override;

    void setBusy(bool busy, const QString &message = {});
    void setProblem(const QString &message);
    void setUrl(const QUrl &url);

Q_SIGNALS:
    void sandboxRequested();
    void urlRequested(const QUrl &url);

protected:
    void changeEvent(QEvent *event) override;

private:
    void onConnect();
    void validate();
    QUrl enteredUrl() const;

    std::unique_ptr<Ui::ConnectPage> m_ui;
};

} // namespace cardhour::ui
