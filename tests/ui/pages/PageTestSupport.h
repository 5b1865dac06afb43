#pragma once

// What the page tests share: a ClientSession signed up to a real cardhour-sim (by URL or as the
// local sandbox), waiting for it, and screenshots of a widget in the light and the dark theme.
#include "AppSettings.h"
#include "api/EventStream.h"
#include "session/ClientSession.h"

#include <QCoreApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>
#include <QWidget>

#include <memory>

namespace cardhour::test {

using namespace Qt::StringLiterals;

inline core::ClientSession::Options pageSessionOptions()
{
    core::ClientSession::Options o;
    // A keychain service of this run only, short waits where there is no keychain at all.
    o.keychainService = u"CardHourPageTest-%1"_s.arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = 3000;
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 500;
    return o;
}

// Waits for the session to ask for a log-in, then signs up `email`; true once logged in with
// the event stream up.
inline bool signUpWhenAsked(core::ClientSession &session, QSignalSpy &loginNeeded,
                            const QString &email)
{
    if (!QTest::qWaitFor([&] { return loginNeeded.count() > 0 || session.isLoggedIn(); }, 60000))
        return false;
    if (!session.isLoggedIn())
        session.signUp(email, u"correct horse battery"_s);
    return QTest::qWaitFor([&] { return session.isLoggedIn() && session.events()->isConnected(); },
                           30000);
}

// Saves `widget` as <dir>/<name>.png in the light theme and <name>-dark.png in the dark one.
inline bool shootLightAndDark(QWidget *widget, const QString &dir, const QString &name)
{
    QDir().mkpath(dir);
    bool ok = true;
    for (const QString &theme : {u"light"_s, u"dark"_s}) {
        ui::Theme::apply(theme);
        QCoreApplication::processEvents();
        const QString path = dir + u'/' + name + (theme == u"dark"_s ? u"-dark.png"_s : u".png"_s);
        ok = widget->grab().save(path) && ok;
    }
    ui::Theme::apply(u"light"_s);
    QCoreApplication::processEvents();
    return ok;
}

} // namespace cardhour::test
