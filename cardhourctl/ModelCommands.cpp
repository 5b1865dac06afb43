// models [ls] | upload FILE | rm NAME: the provider's model library. `upload` is the window's
// own path (core/api/ModelUploader): the file's SHA-256 first, then chunks; an upload that was
// cut off (Ctrl-C, the network, the window closed) is carried on from the provider's offset
// when the same file is uploaded again under the same name.
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ModelUploader.h"
#include "api/ProviderClient.h"
#include "api/ProviderCodes.h"
#include "billing/Money.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocale>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct ModelWords
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::ModelWords)
};

// A 30-day month: what "per month" means here (the provider bills by the hour).
constexpr qint64 kModelHoursPerMonth = 24 * 30;

QString modelBytesText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString modelMonthlyFee(const LibraryModel &m)
{
    if (!m.isPrivate)
        return ModelWords::tr("free");
    return ModelWords::tr("%1/30 days")
        .arg(Money::format(m.storageRatePerHourMicros.value_or(0) * kModelHoursPerMonth));
}

int listModels(Context &ctx)
{
    if (ctx.args.size() > 1)
        return ctx.usage(ModelWords::tr("models ls takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<LibraryModel>> models = ctx.await(ctx.client()->models());
    if (!models.ok())
        return ctx.fail(models.error);
    if (ctx.json) {
        Output::json(ModelJson::toJson(*models.value));
        return Ok;
    }
    QList<QStringList> rows;
    for (const LibraryModel &m : *models.value)
        rows.append({m.name, m.isPrivate ? ModelWords::tr("private") : ModelWords::tr("public"),
                     m.task, modelBytesText(m.sizeBytes), modelMonthlyFee(m), m.mountPath});
    Output::raw(Output::table({ModelWords::tr("NAME"), ModelWords::tr("OWNER"),
                               ModelWords::tr("TASK"), ModelWords::tr("SIZE"),
                               ModelWords::tr("STORAGE FEE"), ModelWords::tr("MOUNTED AT")},
                              rows));
    return Ok;
}

int uploadModel(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(ModelWords::tr("models upload takes one FILE."));
    const QString path = QFileInfo(ctx.args[1]).absoluteFilePath();
    QString name = ctx.value(u"name"_s);
    if (name.isEmpty())
        name = ModelUploader::suggestedName(path);
    if (const int code = ctx.connect(); code != Ok)
        return code;
    ModelUploader uploader(ctx.client());
    QEventLoop loop;
    int code = Ok;
    QObject::connect(&uploader, &ModelUploader::declared, &loop,
                     [](const ModelUpload &upload, qint64 resumedFrom) {
                         if (resumedFrom > 0)
                             Output::error(ModelWords::tr("Carrying on from %1 of %2: the "
                                                          "provider kept what it received.")
                                               .arg(modelBytesText(resumedFrom),
                                                    modelBytesText(upload.sizeBytes)));
                     });
    QObject::connect(&uploader, &ModelUploader::finished, &loop, [&](const LibraryModel &model) {
        if (ctx.json)
            Output::json(ModelJson::toJson(model));
        else
            Output::line(model.name);
        Output::error(ModelWords::tr("The provider checked its SHA-256; hosts "
                                     "see it at %1; keeping it costs %2.")
                          .arg(model.mountPath, modelMonthlyFee(model)));
        loop.quit();
    });
    QObject::connect(&uploader, &ModelUploader::failed, &loop,
                     [&](const QString &message, const ApiError &error) {
                         Output::error(u"cardhourctl models upload: "_s + message);
                         code = error.isError() ? Context::codeFor(error) : int(Failed);
                         loop.quit();
                     });
    uploader.start(path, name, ctx.value(u"task"_s));
    if (uploader.isBusy())
        loop.exec();
    return code;
}

// The hosts a refused delete names (by id in the error's details), by their names.
QString mountingHosts(Context &ctx, const ApiError &error)
{
    QStringList ids;
    for (const QJsonValue &id : error.details.value("instances"_L1).toArray())
        ids << id.toString();
    const Result<QList<Instance>> hosts = ctx.await(ctx.client()->instances());
    QStringList names;
    for (const Instance &i : hosts.value.value_or(QList<Instance>{})) {
        if (ids.contains(i.id))
            names << i.name;
    }
    return (names.isEmpty() ? ids : names).join(u", "_s);
}

int removeModel(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(ModelWords::tr("models rm takes one model NAME."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<LibraryModel>> models = ctx.await(ctx.client()->models());
    if (!models.ok())
        return ctx.fail(models.error);
    const auto found = std::find_if(models.value->cbegin(), models.value->cend(), [&](auto &m) {
        return m.isPrivate && (m.name == ctx.args[1] || m.id == ctx.args[1]);
    });
    if (found == models.value->cend()) {
        Output::error(ModelWords::tr("cardhourctl models rm: you have no model %1 (public models "
                                     "belong to the provider).")
                          .arg(ctx.args[1]));
        return NotFound;
    }
    const Result<LibraryModel> done = ctx.await(ctx.client()->deleteModel(found->id));
    if (!done.ok() && done.error.code == ErrorCode::ModelInUse) {
        Output::error(ModelWords::tr("cardhourctl models rm: %1 is kept: it is mounted by %2. "
                                     "Terminate them first (`cardhourctl rm HOST`).")
                          .arg(found->name, mountingHosts(ctx, done.error)));
        return Failed;
    }
    if (!done.ok())
        return ctx.fail(done.error);
    if (ctx.json)
        Output::json(ModelJson::toJson(*done.value));
    else
        Output::line(done.value->name);
    return Ok;
}

int modelsCommand(Context &ctx)
{
    const QString sub = ctx.args.value(0, u"ls"_s);
    if (sub == u"ls"_s || sub == u"list"_s)
        return listModels(ctx);
    if (sub == u"upload"_s)
        return uploadModel(ctx);
    if (sub == u"rm"_s)
        return removeModel(ctx);
    return ctx.usage(ModelWords::tr("no models command %1 (ls, upload or rm).").arg(sub));
}

} // namespace

QList<Command> modelCommands()
{
    return {
        {u"models"_s,
         ModelWords::tr("The model library: ls; upload FILE (resumes an interrupted upload); "
                        "rm NAME."),
         u"ls|upload|rm [FILE|NAME]"_s,
         {QCommandLineOption(u"name"_s,
                             ModelWords::tr("upload: the model's name (default: the file's)."),
                             u"NAME"_s),
          QCommandLineOption(u"task"_s, ModelWords::tr("upload: what the model does."), u"TASK"_s)},
         modelsCommand},
    };
}

} // namespace cardhour::ctl
