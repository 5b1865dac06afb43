# tests for backend-sim/src/runtime/Doctor and `cardhour-sim doctor` (real podman: a few short
# `podman run --rm ... true`, well under a minute). The "container starts" check uses
# CONTAINERS_CONF (CARDHOUR_TEST_CONTAINERS_CONF, see images.cmake), else the repository's.
cardhour_add_test(tst_doctor
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_doctor.cpp
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_doctor PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
cardhour_podman_test(tst_doctor TIMEOUT 120)
