#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>

class QTimer;

namespace cardhour::core {

// Hands a one-click app's address (its token included) to the browser without showing it to
// the machine's other users: every argument of xdg-open and of the browser is in `ps` and
// /proc/PID/cmdline for all to read. The address goes instead into a page that sends the
// browser on (location.replace), written 0600 in a 0700 folder of this user's (the runtime
// folder), and the browser is given that file's file:// URL. Each page is removed after
// pageLifetimeMs(), when the opener goes, or (the process having been killed) at a later
// opener's next open(). The desktop client and cardhourctl both open apps through this class.
class AppOpener : public QObject
{
    Q_OBJECT
public:
    // Starts the browser on a file:// URL and calls `done` once it knows whether the browser has
    // the page (false: it could not be started, or said it failed). Never waits on the caller's
    // thread: the window stays live while xdg-open looks for a browser.
    using Done = std::function<void(bool)>;
    using Launcher = std::function<void(const QUrl &page, Done done)>;
    // How long a launcher still running counts as the browser itself (which has the page).
    static constexpr int kLauncherAnswerMs = 5'000;
    static constexpr int kPageLifetimeMs = 60'000;

    // `folder`: where the pages go (empty: "cardhour-apps" in the runtime folder).
    explicit AppOpener(Launcher launcher, const QString &folder = {}, QObject *parent = nullptr);
    ~AppOpener() override;

    // The platform's opener as its own process (xdg-open; open on macOS; explorer on
    // Windows): false when it could not be started or said it failed.
    static Launcher systemLauncher();
    // A launcher that answers at once (tests, QDesktopServices): `start` says whether it opened.
    static Launcher immediate(std::function<bool(const QUrl &page)> start);

    struct Outcome
    {
        bool opened = false;
        QString error; // translated, when not opened
        QString page; // the page's path (removed again when not opened)
    };
    // Writes the page and hands it to the launcher; `done` gets the outcome once the launcher
    // answers (not at all if this opener is gone by then).
    void open(const QUrl &appUrl, std::function<void(const Outcome &)> done);

    QString folder() const { return m_folder; }
    int pageLifetimeMs() const { return m_lifetimeMs; }
    void setPageLifetimeMs(int ms) { m_lifetimeMs = ms; }

    // The page's text for `appUrl` (public for tests).
    static QByteArray pageFor(const QUrl &appUrl);

private:
    bool ensureFolder(QString *error) const;
    void removeStalePages() const;
    void removePage(const QString &path);

    Launcher m_launcher;
    QString m_folder;
    int m_lifetimeMs = kPageLifetimeMs;
    QHash<QString, QTimer *> m_pages; // path -> its removal timer
};

} // namespace cardhour::core
