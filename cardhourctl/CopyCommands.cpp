// cp: files and folders to and from a host over SFTP, through the desktop client's transfer
// (core/ssh/SftpTransfer: resumable NAME.cardhour-part files, SHA-256 checked on both ends).
#include "Cli.h"
#include "Output.h"
#include "ssh/SftpTransfer.h"
#include "ssh/SshTarget.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonObject>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Copy
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Copy)
};

constexpr int kBarColumns = 30;
constexpr qint64 kBarRefreshMs = 100;

// `NAME:PATH` names a path on host NAME; anything else (a path with a slash before the first
// colon, or no colon) is local. An empty PATH is the host's /workspace.
struct Endpoint
{
    bool remote = false;
    QString host;
    QString path;
};

Endpoint parseEndpoint(const QString &text)
{
    const qsizetype colon = text.indexOf(u':');
    const qsizetype slash = text.indexOf(u'/');
    if (colon <= 0 || (slash >= 0 && slash < colon))
        return {false, {}, text};
    // A relative remote path is taken inside /workspace, where a host's work lives.
    QString path = text.mid(colon + 1);
    if (!path.startsWith(u'/'))
        path = path.isEmpty() ? u"/workspace"_s : u"/workspace/"_s + path;
    return {true, text.left(colon), path};
}

QString lastComponent(const QString &path)
{
    QString trimmed = path;
    while (trimmed.size() > 1 && trimmed.endsWith(u'/'))
        trimmed.chop(1);
    return trimmed.section(u'/', -1);
}

// The folder a copy lands in. SftpTransfer keeps the source's name, so a destination that ends
// in that same name means its folder (`cp a.bin h:/workspace/a.bin`); another name is a folder.
QString landingFolder(const QString &destination, const QString &sourceName, bool localDestination)
{
    if (lastComponent(destination) != sourceName)
        return destination;
    if (localDestination && QFileInfo(destination).isDir())
        return destination;
    const QString folder = destination.section(u'/', 0, -2, QString::SectionSkipEmpty);
    if (localDestination)
        return folder.isEmpty() ? (destination.startsWith(u'/') ? u"/"_s : u"."_s)
                                : (destination.startsWith(u'/') ? u"/"_s + folder : folder);
    return u"/"_s + folder;
}

QString bytesText(qint64 bytes)
{
    const double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        return Copy::tr("%1 GiB").arg(mib / 1024.0, 0, 'f', 2);
    return Copy::tr("%1 MiB").arg(mib, 0, 'f', 1);
}

// One line on stderr, rewritten in place: [#####.....]  42%  120.0 MiB of 286.1 MiB  55.2 MiB/s
void drawBar(qint64 done, qint64 total, double speed, const QString &file)
{
    const double share = total > 0 ? qBound(0.0, double(done) / double(total), 1.0) : 1.0;
    const int filled = int(share * kBarColumns);
    const QString bar = QString(filled, u'#') + QString(kBarColumns - filled, u'.');
    const QString line = Copy::tr("[%1] %2%  %3 of %4  %5/s  %6")
                             .arg(bar)
                             .arg(int(share * 100), 3)
                             .arg(bytesText(done), bytesText(total), bytesText(qint64(speed)),
                                  QFileInfo(file).fileName());
    std::fputs("\r\x1b[K", stderr);
    std::fputs(line.toUtf8().constData(), stderr);
    std::fflush(stderr);
}

