#include "ContainerRuntime.h"

namespace cardhour::sim {

ContainerRuntime::~ContainerRuntime() = default;

} // namespace cardhour::sim
