// ssh, ssh-config, keys: reaching a host, always through SshAccess (the one host-key pinning
// path: the provider's fingerprint or no connection, never trust on first use).
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/SshAccess.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshConnection.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshPortForward.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <vector>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Access
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Access)
};

int ssh(Context &ctx)
{
    if (ctx.args.isEmpty())
        return ctx.usage(Access::tr("NAME is missing."));
    int code = Ok;
    const std::optional<SshTarget> target = resolveTarget(ctx, ctx.args.first(), &code);
    if (!target)
        return code;
    // The host must present the key the provider reported before OpenSSH is handed the
    // terminal: a mismatch is refused here, naming both fingerprints (OpenSSH would only name
    // the one it was shown). known_hosts holds the provider's key either way.
    // The key check comes before authentication: a key libssh cannot use (a passphrase kept
    // in the keychain, an agent's key) is left to OpenSSH, whose known_hosts pins the same key.
    SshConnection check(*target);
    if (!check.open()
        && (check.failure() == SshConnection::Failure::HostKey
            || check.failure() == SshConnection::Failure::Connect)) {
        Output::error(Access::tr("cardhourctl ssh: %1").arg(check.errorMessage()));
        return Failed;
    }
    check.close();
    QStringList arguments =
        SshConfigWriter::sshArguments(*target, SshConfigWriter::defaultKnownHostsPath());
    // One word after NAME is a shell command line, as OpenSSH takes it; several are a program
    // and its arguments, each quoted for the remote shell, so that `-- python3 -c 'a; b'` runs
    // what it says (OpenSSH would join them and let the remote shell split them again).
    const QStringList command = ctx.args.mid(1);
    if (command.size() == 1) {
        arguments.append(command.first());
    } else if (command.size() > 1) {
        QStringList quoted;
        for (const QString &word : command)
            quoted.append(SshConnection::shellQuote(word));
        arguments.append(quoted.join(u' '));
    }
    QString program = qEnvironmentVariable("CARDHOUR_SSH");
    if (program.isEmpty())
        program = u"ssh"_s;
#ifdef Q_OS_UNIX
    // OpenSSH takes over this process: the terminal, the signals and the exit status (the
    // remote command's, or 255 when ssh itself failed) are its.
    std::vector<QByteArray> storage;
    storage.push_back(program.toLocal8Bit());
    for (const QString &argument : arguments)
        storage.push_back(argument.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &bytes : storage)
        argv.push_back(bytes.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    ::execvp(argv[0], argv.data());
    Output::error(Access::tr("cardhourctl ssh: could not run %1: %2")
                      .arg(program, QString::fromLocal8Bit(std::strerror(errno))));
    return Failed;
#else
    Output::error(Access::tr("cardhourctl ssh: not supported on this system yet; run: %1")
                      .arg(SshConfigWriter::sshCommandLine(
                          *target, SshConfigWriter::defaultKnownHostsPath())));
    return Failed;
#endif
}

int sshConfig(Context &ctx)
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Access::tr("NAME"), &name, &code))
        return code;
    const std::optional<SshTarget> target = resolveTarget(ctx, name, &code);
    if (!target)
        return code;
    const QString knownHosts = SshConfigWriter::defaultKnownHostsPath();
    if (ctx.json) {
        Output::json(
            QJsonObject{{u"alias"_s, SshConfigWriter::hostAlias(target->instanceName)},
                        {u"host"_s, target->host},
                        {u"port"_s, target->port},
                        {u"user"_s, target->user},
                        {u"identity_file"_s, target->privateKeyPath},
                        {u"known_hosts"_s, knownHosts},
                        {u"host_key_sha256"_s, target->expectedHostKeySha256},
                        {u"config"_s, SshConfigWriter::configBlock(*target, knownHosts)},
                        {u"command"_s, SshConfigWriter::sshCommandLine(*target, knownHosts)}});
    } else {
        Output::raw(SshConfigWriter::configBlock(*target, knownHosts));
    }
    return Ok;
}

