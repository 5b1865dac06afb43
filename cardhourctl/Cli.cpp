#include "Cli.h"

#include "CardHourVersion.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "api/ProviderUrl.h"
#include "api/TlsTrust.h"
#include "sandbox/SandboxLauncher.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "session/Session.h"
#include "ssh/SshKeyStore.h"

#include <QFileInfo>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

QList<QCommandLineOption> globalOptions()
{
    return {
        QCommandLineOption(u"provider"_s,
                           Cli::tr("The provider at URL (default: $CARDHOUR_PROVIDER_URL, else "
                                   "the local sandbox)."),
                           u"URL"_s),
        QCommandLineOption(u"sandbox"_s,
                           Cli::tr("Start or attach to the local sandbox, as the desktop client "
                                   "does.")),
        QCommandLineOption(u"ca"_s,
                           Cli::tr("Also trust the certificate authorities in FILE (PEM) for an "
                                   "https:// provider with a certificate of its own."),
                           u"FILE"_s),
        QCommandLineOption(u"json"_s, Cli::tr("Print data as JSON (the API's field names).")),
        QCommandLineOption({u"h"_s, u"help"_s}, Cli::tr("Show help (for a command: after it).")),
        QCommandLineOption(u"version"_s, Cli::tr("Show the version.")),
    };
}

QString optionLines(const QList<QCommandLineOption> &options)
{
    QList<QStringList> rows;
    for (const QCommandLineOption &option : options) {
        QStringList names;
        for (const QString &name : option.names())
            names.append((name.size() == 1 ? u"-"_s : u"--"_s) + name);
        QString left = names.join(u", "_s);
        if (!option.valueName().isEmpty())
            left += u' ' + option.valueName();
        rows.append({u"  "_s + left, option.description()});
    }
    QString text;
    int width = 0;
    for (const QStringList &row : rows)
        width = qMax(width, Output::displayWidth(row[0]));
    for (const QStringList &row : rows)
        text += Output::padded(row[0], width) + u"  "_s + row[1] + u'\n';
    return text;
}

QString exitCodeLines()
{
    return Cli::tr("Exit status:\n"
                   "  0  done\n"
                   "  1  failed (the provider refused, could not be reached, or the work failed)\n"
                   "  2  usage (a wrong command line, or an answer needed and no terminal)\n"
                   "  3  not logged in, or the provider refused the token\n"
                   "  4  not found (no such host or key)\n"
                   "  5  refused for money (HTTP 402: the balance does not cover it)\n"
                   "  6  timed out\n"
                   "  7  interrupted (the provider stopped the interruptible host waited for)\n");
}

QString commandHelp(const Command &command)
{
    QString text = Cli::tr("Usage: cardhourctl %1 [options]").arg(command.name);
    if (!command.arguments.isEmpty())
        text += u' ' + command.arguments;
    text += u"\n\n"_s + command.summary + u"\n\n"_s;
    if (!command.options.isEmpty())
        text += Cli::tr("Options:\n") + optionLines(command.options) + u'\n';
    text += Cli::tr("Global options:\n") + optionLines(globalOptions()) + u'\n' + exitCodeLines();
    return text;
}

} // namespace

QString Cli::helpText(const QList<Command> &commands)
{
    QString text = tr("Usage: cardhourctl [global options] COMMAND [options] [arguments]\n\n"
                      "CardHour on the command line: the same provider, log-in and SSH keys as "
                      "the desktop client.\n\nCommands:\n");
    QList<QStringList> rows;
    int width = 0;
    for (const Command &command : commands)
        width = qMax(width, Output::displayWidth(command.name));
    for (const Command &command : commands)
        text += u"  "_s + Output::padded(command.name, width) + u"  "_s + command.summary + u'\n';
    text += u'\n' + tr("Global options:\n") + optionLines(globalOptions()) + u'\n';
    text += exitCodeLines() + u'\n';
    text += tr("Environment:\n"
               "  CARDHOUR_PROVIDER_URL      the provider when --provider is not given\n"
               "  CARDHOUR_KEYCHAIN_SERVICE  the keychain service name (default CardHour)\n"
               "  CARDHOUR_SSH               the OpenSSH client to run (default ssh)\n\n"
               "`cardhourctl COMMAND --help` describes a command.\n");
    return text;
}

