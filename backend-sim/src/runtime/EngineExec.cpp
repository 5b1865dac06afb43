#include "EngineExec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace cardhour::sim::cli {

namespace {
QString execPath(const QString &execId, const QString &action)
{
    return u"/exec/"_s + QString::fromLatin1(QUrl::toPercentEncoding(execId)) + u'/' + action;
}
} // namespace

std::optional<ApiCall> execCallFor(Engine engine, const QStringList &args)
{
    // Only podman's is known here; a flag (-i, -u, --env, ...) is left to the command line.
    if (engine != Engine::Podman || args.size() < 3 || args.value(0) != u"exec"_s
        || args.at(1).startsWith(u'-'))
        return std::nullopt;
    ApiCall call;
    call.method = "POST";
    call.path =
        u"/containers/"_s + QString::fromLatin1(QUrl::toPercentEncoding(args.at(1))) + u"/exec"_s;
    const QJsonObject body{{u"AttachStdout"_s, true},
                           {u"AttachStderr"_s, true},
                           {u"Cmd"_s, QJsonArray::fromStringList(args.mid(2))}};
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    call.execAfterCreate = true;
    return call;
}

ApiCall execStartCall(const QString &execId)
{
    ApiCall call;
    call.method = "POST";
    call.path = execPath(execId, u"start"_s);
    call.body = R"({"Detach":false,"Tty":false})"_ba;
    return call;
}

ApiCall execInspectCall(const QString &execId)
{
    ApiCall call;
    call.method = "GET";
    call.path = execPath(execId, u"json"_s);
    return call;
}

void demultiplex(const QByteArray &stream, QByteArray *out, QByteArray *err)
{
    qsizetype at = 0;
    while (stream.size() - at >= 8) {
        const auto byte = [&stream](qsizetype i) { return quint32(quint8(stream.at(i))); };
        const quint32 size =
            (byte(at + 4) << 24) | (byte(at + 5) << 16) | (byte(at + 6) << 8) | byte(at + 7);
        const QByteArray part =
            stream.sliced(at + 8, qMin(qsizetype(size), stream.size() - at - 8));
        (stream.at(at) == 2 ? err : out)->append(part);
        at += 8 + part.size();
    }
}

ProcessResult execResult(const EngineReply &started, const EngineReply &inspected)
{
    ApiCall start;
    start.method = "POST";
    ProcessResult result = resultOf(start, started);
    if (!result.ok())
        return result;
    demultiplex(started.body, &result.out, &result.err);
    const QJsonObject session = QJsonDocument::fromJson(inspected.body).object();
    if (!inspected.ok() || !session.contains(u"ExitCode"_s)) {
        result.exitCode = 125;
        result.err += (u"Error: the exec session's exit code: "_s + inspected.message()).toUtf8();
        return result;
    }
    result.exitCode = session.value(u"ExitCode"_s).toInt();
    return result;
}

} // namespace cardhour::sim::cli
