# End-to-end tests of cardhour-sim with the podman runtime: real containers with sshd, reached
# with the real ssh client. Needs the base image (fixture podman_base_image); runs alone.
add_library(cardhour_podman_api_test STATIC
    ${CMAKE_CURRENT_SOURCE_DIR}/api/PodmanApiTest.h ${CMAKE_CURRENT_SOURCE_DIR}/api/OcrAccuracy.h
    ${CMAKE_CURRENT_SOURCE_DIR}/api/PodmanApiTest.cpp)
target_link_libraries(cardhour_podman_api_test PUBLIC cardhour_test_support Qt6::Test)
target_include_directories(cardhour_podman_api_test PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/api)
target_link_libraries(cardhour_podman_api_test PRIVATE cardhour_options)

cardhour_add_test(tst_api_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_podman.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_podman cardhour-sim)
cardhour_podman_test(tst_api_podman TIMEOUT 900)

# An interruptible host in a real container: the notice file in the box, /workspace kept.
cardhour_add_test(tst_api_interruptible_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_interruptible_podman.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_interruptible_podman cardhour-sim)
cardhour_podman_test(tst_api_interruptible_podman TIMEOUT 600)

# Simulated GPUs with real containers: nvidia-smi in the box, utilisation that follows real load.
cardhour_add_test(tst_api_gpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_gpus.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_gpus cardhour-sim)
cardhour_podman_test(tst_api_gpus TIMEOUT 600 ALONE)

# A box read like a rented host: the cards' variables, csv/xml/NVML agreeing with the metrics,
# a CPU loop raising all three, NVLink topology, an sshd in which ssh-audit fails nothing.
cardhour_add_test(tst_api_fidelity
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_fidelity.cpp
    LIBS cardhour_podman_api_test)
target_compile_definitions(tst_api_fidelity PRIVATE
    CARDHOUR_FIDELITY_SCRIPT="${CMAKE_CURRENT_SOURCE_DIR}/gpu/fidelity_check.py")
add_dependencies(tst_api_fidelity cardhour-sim)
cardhour_podman_test(tst_api_fidelity TIMEOUT 600 ALONE)

# Snapshots with real containers: disk and /workspace restored as they were, fee while kept.
cardhour_add_test(tst_api_snapshots
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_snapshots.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_snapshots cardhour-sim)
cardhour_podman_test(tst_api_snapshots TIMEOUT 600)

# Models and one-click apps with real containers: /models read-only, the OCR app's accuracy on
# its own samples, its port closed on the host.
cardhour_add_test(tst_api_apps
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_apps.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_apps cardhour-sim)
cardhour_podman_test(tst_api_apps TIMEOUT 900)

# Idle stop with real containers: an idle box stops, one running a CPU loop never does.
cardhour_add_test(tst_api_idlestop
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_idlestop.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_idlestop cardhour-sim)
cardhour_podman_test(tst_api_idlestop TIMEOUT 600 ALONE)

# Rehearsed failures in real boxes: an open SSH session cut and a new one let in; /workspace
# filled to ENOSPC and freed again.
cardhour_add_test(tst_api_chaos_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_chaos_podman.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_chaos_podman cardhour-sim)
cardhour_podman_test(tst_api_chaos_podman TIMEOUT 600)
# The hardware check read inside real boxes, and the terminate reconciler with real containers.
cardhour_add_test(tst_api_hwcheck_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_hwcheck_podman.cpp
    LIBS cardhour_podman_api_test)
add_dependencies(tst_api_hwcheck_podman cardhour-sim)
cardhour_podman_test(tst_api_hwcheck_podman TIMEOUT 600)