int Cli::run(const QStringList &arguments)
{
    QList<Command> commands = accountCommands() + hostCommands() + accessCommands() + copyCommands()
        + appCommands() + snapshotCommands() + moneyCommands() + watchCommands() + topCommands()
        + limitCommands() + modelCommands() + chaosCommands();
    addLaunchStopOptions(commands);

    QString name;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        if (arg == u"--"_s)
            break;
        if (arg == u"--provider"_s || arg == u"--ca"_s) { // global options with a value
            ++i;
            continue;
        }
        if (arg.startsWith(u'-'))
            continue;
        name = arg;
        break;
    }

    const Command *command = nullptr;
    for (const Command &candidate : commands) {
        if (candidate.name == name)
            command = &candidate;
    }

    QCommandLineParser parser;
    parser.addOptions(globalOptions());
    if (command)
        parser.addOptions(command->options);
    if (!parser.parse(arguments)) {
        Output::error(u"cardhourctl: "_s + parser.errorText());
        Output::error(tr("Try `cardhourctl %1 --help`.").arg(name.isEmpty() ? u""_s : name));
        return Usage;
    }
    if (!command) {
        if (parser.isSet(u"version"_s)) {
            Output::line(u"cardhourctl "_s + QString::fromLatin1(CARDHOUR_VERSION));
            return Ok;
        }
        if (parser.isSet(u"help"_s)) {
            Output::raw(helpText(commands));
            return Ok;
        }
        if (name.isEmpty())
            Output::error(helpText(commands));
        else
            Output::error(
                tr("cardhourctl: no command %1; `cardhourctl --help` lists them.").arg(name));
        return Usage;
    }
    if (parser.isSet(u"help"_s)) {
        Output::raw(commandHelp(*command));
        return Ok;
    }
    if (parser.isSet(u"sandbox"_s) && parser.isSet(u"provider"_s)) {
        Output::error(tr("cardhourctl: --sandbox and --provider exclude each other."));
        return Usage;
    }

    QStringList positional = parser.positionalArguments();
    positional.removeFirst(); // the command's name
    Context context(parser, positional);
    context.commandName = command->name;
    context.json = parser.isSet(u"json"_s);
    return command->run(context);
}

// ---- Context ---------------------------------------------------------------------------------

Context::Context(QCommandLineParser &parser, QStringList positional)
    : parser(parser), args(std::move(positional))
{}

Context::~Context() = default;

ProviderClient *Context::client() const
{
    return m_session ? m_session->client() : nullptr;
}

SshKeyPair Context::awaitKey(SshKeyReply *reply, QString *error)
{
    QEventLoop loop;
    SshKeyPair key;
    QObject::connect(reply, &SshKeyReply::finished, &loop, [&] {
        if (reply->ok())
            key = reply->key();
        else
            *error = reply->error();
        loop.quit();
    });
    loop.exec();
    return key;
}

SshKeyStore *Context::keyStore()
{
    if (!m_keyStore) {
        SecretStore *secrets = m_session ? m_session->secrets() : nullptr;
        if (!secrets) {
            m_secrets = std::make_unique<SecretStore>(keychainService());
            secrets = m_secrets.get();
        }
        m_keyStore = std::make_unique<SshKeyStore>(secrets);
    }
    return m_keyStore.get();
}

QString Context::keychainService()
{
    const QString service = qEnvironmentVariable("CARDHOUR_KEYCHAIN_SERVICE");
    return service.isEmpty() ? ClientSession::Options().keychainService : service;
}

