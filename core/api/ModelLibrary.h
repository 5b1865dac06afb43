#pragma once

// The model library of the provider's API (GET /v1/models, /v1/model-uploads): public models
// every instance may mount, a user's own private ones, and the uploads that make them.

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::core {

// One model an instance may mount read-only at mountPath (NewInstance::models names it).
struct LibraryModel
{
    QString id; // a public model's name, or a private model's UUID
    QString name;
    bool isPrivate = false;
    QString task; // "ocr", "speech-to-text", ...
    QStringList languages;
    QString licence; // empty when not known (and for private models)
    QString sourcePackage; // the Debian package of a public model; empty otherwise
    QString description;
    QString fileName; // private models: the file inside mountPath
    QString mountPath;
    qint64 sizeBytes = 0;
    qint64 files = 0;
    QString sha256;
    bool available = false;
    QDateTime addedAt;
    std::optional<qint64> storageRatePerHourMicros; // private models only: what keeping it costs
    std::optional<qint64> storageCostMicros; // private models only: the fee so far

    static LibraryModel fromJson(const QJsonObject &o);
};

// What POST /v1/model-uploads declares.
struct NewModelUpload
{
    QString name;
    QString fileName; // empty: the model's name
    QString task; // empty: "custom"
    qint64 sizeBytes = 0;
    QString sha256; // hex

    QJsonObject toJson() const;
};

// An upload in progress (or, with `model`, just completed).
struct ModelUpload
{
    QString id;
    QString name;
    QString fileName;
    qint64 sizeBytes = 0;
    QString sha256;
    qint64 offset = 0; // the next chunk starts here
    bool complete = false;
    qint64 chunkMaxBytes = 0;
    std::optional<LibraryModel> model;

    static ModelUpload fromJson(const QJsonObject &o);
};

} // namespace cardhour::core
