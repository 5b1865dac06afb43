#pragma once

// Runs the real cardhourctl (CARDHOUR_CTL_BIN, set by CMake) as a script would: stdin a pipe
// (never a terminal), the environment given on top of this process's.
#include <QByteArray>
#include <QHash>
#include <QJsonDocument>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace cardhour::test {

struct CtlRun
{
    int code = -1; // -1: did not start or did not end; -2: crashed
    QString out;
    QString err;
    QJsonDocument json() const { return QJsonDocument::fromJson(out.toUtf8()); }
    // For failure messages: the status and both streams.
    const char *describe() const
    {
        m_text = QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(code).arg(out, err).toUtf8();
        return m_text.constData();
    }
    mutable QByteArray m_text;
};

inline CtlRun runCtl(const QStringList &arguments, const QHash<QString, QString> &environment,
                     const QByteArray &input = {}, int timeoutMs = 180000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    for (auto it = environment.cbegin(); it != environment.cend(); ++it)
        env.insert(it.key(), it.value());
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(CARDHOUR_CTL_BIN), arguments);
    CtlRun run;
    if (!process.waitForStarted(10000))
        return run;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace cardhour::test