void Context::sleep(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

int Context::connect(bool needLogin)
{
    if (m_session)
        return m_session->isLoggedIn() ? Ok : NotLoggedIn;

    ClientSession::Options options;
    options.keychainService = keychainService();
    if (parser.isSet(u"ca"_s)) {
        QString caError;
        const auto cas = TlsTrust::loadCaFile(parser.value(u"ca"_s), &caError);
        if (!cas) {
            Output::error(u"cardhourctl: "_s + caError);
            return Usage;
        }
        options.caCertificates = *cas;
    }
#ifdef CARDHOUR_BUILD_SIM_PATH
    // Run from the build tree: the sandbox is wherever the build put it (as app/main.cpp).
    if (!QFileInfo::exists(SandboxLauncher::defaultExecutable())
        && QFileInfo::exists(QString::fromUtf8(CARDHOUR_BUILD_SIM_PATH)))
        options.sandboxExecutable = QString::fromUtf8(CARDHOUR_BUILD_SIM_PATH);
#endif
    m_session = std::make_unique<ClientSession>(options);

    QString provider = parser.value(u"provider"_s);
    if (provider.isEmpty() && !parser.isSet(u"sandbox"_s))
        provider = qEnvironmentVariable("CARDHOUR_PROVIDER_URL");
    QUrl providerUrl;
    if (!provider.isEmpty()) {
        QString problem;
        providerUrl = ProviderUrl::parse(provider, &problem);
        if (providerUrl.isEmpty()) {
            Output::error(u"cardhourctl: "_s + problem);
            return Usage;
        }
    }

    std::optional<int> code;
    QString message;
    QEventLoop loop;
    QObject guard;
    const auto settle = [&](int value, const QString &text) {
        if (code)
            return;
        code = value;
        message = text;
        loop.quit();
    };
    QObject::connect(m_session.get(), &ClientSession::connectFailed, &guard,
                     [&](const QString &text) { settle(Failed, text); });
    QObject::connect(m_session.get(), &ClientSession::loggedIn, &guard, [&] { settle(Ok, {}); });
    QObject::connect(m_session.get(), &ClientSession::loginNeeded, &guard,
                     [&](const QString &note) { settle(NotLoggedIn, note); });
    QObject::connect(
        m_session.get(), &ClientSession::loginFailed, &guard, [&](const ApiError &error) {
            settle(error.isUnauthorized() ? NotLoggedIn : codeFor(error), error.userMessage());
        });
    QObject::connect(m_session.get(), &ClientSession::notice, &guard,
                     [](const QString &text) { Output::error(text); });
    if (provider.isEmpty())
        m_session->connectToSandbox();
    else
        m_session->connectToUrl(providerUrl);
    loop.exec();

    if (*code == NotLoggedIn && needLogin) {
        if (!message.isEmpty())
            Output::error(message);
        Output::error(tr("Not logged in to %1. Run `cardhourctl login` first.")
                          .arg(m_session->session()->providerUrl().toDisplayString()));
    } else if (*code != Ok && *code != NotLoggedIn) {
        Output::error(tr("cardhourctl: %1").arg(message));
    }
    return *code;
}

int Context::codeFor(const ApiError &error)
{
    if (error.isUnauthorized())
        return NotLoggedIn;
    if (error.kind == ApiError::Kind::Timeout)
        return TimedOut;
    if (error.kind == ApiError::Kind::Http && error.httpStatus == 404)
        return NotFound;
    if (error.kind == ApiError::Kind::Http && error.httpStatus == 402)
        return RefusedForMoney;
    return Failed;
}

int Context::fail(const ApiError &error) const
{
    const int code = codeFor(error);
    Output::error(tr("cardhourctl %1: %2").arg(commandName, error.userMessage()));
    if (code == NotLoggedIn)
        Output::error(tr("Run `cardhourctl login` to log in again."));
    return code;
}

int Context::usage(const QString &message) const
{
    Output::error(tr("cardhourctl %1: %2").arg(commandName, message));
    Output::error(tr("Try `cardhourctl %1 --help`.").arg(commandName));
    return Usage;
}

bool Context::oneArgument(const QString &what, QString *out, int *code) const
{
    if (args.size() != 1) {
        *code = usage(args.isEmpty() ? tr("%1 is missing.").arg(what)
                                     : tr("one %1 only, not %2.").arg(what, args.join(u' ')));
        return false;
    }
    *out = args.first();
    return true;
}

std::optional<Instance> Context::findInstance(const QString &nameOrId, int *code,
                                              bool includeTerminated)
{
    const Result<QList<Instance>> list = await(client()->instances(includeTerminated));
    if (!list.ok()) {
        *code = fail(list.error);
        return std::nullopt;
    }
    QList<Instance> byName;
    for (const Instance &instance : *list.value) {
        if (instance.id == nameOrId)
            return instance;
        if (instance.name == nameOrId)
            byName.append(instance);
    }
    if (byName.size() == 1)
        return byName.first();
    if (byName.size() > 1) {
        *code = usage(tr("%1 hosts are called %2; give the id.").arg(byName.size()).arg(nameOrId));
        return std::nullopt;
    }
    Output::error(
        tr("cardhourctl %1: no host %2 (`cardhourctl ls` lists them).").arg(commandName, nameOrId));
    *code = NotFound;
    return std::nullopt;
}

} // namespace cardhour::ctl
