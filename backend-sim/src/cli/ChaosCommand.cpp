#include "cli/ChaosCommand.h"

#include "cli/RegistryCommand.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

using namespace registry_command;

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitToken = 3;
// Above the API's longest rehearsed delay (10 s), so a slowed answer is still read.
constexpr int kRequestTimeoutMs = 30'000;

int chaosUsage(QTextStream &err)
{
    err << "usage: cardhour-sim chaos add fail-launch [--reason TEXT]\n"
           "       cardhour-sim chaos add slow-api --delay-ms N --duration-s S\n"
           "       cardhour-sim chaos add drop-ssh|fill-disk|interrupt INSTANCE\n"
           "       cardhour-sim chaos list\n"
           "       cardhour-sim chaos clear ID | --all\n"
           "  every verb takes [--url URL] [--data DIR] [--email EMAIL] [--json]\n"
           "  the token: $CARDHOUR_TOKEN, or --email with the password on stdin\n"
           "  the provider must run with --allow-chaos (the desktop client's sandbox does)\n";
    return kExitUsage;
}

struct Answer
{
    int status = 0; // 0: no answer
    QByteArray body;
    QString networkError;
};

class ApiCaller
{
public:
    explicit ApiCaller(QUrl base) : m_base(std::move(base)) {}
    void setToken(const QByteArray &token) { m_token = token; }

    Answer call(const QByteArray &method, const QString &path, const QJsonObject &body = {})
    {
        QUrl url = m_base;
        url.setPath(m_base.path().chopped(m_base.path().endsWith(u'/') ? 1 : 0) + path);
        QNetworkRequest request(url);
        request.setTransferTimeout(kRequestTimeoutMs);
        if (!m_token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_token);
        QByteArray data;
        if (!body.isEmpty()) {
            data = QJsonDocument(body).toJson(QJsonDocument::Compact);
            request.setRawHeader("Content-Type", "application/json");
        }
        QNetworkReply *reply = m_nam.sendCustomRequest(request, method, data);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        Answer answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.body = reply->readAll();
        if (answer.status == 0)
            answer.networkError = reply->errorString();
        reply->deleteLater();
        return answer;
    }

private:
    QUrl m_base;
    QByteArray m_token;
    QNetworkAccessManager m_nam;
};

QUrl defaultUrl(const QString &dataDir)
{
    QFile recorded(QDir(dataDir).filePath(u"cardhour-sim.url"_s));
    if (recorded.open(QIODevice::ReadOnly)) {
        const QUrl url(QString::fromUtf8(recorded.readAll().trimmed()));
        if (url.isValid() && !url.host().isEmpty())
            return url;
    }
    return QUrl(u"http://127.0.0.1:8787"_s);
}

QString errorMessage(const Answer &answer)
{
    if (answer.status == 0)
        return u"the provider did not answer: %1"_s.arg(answer.networkError);
    const QJsonObject error =
        QJsonDocument::fromJson(answer.body).object().value(u"error"_s).toObject();
    const QString code = error.value(u"code"_s).toString();
    return code.isEmpty() ? u"HTTP %1"_s.arg(answer.status)
                          : u"%1 (%2)"_s.arg(error.value(u"message"_s).toString(), code);
}

// One line per fault: id, kind, state, host, and what happened.
QString describeFault(const QJsonObject &f)
{
    QString what = f.value(u"detail"_s).toString();
    if (f.value(u"kind"_s).toString() == u"slow_api"_s)
        what = u"%1 ms per answer until %2. %3"_s.arg(f.value(u"delay_ms"_s).toInt())
                   .arg(f.value(u"expires_at"_s).toString(), what);
    if (f.value(u"kind"_s).toString() == u"fail_launch"_s && what.isEmpty())
        what = u"next launch fails: %1"_s.arg(f.value(u"reason"_s).toString());
    return u"%1  %2  %3  %4  %5"_s.arg(f.value(u"id"_s).toString(), f.value(u"kind"_s).toString(),
                                       f.value(u"state"_s).toString(),
                                       f.value(u"instance_id"_s).toString(u"-"_s), what.trimmed());
}

// The body of POST /v1/chaos/faults from `add KIND ...`; empty with *usage set on bad input.
QJsonObject newFault(QStringList args, bool *usage)
{
    *usage = true;
    if (args.isEmpty())
        return {};
    const QString kind = args.takeFirst().replace(u'-', u'_');
    QJsonObject body{{u"kind"_s, kind}};
    QString reason, delay, duration;
    if (!takeOption(args, u"--reason"_s, &reason) || !takeOption(args, u"--delay-ms"_s, &delay)
        || !takeOption(args, u"--duration-s"_s, &duration))
        return {};
    if (!reason.isEmpty())
        body.insert(u"reason"_s, reason);
    bool ok = true;
    if (!delay.isEmpty())
        body.insert(u"delay_ms"_s, delay.toInt(&ok));
    if (ok && !duration.isEmpty())
        body.insert(u"duration_s"_s, duration.toInt(&ok));
    if (!ok)
        return {};
    if (args.size() == 1)
        body.insert(u"instance_id"_s, args.takeFirst());
    if (!args.isEmpty())
        return {};
    *usage = false; // the rest (kinds, ranges, which fields a kind takes) the provider checks
    return body;
}

