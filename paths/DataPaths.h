#pragma once

#include <QString>
#include <QStringList>

namespace cardhour {

// Where CardHour keeps its files: one folder named CardHour in the platform's generic data
// location (QStandardPaths::GenericDataLocation), the same for the desktop client and for
// cardhour-sim whatever their application names:
//   Linux    $XDG_DATA_HOME/CardHour (default ~/.local/share/CardHour)
//   macOS    ~/Library/Application Support/CardHour
//   Windows  %LOCALAPPDATA%/CardHour
// Inside it: ssh/ (the client's keys, keys.json, known_hosts) and sandbox/ (the provider's state:
// SQLite, datasets.json, instance files, the lock file).
class DataPaths
{
public:
    DataPaths() = delete;

    static QString rootDir();
    // The client's own files (the ssh/ folder lives here).
    static QString clientDataDir();
    static QString sshKeyDir();
    static QString knownHostsPath();
    // <root>/sandbox; while that does not exist but the old one does (a running provider held
    // it, or moving it failed), the old one, so nothing reads an empty ledger instead.
    static QString sandboxDataDir();

    // Before issue 12 the client's files were in its AppDataLocation (org and app both
    // "CardHour": <root>/CardHour/ssh) and cardhour-sim started alone used its own
    // (<root>/cardhour-sim/sandbox). These are those two places on this platform.
    static QString oldSshKeyDir();
    static QString oldSandboxDataDir();

    // Moves the old folders into the new places, once: a folder moves only when the new place
    // does not exist (nothing there is ever overwritten), by rename, or by copy and removal
    // when rename fails (another file system). A sandbox folder that a live cardhour-sim holds
    // (its lock file) stays where it is and is read there. On Unix a link at the old place
    // keeps paths written before (keys.json, ~/.ssh/config blocks, stopped containers' bind
    // mounts) working. Returns one sentence per thing moved or left, for stderr; empty when
    // there was nothing to do. Call it at start, before anything reads the paths above.
    static QStringList migrateOldLayout();

    // Moves `from` to `to` (which must not exist): rename, else copy the tree (permissions
    // kept) into a sibling and rename that into place, then remove `from`. Public for tests.
    static bool moveDir(const QString &from, const QString &to, QString *error);
    static bool copyDirTree(const QString &from, const QString &to, QString *error);
};

} // namespace cardhour