int cp(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Copy::tr("cp takes SOURCE DESTINATION: LOCAL NAME:REMOTE to upload, "
                                  "NAME:REMOTE LOCAL to download."));
    const Endpoint from = parseEndpoint(ctx.args[0]);
    const Endpoint to = parseEndpoint(ctx.args[1]);
    if (from.remote == to.remote)
        return ctx.usage(from.remote
                             ? Copy::tr("both %1 and %2 are on hosts; one side must be local.")
                                   .arg(ctx.args[0], ctx.args[1])
                             : Copy::tr("neither %1 nor %2 names a host (NAME:PATH).")
                                   .arg(ctx.args[0], ctx.args[1]));
    const bool uploading = to.remote;
    if (uploading && !QFileInfo::exists(from.path))
        return ctx.usage(Copy::tr("%1 does not exist.").arg(from.path));
    if (!uploading && QFileInfo(to.path).exists() && !QFileInfo(to.path).isDir()
        && lastComponent(to.path) != lastComponent(from.path))
        return ctx.usage(Copy::tr("%1 is a file; the copy keeps its name %2, so give a folder.")
                             .arg(to.path, lastComponent(from.path)));

    int code = Ok;
    const std::optional<SshTarget> target =
        resolveTarget(ctx, uploading ? to.host : from.host, &code);
    if (!target)
        return code;

    const QString sourceName =
        uploading ? QFileInfo(QDir::cleanPath(from.path)).fileName() : lastComponent(from.path);
    const QString folder = landingFolder(to.path, sourceName, !uploading);

    SftpTransfer transfer(*target);
    const bool bar = Output::stderrIsTerminal() && !ctx.json;
    QElapsedTimer sinceDrawn;
    sinceDrawn.start();
    QObject::connect(&transfer, &SftpTransfer::progress, &transfer,
                     [&](qint64 done, qint64 total, double speed, const QString &file) {
                         if (bar && (sinceDrawn.elapsed() >= kBarRefreshMs || done == total)) {
                             drawBar(done, total, speed, file);
                             sinceDrawn.restart();
                         }
                     });
    QEventLoop loop;
    QString message;
    QObject::connect(&transfer, &SftpTransfer::finished, &loop, [&](bool, const QString &text) {
        message = text;
        loop.quit();
    });
    if (uploading)
        transfer.upload(from.path, folder);
    else
        transfer.download(from.path, folder);
    loop.exec();
    if (bar)
        std::fputs("\n", stderr);

    const SftpTransfer::Result result = transfer.result();
    if (!result.ok) {
        Output::error(Copy::tr("cardhourctl cp: %1").arg(message));
        return Failed;
    }
    const QString destination =
        uploading ? folder + u'/' + sourceName : QDir(folder).filePath(sourceName);
    if (ctx.json) {
        Output::json(QJsonObject{{u"direction"_s, uploading ? u"upload"_s : u"download"_s},
                                 {u"instance"_s, target->instanceName},
                                 {u"source"_s, from.path},
                                 {u"destination"_s, QDir::cleanPath(destination)},
                                 {u"files"_s, result.files},
                                 {u"bytes_total"_s, result.bytesTotal},
                                 {u"bytes_sent"_s, result.bytesSent},
                                 {u"resumed_from_bytes"_s, result.resumedFromBytes},
                                 {u"elapsed_ms"_s, result.elapsedMs},
                                 {u"bytes_per_second"_s, qRound64(result.bytesPerSecond())},
                                 {u"verified"_s, u"sha256"_s}});
        return Ok;
    }
    Output::error(message);
    if (result.resumedFromBytes > 0)
        Output::error(Copy::tr("Resumed: %1 were already there, %2 sent.")
                          .arg(bytesText(result.resumedFromBytes), bytesText(result.bytesSent)));
    Output::error(Copy::tr("%1 in %2 s (%3/s).")
                      .arg(bytesText(result.bytesTotal))
                      .arg(double(result.elapsedMs) / 1000.0, 0, 'f', 1)
                      .arg(bytesText(qint64(result.bytesPerSecond()))));
    return Ok;
}

} // namespace

QList<Command> copyCommands()
{
    return {
        {u"cp"_s,
         Copy::tr("Copy a file or folder to or from a host over SFTP (resumable, SHA-256 "
                  "checked)."),
         u"LOCAL NAME:REMOTE | NAME:REMOTE LOCAL"_s,
         {},
         cp},
    };
}

} // namespace cardhour::ctl
