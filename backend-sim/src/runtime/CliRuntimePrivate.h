#pragma once

// Shared by CliRuntime.cpp, CliLaunch.cpp and CliRuntimeState.cpp only.

#include "CliDialect.h"

#include <QLoggingCategory>
#include <QString>

namespace cardhour::sim {

Q_DECLARE_LOGGING_CATEGORY(lcCli)

namespace clidetail {
inline const QString &kManaged = cli::kManagedLabel;
inline const QString &kInstance = cli::kInstanceLabel;
inline const QString &kOwner = cli::kOwnerLabel;
inline const QString &kProvider = cli::kProviderLabel;
inline const QString kLoopback = QStringLiteral("127.0.0.1");
constexpr int kSshPort = 22;
} // namespace clidetail

} // namespace cardhour::sim
