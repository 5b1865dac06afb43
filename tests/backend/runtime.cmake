# tests for backend-sim/src/runtime: instance files, the SSH readiness probe and the podman
# runtime. The last two need podman (and build localhost/cardhour/base:latest the first time,
# which takes minutes); they skip only when podman is missing or cannot run a container.
# Run them with CONTAINERS_CONF set where podman needs a containers.conf (e.g. runc, ulimits).
cardhour_add_test(tst_instancefiles
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_instancefiles.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_sshprobe
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_sshprobe.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/runtime/PodmanTestSupport.h
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_sshprobe PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

cardhour_add_test(tst_podmanruntime
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_podmanruntime.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/runtime/PodmanTestSupport.h
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_podmanruntime PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# The first run builds the base image (minutes); later runs take well under three minutes.
# RUN_SERIAL: both start containers and pick loopback ports.
set_tests_properties(tst_sshprobe tst_podmanruntime PROPERTIES TIMEOUT 2400 RUN_SERIAL ON LABELS "podman")
