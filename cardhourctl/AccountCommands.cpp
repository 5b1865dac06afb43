// login, logout, whoami: the session the desktop client keeps too (same keychain entry).
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "billing/Money.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QElapsedTimer>
#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Account
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Account)
};

int login(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Account::tr("login takes no arguments; the e-mail goes in --email."));
    const int connected = ctx.connect(false);
    if (connected != Ok && connected != NotLoggedIn)
        return connected;

    QString email = ctx.value(u"email"_s);
    QString password;
    if (Output::stdinIsTerminal()) {
        if (email.isEmpty())
            email = Output::prompt(Account::tr("E-mail: ")).trimmed();
        password = Output::prompt(Account::tr("Password: "), false);
    } else {
        if (email.isEmpty())
            return ctx.usage(Account::tr("--email is needed when stdin is not a terminal (the "
                                         "password is read from stdin)."));
        password = Output::readLine(false);
    }
    if (email.isEmpty() || password.isEmpty())
        return ctx.usage(Account::tr("an e-mail address and a password are needed."));

    ClientSession *session = ctx.session();
    std::optional<ApiError> failure;
    bool done = false;
    QEventLoop loop;
    QObject guard;
    QObject::connect(session, &ClientSession::loggedIn, &guard, [&] {
        done = true;
        loop.quit();
    });
    QObject::connect(session, &ClientSession::loginFailed, &guard, [&](const ApiError &error) {
        failure = error;
        done = true;
        loop.quit();
    });
    if (ctx.isSet(u"sign-up"_s))
        session->signUp(email, password);
    else
        session->logIn(email, password);
    if (!done)
        loop.exec();
    if (failure)
        return ctx.fail(*failure);

    // The token goes to the keychain after loggedIn(): wait for it, so the next command (or
    // the desktop client) finds it. tokenStorageFailed() arrives as a notice on stderr.
    bool storageFailed = false;
    QObject::connect(session->session(), &Session::tokenStorageFailed, &guard,
                     [&] { storageFailed = true; });
    QElapsedTimer waited;
    waited.start();
    while (!session->session()->isTokenStored() && !storageFailed && waited.elapsed() < 20000)
        Context::sleep(20);
    const SessionUser user = session->session()->user();
    if (ctx.json) {
        Output::json(
            QJsonObject{{u"user"_s, QJsonObject{{u"id"_s, user.id}, {u"email"_s, user.email}}},
                        {u"provider"_s, session->session()->providerUrl().toString()},
                        {u"token_stored"_s, session->session()->isTokenStored()}});
    } else {
        Output::error(Account::tr("Logged in to %1 as %2.")
                          .arg(session->session()->providerUrl().toDisplayString(), user.email));
    }
    return session->session()->isTokenStored() ? Ok : Failed;
}

int logout(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Account::tr("logout takes no arguments."));
    const int connected = ctx.connect(false);
    if (connected == NotLoggedIn) {
        Output::error(Account::tr("Not logged in."));
        return Ok;
    }
    if (connected != Ok)
        return connected;
    ClientSession *session = ctx.session();
    const QString email = session->session()->user().email;
    QEventLoop loop;
    QObject guard;
    QObject::connect(session, &ClientSession::loggedOut, &guard, [&] { loop.quit(); });
    session->logOut();
    loop.exec();
    Output::error(Account::tr("Logged out %1.").arg(email));
    return Ok;
}

int whoami(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Account::tr("whoami takes no arguments."));
    if (const int connected = ctx.connect(); connected != Ok)
        return connected;
    const Result<core::Account> me = ctx.await(ctx.client()->me());
    if (!me.ok())
        return ctx.fail(me.error);
    const QString provider = ctx.session()->session()->providerUrl().toString();
    if (ctx.json) {
        QJsonObject o = ModelJson::toJson(*me.value);
        o.insert(u"provider"_s, provider);
        o.insert(u"sandbox"_s, ctx.session()->usingSandbox());
        Output::json(o);
        return Ok;
    }
    Output::line(me.value->email);
    Output::raw(Output::table(
        {},
        {{Account::tr("provider:"), provider},
         {Account::tr("user id:"), me.value->id},
         {Account::tr("balance:"), Money::format(me.value->balanceMicros)},
         {Account::tr("spending:"),
          Account::tr("%1/h").arg(Money::format(me.value->spendRateMicrosPerHour))}}));
    return Ok;
}

} // namespace

QList<Command> accountCommands()
{
    return {
        {u"login"_s,
         Account::tr("Log in (the password from a prompt, or from stdin when it is no terminal)."),
         {},
         {QCommandLineOption(u"email"_s, Account::tr("The account's e-mail address."), u"EMAIL"_s),
          QCommandLineOption(u"sign-up"_s, Account::tr("Create the account first."))},
         login},
        {u"logout"_s,
         Account::tr("Log out: the provider revokes the token, the keychain forgets it."),
         {},
         {},
         logout},
        {u"whoami"_s, Account::tr("Who is logged in, where, and the balance."), {}, {}, whoami},
    };
}

} // namespace cardhour::ctl