// Logs in with --email and the password on stdin; the token, or empty (printed why).
QByteArray logIn(ApiCaller &api, const QString &email, QTextStream &err)
{
    QTextStream in(stdin);
    const QString password = in.readLine();
    const Answer answer =
        api.call("POST", u"/v1/auth/login"_s, {{u"email"_s, email}, {u"password"_s, password}});
    if (answer.status != 200) {
        err << "cardhour-sim: log-in refused: " << errorMessage(answer) << "\n";
        return {};
    }
    return QJsonDocument::fromJson(answer.body).object().value(u"token"_s).toString().toUtf8();
}

int printAnswer(const Answer &answer, int expected, bool json, QTextStream &out, QTextStream &err)
{
    if (answer.status != expected) {
        err << "cardhour-sim: " << errorMessage(answer) << "\n";
        return answer.status == 401 ? kExitToken : 1;
    }
    if (json) {
        out << answer.body << "\n";
        return 0;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(answer.body);
    if (doc.isObject())
        out << describeFault(doc.object()) << "\n";
    for (const QJsonValue &fault : doc.array())
        out << describeFault(fault.toObject()) << "\n";
    if (doc.isArray() && doc.array().isEmpty())
        out << "no faults (add one with: cardhour-sim chaos add fail-launch)\n";
    return 0;
}

int clearAll(ApiCaller &api, bool json, QTextStream &out, QTextStream &err)
{
    const Answer listed = api.call("GET", u"/v1/chaos/faults"_s);
    if (listed.status != 200)
        return printAnswer(listed, 200, json, out, err);
    QJsonArray cleared;
    for (const QJsonValue &fault : QJsonDocument::fromJson(listed.body).array()) {
        const QString state = fault.toObject().value(u"state"_s).toString();
        if (state != u"armed"_s && state != u"active"_s)
            continue;
        const Answer answer =
            api.call("DELETE", u"/v1/chaos/faults/"_s + fault.toObject().value(u"id"_s).toString());
        if (answer.status != 200)
            return printAnswer(answer, 200, json, out, err);
        cleared.append(QJsonDocument::fromJson(answer.body).object());
    }
    Answer all;
    all.status = 200;
    all.body = QJsonDocument(cleared).toJson(QJsonDocument::Compact);
    return printAnswer(all, 200, json, out, err);
}

int runVerb(ApiCaller &api, const QString &verb, const QStringList &args, bool json,
            QTextStream &out, QTextStream &err)
{
    if (verb == u"list"_s && args.isEmpty())
        return printAnswer(api.call("GET", u"/v1/chaos/faults"_s), 200, json, out, err);
    if (verb == u"clear"_s && args == QStringList{u"--all"_s})
        return clearAll(api, json, out, err);
    if (verb == u"clear"_s && args.size() == 1)
        return printAnswer(api.call("DELETE", u"/v1/chaos/faults/"_s + args.first()), 200, json,
                           out, err);
    bool usage = true;
    const QJsonObject body = verb == u"add"_s ? newFault(args, &usage) : QJsonObject();
    if (usage)
        return chaosUsage(err);
    return printAnswer(api.call("POST", u"/v1/chaos/faults"_s, body), 201, json, out, err);
}

} // namespace

int runChaosCommand(const QStringList &argsIn, const QString &defaultDataDir)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = argsIn;
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        chaosUsage(out);
        return 0;
    }
    QString dataDir = defaultDataDir;
    QString url;
    QString email;
    const bool json = args.removeAll(u"--json"_s) > 0;
    if (!takeOption(args, u"--data"_s, &dataDir) || !takeOption(args, u"--url"_s, &url)
        || !takeOption(args, u"--email"_s, &email) || args.isEmpty())
        return chaosUsage(err);
    const QUrl base = url.isEmpty() ? defaultUrl(dataDir) : QUrl(url);
    if (!base.isValid() || base.host().isEmpty())
        return fail(err, u"--url wants an address such as http://127.0.0.1:8787"_s);
    ApiCaller api(base);
    QByteArray token = qgetenv("CARDHOUR_TOKEN");
    if (!email.isEmpty())
        token = logIn(api, email, err);
    if (token.isEmpty()) {
        if (email.isEmpty())
            err << "cardhour-sim: no token: set CARDHOUR_TOKEN, or give --email EMAIL and the "
                   "password on stdin\n";
        return kExitToken;
    }
    api.setToken(token);
    const QString verb = args.takeFirst();
    const int code = runVerb(api, verb, args, json, out, err);
    if (!email.isEmpty())
        api.call("POST", u"/v1/auth/logout"_s); // the token of this one command ends with it
    return code;
}

} // namespace cardhour::sim
