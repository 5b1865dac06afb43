// GET /v1/models, GET/DELETE /v1/models/{id}; uploads of private models:
// POST/GET /v1/model-uploads, GET/PUT/DELETE /v1/model-uploads/{id}
#include "ApiContext.h"
#include "core/ApiError.h"
#include "core/Json.h"
#include "service/HostDiskReserve.h"
#include "service/InstanceService.h"
#include "service/Models.h"
#include "service/PrivateModels.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

void requireModels(const ApiContext &ctx)
{
    if (!ctx.models || !ctx.privateModels)
        throw ApiError(503, ErrorCode::Unavailable, u"The model library is not available."_s);
}

PrivateModels::NewUpload parseNewUpload(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o,
                              {u"name"_s, u"file_name"_s, u"task"_s, u"size_bytes"_s, u"sha256"_s});
    PrivateModels::NewUpload u;
    u.name = json::requiredString(o, u"name"_s, 64);
    u.fileName = json::optionalString(o, u"file_name"_s, 128).value_or(QString());
    u.task = json::optionalString(o, u"task"_s, 64).value_or(u"custom"_s);
    u.sizeBytes = json::requiredInteger(o, u"size_bytes"_s, 1, qint64(1) << 50);
    u.sha256 = json::requiredString(o, u"sha256"_s, 64);
    return u;
}

qint64 parseOffset(const http::Request &request)
{
    bool ok = false;
    const qint64 offset = request.header("upload-offset").trimmed().toLongLong(&ok);
    if (!ok || offset < 0)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"A chunk needs an Upload-Offset header: the byte it starts at."_s);
    return offset;
}

} // namespace

void registerModelRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/models"_s, [&ctx](http::Request &, const QString &userId) {
        requireModels(ctx);
        QJsonArray all = ctx.models->listJson();
        for (const QJsonValue &own : ctx.privateModels->list(userId))
            all.append(own);
        return http::Response::json(200, all);
    });

    ctx.authedRoute("GET", u"/v1/models/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        requireModels(ctx);
                        const QString id = request.pathParams.value(u"id"_s);
                        if (const std::optional<Models::Model> m = ctx.models->find(id))
                            return http::Response::json(200, ctx.models->toJson(*m));
                        return http::Response::json(200, ctx.privateModels->get(userId, id));
                    });

    ctx.authedRoute("DELETE", u"/v1/models/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        requireModels(ctx);
                        const QJsonObject removed =
                            ctx.privateModels->remove(userId, request.pathParams.value(u"id"_s));
                        return http::Response::json(200, removed);
                    });

    ctx.authedRoute(
        "POST", u"/v1/model-uploads"_s, [&ctx](http::Request &request, const QString &userId) {
            requireModels(ctx);
            // Declaring writes nothing yet (each chunk is held to the reserve), but a host
            // already below it takes on no new upload.
            if (ctx.diskReserve)
                ctx.diskReserve->requireRoom(0, u"uploads"_s);
            return http::Response::json(
                201, ctx.privateModels->createUpload(userId, parseNewUpload(request.body)));
        });

    ctx.authedRoute("GET", u"/v1/model-uploads"_s, [&ctx](http::Request &, const QString &userId) {
        requireModels(ctx);
        return http::Response::json(200, ctx.privateModels->uploads(userId));
    });

    ctx.authedRoute(
        "GET", u"/v1/model-uploads/{id}"_s, [&ctx](http::Request &request, const QString &userId) {
            requireModels(ctx);
            return http::Response::json(
                200, ctx.privateModels->upload(userId, request.pathParams.value(u"id"_s)));
        });

    ctx.binaryRoute(
        "PUT", u"/v1/model-uploads/{id}"_s, [&ctx](http::Request &request, const QString &userId) {
            requireModels(ctx);
            if (ctx.diskReserve)
                ctx.diskReserve->requireRoom(request.body.size(), u"uploads"_s);
            // The chunk is written off the event loop; its answer is sent once it is on disk.
            // `done` always comes after this handler has returned, and the server has
            // handed over where the answer goes.
            auto answer = std::make_shared<std::function<void(http::Response)>>();
            ctx.privateModels->putChunk(
                userId, request.pathParams.value(u"id"_s), parseOffset(request), request.body,
                QString::fromLatin1(request.header("upload-chunk-sha256").trimmed()),
                [answer](const PrivateModels::ChunkOutcome &outcome) {
                    http::Response response = ApiContext::answerOf([&] {
                        const QJsonObject upload = outcome();
                        const bool complete = upload.value(u"state"_s).toString() == u"complete"_s;
                        return http::Response::json(complete ? 201 : 200, upload);
                    });
                    if (*answer)
                        (*answer)(std::move(response));
                });
            http::Response pending;
            pending.deferred = [answer](std::function<void(http::Response)> send) {
                *answer = std::move(send);
            };
            return pending;
        });

    ctx.authedRoute("DELETE", u"/v1/model-uploads/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        requireModels(ctx);
                        ctx.privateModels->abortUpload(userId, request.pathParams.value(u"id"_s));
                        return http::Response::json(200, QJsonObject{{u"deleted"_s, true}});
                    });
}

} // namespace cardhour::sim
