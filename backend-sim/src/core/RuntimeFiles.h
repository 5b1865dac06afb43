#pragma once

#include <QString>
#include <QStringList>

namespace cardhour::sim {

// Where the files the sandbox reads at run time are: the image recipes (images/<id>/, with the
// simulated nvidia-smi in images/base), images/bootstrap-debian and podman/containers.conf.
// The one place that knows; everything else asks here.
//
// Looked for, in this order, in the first folder that holds images/:
//   1. <folder of the running program>/<CARDHOUR_RELATIVE_DATADIR> (e.g. bin/../share/cardhour,
//      as installed by `cmake --install` or the .deb: /usr/share/cardhour);
//   2. the build tree's copy (<build>/share/cardhour, staged by backend-sim/CMakeLists.txt), for
//      tests and programs run from the build tree.
// The source tree is never read.
class RuntimeFiles
{
public:
    // The folders tried, in order (absolute).
    static QStringList candidates();
    // The first candidate with an images/ folder; the first candidate when none has one (so an
    // error names where the files were expected).
    static QString dir();
    static QString imagesDir(); // dir()/images
    static QString containersConf(); // dir()/podman/containers.conf
};

} // namespace cardhour::sim
