#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>

namespace cardhour::core {

class SandboxLauncher;

// Shares a folder of this computer as a dataset of the local sandbox, through the same code as
// `cardhour-sim datasets add NAME DIR --data DIR` (backend-sim/src/cli/DatasetsCommand): it runs
// the sandbox executable the launcher uses on the launcher's data directory, asynchronously.
// The running sandbox reads its datasets list again when the file changes, so GET /v1/datasets
// shows the new one at once. One addition at a time; finished() reports each.
class SandboxDatasets : public QObject
{
    Q_OBJECT
public:
    // `launcher` is not owned and must outlive this object.
    explicit SandboxDatasets(const SandboxLauncher *launcher, QObject *parent = nullptr);
    ~SandboxDatasets() override;

    // False (with `error` set, nothing started) while another addition runs.
    bool add(const QString &name, const QString &folder, QString *error = nullptr);
    bool isBusy() const { return m_process != nullptr; }
    // The arguments add() passes to the sandbox executable (tests, diagnostics).
    QStringList arguments(const QString &name, const QString &folder) const;

Q_SIGNALS:
    // `message` is the sandbox's own report on success, a translated sentence with the
    // sandbox's reason on failure.
    void finished(const QString &name, bool ok, const QString &message);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void finish(bool ok, const QString &message);

    const SandboxLauncher *m_launcher;
    QPointer<QProcess> m_process;
    QString m_name;
};

} // namespace cardhour::core
