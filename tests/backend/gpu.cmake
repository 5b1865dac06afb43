# tests for backend-sim/src/gpu (simulated cards, telemetry) and the cgroup reader behind them
cardhour_add_test(tst_simulatedgpu
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_simulatedgpu.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_cgroupstats
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_cgroupstats.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_nvidiagpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_nvidiagpus.cpp
    LIBS cardhour_sim_lib)
# Real NVIDIA GPUs (catalog, telemetry, passthrough). Without a GPU every function skips and
# ctest reports the test as skipped, not passed.
cardhour_add_test(tst_realgpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_realgpus.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/billing/ServiceFixture.h
    LIBS cardhour_podman_api_test cardhour_sim_lib)
add_dependencies(tst_realgpus cardhour-sim)
set_tests_properties(tst_realgpus PROPERTIES
    LABELS "gpu"
    SKIP_REGULAR_EXPRESSION "no NVIDIA GPU on this machine")
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(TEST tst_realgpus APPEND PROPERTY
        ENVIRONMENT "CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()
