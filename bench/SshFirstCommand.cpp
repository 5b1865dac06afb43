// The first command over the desktop client's own SSH path (core's SshConnection: libssh, the
// host key pinned from the provider's answer, publickey authentication, one exec channel), for
// the launch benchmark. The desktop is already running when an instance becomes ready, so this
// program starts before the launch and waits for its target on stdin:
//
//   cardhour-bench-ssh-first --key PRIVATE_KEY [--command true] [--deadline-s 60]
//   stdin: one line "PORT USER SHA256:..." (the instance's ssh object), host 127.0.0.1
//
// It then connects until the command succeeds (every 20 ms, as the benchmark's OpenSSH loop)
// and prints one line of JSON: attempts, and the successful attempt's connect (TCP, key
// exchange, host key check), authentication and exec times in milliseconds. A wrong host key
// ends it at once (exit 2): that is never "not ready yet".
#include "ssh/SshConnection.h"
#include "ssh/SshTarget.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>

#include <cstdio>

using namespace Qt::StringLiterals;
using cardhour::core::SshConnection;
using cardhour::core::SshTarget;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({u"key"_s, u"private key file"_s, u"path"_s});
    parser.addOption({u"command"_s, u"remote command"_s, u"command"_s, u"true"_s});
    parser.addOption({u"deadline-s"_s, u"give up after this many seconds"_s, u"s"_s, u"60"_s});
    parser.process(app);
    if (!parser.isSet(u"key"_s)) {
        std::fprintf(stderr, "--key is required\n");
        return 64;
    }

    QTextStream in(stdin);
    const QStringList words = in.readLine().split(u' ', Qt::SkipEmptyParts);
    if (words.size() != 3) {
        std::fprintf(stderr, "expected \"PORT USER SHA256:...\" on stdin\n");
        return 64;
    }
    SshTarget target;
    target.host = u"127.0.0.1"_s;
    target.port = words.at(0).toInt();
    target.user = words.at(1);
    target.expectedHostKeySha256 = words.at(2);
    target.privateKeyPath = parser.value(u"key"_s);
    target.instanceName = u"bench"_s;
    if (!target.isValid()) {
        std::fprintf(stderr, "%s\n", qPrintable(target.problem()));
        return 64;
    }

    const QString command = parser.value(u"command"_s);
    QElapsedTimer total;
    total.start();
    const qint64 deadlineMs = parser.value(u"deadline-s"_s).toLongLong() * 1000;
    QString last;
    for (int attempt = 1; total.elapsed() < deadlineMs; ++attempt) {
        SshConnection connection(target);
        if (connection.open(5000)) {
            QElapsedTimer exec;
            exec.start();
            const SshConnection::ExecResult result = connection.exec(command, {}, 10000);
            if (result.ok && result.exitStatus == 0) {
                const QJsonObject line{{u"attempts"_s, attempt},
                                       {u"connect_ms"_s, connection.connectMs()},
                                       {u"auth_ms"_s, connection.authMs()},
                                       {u"exec_ms"_s, exec.elapsed()}};
                std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
                std::fflush(stdout);
                return 0;
            }
            last = result.ok ? u"exit status %1"_s.arg(result.exitStatus) : result.error;
        } else {
            if (connection.failure() == SshConnection::Failure::HostKey) {
                std::fprintf(stderr, "%s\n", qPrintable(connection.errorMessage()));
                return 2;
            }
            last = connection.errorMessage();
        }
        QThread::msleep(20);
    }
    std::fprintf(stderr, "no success within the deadline; last: %s\n", qPrintable(last));
    return 1;
}