int forward(Context &ctx)
{
    if (ctx.args.size() < 2 || ctx.args.size() > 3)
        return ctx.usage(Access::tr("forward takes NAME REMOTE_PORT [LOCAL_PORT]."));
    bool ok = false;
    const int remote = ctx.args[1].toInt(&ok);
    if (!ok || remote < 1 || remote > 65535)
        return ctx.usage(Access::tr("%1 is not a port.").arg(ctx.args[1]));
    int local = 0;
    if (ctx.args.size() == 3) {
        local = ctx.args[2].toInt(&ok);
        if (!ok || local < 1 || local > 65535)
            return ctx.usage(Access::tr("%1 is not a port.").arg(ctx.args[2]));
    }
    int code = Ok;
    const std::optional<SshTarget> target = resolveTarget(ctx, ctx.args[0], &code);
    if (!target)
        return code;
    // SshPortForward: the desktop client's forward (its own thread, 127.0.0.1 only, the host
    // key checked against the provider's before a channel opens). It runs until interrupted.
    SshPortForward forwarder(*target, remote);
    QEventLoop loop;
    QObject::connect(&forwarder, &SshPortForward::listening, &loop, [&](quint16 port) {
        if (ctx.json) {
            Output::line(
                QString::fromUtf8(QJsonDocument(QJsonObject{{u"local_host"_s, u"127.0.0.1"_s},
                                                            {u"local_port"_s, int(port)},
                                                            {u"remote_port"_s, remote},
                                                            {u"instance"_s, target->instanceName}})
                                      .toJson(QJsonDocument::Compact)));
        } else {
            Output::line(u"127.0.0.1:%1"_s.arg(port));
            Output::error(Access::tr("Forwarding 127.0.0.1:%1 to port %2 of %3; Ctrl-C ends it.")
                              .arg(port)
                              .arg(remote)
                              .arg(target->instanceName));
        }
    });
    QObject::connect(&forwarder, &SshPortForward::failed, &loop, [&](const QString &reason) {
        Output::error(Access::tr("cardhourctl forward: %1").arg(reason));
        code = Failed;
        loop.quit();
    });
    forwarder.start(quint16(local));
    loop.exec();
    forwarder.stop();
    return code;
}

// ---- keys ------------------------------------------------------------------------------------

QString keyName(const SshKeyPair &key)
{
    return key.comment().isEmpty() ? QFileInfo(key.privatePath()).fileName() : key.comment();
}

