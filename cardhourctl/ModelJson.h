#pragma once

#include "api/ChaosFaults.h"
#include "api/ModelLibrary.h"
#include "api/Models.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace cardhour::ctl {

// The provider's objects as `--json` prints them: the API's own field names
// (backend-sim/api/openapi.yaml, components/schemas), written back from the core's structs.
// Money stays integer micro-yuan (`*_micros`), times are UTC ISO 8601 with milliseconds or
// null. Fields the core does not read are not printed; the ones printed keep their names.
class ModelJson
{
public:
    static QJsonValue time(const QDateTime &t);
    static QJsonObject toJson(const core::GpuType &gpu);
    static QJsonObject toJson(const core::Image &image);
    static QJsonObject toJson(const core::Dataset &dataset);
    static QJsonObject toJson(const core::SshKey &key);
    static QJsonObject toJson(const core::Account &account);
    static QJsonObject toJson(const core::Instance &instance);
    static QJsonObject toJson(const core::Retention &retention);
    static QJsonObject toJson(const core::BillingSummary &summary);
    static QJsonObject toJson(const core::Posting &posting);
    static QJsonObject toJson(const core::TopupResult &result);
    static QJsonObject toJson(const core::Snapshot &snapshot);
    static QJsonObject toJson(const core::SnapshotRetention &retention);
    static QJsonObject toJson(const core::LibraryModel &model);
    static QJsonObject toJson(const core::ChaosFault &fault);

    template<typename T>
    static QJsonArray toJson(const QList<T> &list)
    {
        QJsonArray array;
        for (const T &item : list)
            array.append(toJson(item));
        return array;
    }
};

} // namespace cardhour::ctl
