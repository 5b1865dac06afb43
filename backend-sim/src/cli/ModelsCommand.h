#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// `cardhour-sim models ...`: the public model library instances can mount read-only.
//   models list                   registers the installed model packages, then lists every
//                                 public model: name, task, size, SHA-256, licence, source
//   models add NAME DIR [--task T] [--languages a,b] [--licence L] [--description TEXT]
//                                 register DIR (measured and hashed now) as NAME
//   models rm NAME                forget it (the folder itself is never touched)
// Options: --data DIR (default defaultDataDir), --catalog DIR (where models.json is; default
// the built-in catalog). Returns the exit code (0 ok, 1 failure, 2 usage).
int runModelsCommand(const QStringList &args, const QString &defaultDataDir);

} // namespace cardhour::sim