int keysList(Context &ctx)
{
    if (ctx.args.size() != 1)
        return ctx.usage(Access::tr("keys list takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<SshKey>> remote = ctx.await(ctx.client()->sshKeys());
    if (!remote.ok())
        return ctx.fail(remote.error);
    const QList<SshKeyPair> local = ctx.keyStore()->keys();
    if (ctx.json) {
        QJsonArray locals;
        for (const SshKeyPair &key : local) {
            locals.append(QJsonObject{{u"name"_s, keyName(key)},
                                      {u"type"_s, key.type()},
                                      {u"fingerprint_sha256"_s, key.fingerprintSha256()},
                                      {u"private_path"_s, key.privatePath()},
                                      {u"public_path"_s, key.publicPath()}});
        }
        Output::json(
            QJsonObject{{u"local"_s, locals}, {u"provider"_s, ModelJson::toJson(*remote.value)}});
        return Ok;
    }
    QList<QStringList> rows;
    QStringList seen;
    for (const SshKeyPair &key : local) {
        QString uploaded = Access::tr("no");
        for (const SshKey &r : *remote.value) {
            if (r.fingerprintSha256 == key.fingerprintSha256())
                uploaded = r.name;
        }
        seen.append(key.fingerprintSha256());
        rows.append({keyName(key), key.fingerprintSha256(), key.privatePath(), uploaded});
    }
    for (const SshKey &r : *remote.value) {
        if (!seen.contains(r.fingerprintSha256))
            rows.append(
                {r.name, r.fingerprintSha256, Access::tr("(not on this computer)"), r.name});
    }
    Output::raw(Output::table({Access::tr("NAME"), Access::tr("FINGERPRINT"),
                               Access::tr("PRIVATE KEY"), Access::tr("ON THE PROVIDER AS")},
                              rows));
    return Ok;
}

int upload(Context &ctx, const QString &name, const QString &publicLine)
{
    const Result<SshKey> added = ctx.await(ctx.client()->addSshKey(name, publicLine));
    if (!added.ok())
        return ctx.fail(added.error);
    if (ctx.json)
        Output::json(ModelJson::toJson(*added.value));
    else
        Output::line(u"%1  %2"_s.arg(added.value->name, added.value->fingerprintSha256));
    return Ok;
}

int keysGenerate(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Access::tr("keys generate takes one NAME."));
    if (!ctx.isSet(u"no-upload"_s)) {
        if (const int code = ctx.connect(); code != Ok)
            return code;
    }
    QString error;
    const SshKeyPair key = Context::awaitKey(ctx.keyStore()->generate(ctx.args[1]), &error);
    if (!key.isValid()) {
        Output::error(Access::tr("cardhourctl keys generate: %1").arg(error));
        return Failed;
    }
    Output::error(Access::tr("Generated %1 (%2).").arg(key.privatePath(), key.fingerprintSha256()));
    if (ctx.isSet(u"no-upload"_s)) {
        if (ctx.json)
            Output::json(QJsonObject{{u"name"_s, keyName(key)},
                                     {u"fingerprint_sha256"_s, key.fingerprintSha256()},
                                     {u"private_path"_s, key.privatePath()}});
        else
            Output::line(key.fingerprintSha256());
        return Ok;
    }
    return upload(ctx, ctx.args[1], key.publicKeyLine());
}

int keysUpload(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Access::tr("keys upload takes one key: a name of `keys list` or the path "
                                    "of a public key file (.pub)."));
    const QString given = ctx.args[1];
    // A key CardHour knows, by name or fingerprint; otherwise the path of a public key file.
    SshKeyPair known;
    for (const SshKeyPair &key : ctx.keyStore()->keys()) {
        if (keyName(key) == given || key.fingerprintSha256() == given)
            known = key;
    }
    QString line = known.publicKeyLine();
    QString name = ctx.value(u"name"_s);
    if (!known.isValid()) {
        const QFileInfo file(given);
        // A path (a folder in it, or .pub) that is not there: say so, not "not a key".
        if (!file.exists() && (given.contains(u'/') || given.endsWith(u".pub"_s))) {
            return ctx.usage(Access::tr("%1: no such file (the path of a public key file, "
                                        ".pub, or a name of `cardhourctl keys list` is expected).")
                                 .arg(given));
        }
        if (!file.isFile()) {
            return ctx.usage(Access::tr("%1 is neither a key of `cardhourctl keys list` nor a "
                                        "file.")
                                 .arg(given));
        }
        QFile in(given);
        if (!in.open(QIODevice::ReadOnly))
            return ctx.usage(Access::tr("could not read %1: %2").arg(given, in.errorString()));
        line = QString::fromUtf8(in.read(64 * 1024)).trimmed();
        if (SshKeyPair::fingerprintOfPublicKeyLine(line).isEmpty()) {
            return ctx.usage(Access::tr("%1 is not a public key file (an OpenSSH public key line, "
                                        "as in a .pub file, is expected).")
                                 .arg(given));
        }
        if (name.isEmpty())
            name = line.section(u' ', 2).trimmed();
        if (name.isEmpty())
            name = file.completeBaseName();
    } else if (name.isEmpty()) {
        name = keyName(known);
    }
    if (const int code = ctx.connect(); code != Ok)
        return code;
    return upload(ctx, name, line);
}

int keysImport(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Access::tr("keys import takes the path of one public key file (.pub)."));
    if (!QFileInfo(ctx.args[1]).isFile())
        return ctx.usage(Access::tr("%1 is not a file.").arg(ctx.args[1]));
    QString error;
    const SshKeyPair key = Context::awaitKey(ctx.keyStore()->importPublicKey(ctx.args[1]), &error);
    if (!key.isValid())
        return ctx.usage(error);
    Output::line(u"%1  %2"_s.arg(keyName(key), key.fingerprintSha256()));
    return Ok;
}

int keysRm(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Access::tr("keys rm takes one NAME, id or fingerprint."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const QString given = ctx.args[1];
    const Result<QList<SshKey>> remote = ctx.await(ctx.client()->sshKeys());
    if (!remote.ok())
        return ctx.fail(remote.error);
    for (const SshKey &key : *remote.value) {
        if (key.name != given && key.id != given && key.fingerprintSha256 != given)
            continue;
        const Result<NoContent> done = ctx.await(ctx.client()->deleteSshKey(key.id));
        if (!done.ok())
            return ctx.fail(done.error);
        Output::error(
            Access::tr("Removed %1 (%2) from the provider.").arg(key.name, key.fingerprintSha256));
        return Ok;
    }
    Output::error(Access::tr("cardhourctl keys rm: no key %1 on the provider.").arg(given));
    return NotFound;
}

int keys(Context &ctx)
{
    const QString sub = ctx.args.value(0);
    if (sub == u"list"_s)
        return keysList(ctx);
    if (sub == u"generate"_s)
        return keysGenerate(ctx);
    if (sub == u"upload"_s)
        return keysUpload(ctx);
    if (sub == u"import"_s)
        return keysImport(ctx);
    if (sub == u"rm"_s)
        return keysRm(ctx);
    return ctx.usage(sub.isEmpty() ? Access::tr("list, generate, upload, import or rm?")
                                   : Access::tr("no keys command %1.").arg(sub));
}

} // namespace

std::optional<SshTarget> resolveTarget(Context &ctx, const QString &name, int *code)
{
    if ((*code = ctx.connect()) != Ok)
        return std::nullopt;
    const std::optional<Instance> instance = ctx.findInstance(name, code);
    if (!instance)
        return std::nullopt;
    const Result<QList<SshKey>> keys = ctx.await(ctx.client()->sshKeys());
    if (!keys.ok()) {
        *code = ctx.fail(keys.error);
        return std::nullopt;
    }
    const SshAccess access =
        SshAccess::resolve(*instance, *keys.value, ctx.keyStore()->keys(),
                           SshConfigWriter::defaultKnownHostsPath(), SshAccess::KeyNeed::Required);
    if (!access.ok()) {
        Output::error(Access::tr("cardhourctl %1: %2").arg(ctx.commandName, access.error));
        *code = Failed;
        return std::nullopt;
    }
    SshTarget target = access.target;
    // A key whose passphrase CardHour keeps in the keychain (as the desktop client reads it).
    SshKeyStore *store = ctx.keyStore();
    if (SecretReply *secret = store->passphrase(store->key(target.keyFingerprint))) {
        QEventLoop loop;
        QObject::connect(secret, &SecretReply::finished, &loop, [&] {
            if (secret->ok())
                target.passphrase = secret->secret();
            loop.quit();
        });
        loop.exec();
    }
    return target;
}

QList<Command> accessCommands()
{
    return {
        {u"ssh"_s,
         Access::tr("OpenSSH to a host, its host key pinned (the remote command's exit status)."),
         u"NAME [-- COMMAND...]"_s,
         {},
         ssh},
        {u"ssh-config"_s,
         Access::tr("The ~/.ssh/config block of a host, as the desktop writes it."),
         u"NAME"_s,
         {},
         sshConfig},
        {u"forward"_s,
         Access::tr("Forward a local port to a port of a host over SSH (until interrupted)."),
         u"NAME REMOTE_PORT [LOCAL_PORT]"_s,
         {},
         forward},
        {u"keys"_s,
         Access::tr("SSH keys: list; generate NAME; upload NAME|PATH.pub; import PATH.pub; "
                    "rm NAME."),
         u"list|generate|upload|import|rm [NAME|PATH]"_s,
         {QCommandLineOption(u"name"_s, Access::tr("upload: the name on the provider."), u"NAME"_s),
          QCommandLineOption(u"no-upload"_s, Access::tr("generate: keep it on this computer."))},
         keys},
    };
}

} // namespace cardhour::ctl
