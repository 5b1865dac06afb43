# tests for backend-sim/src/gpu (simulated cards, telemetry, real cards through nvidia-smi)
cardhour_add_test(tst_simulatedgpu
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_simulatedgpu.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_samplehistory
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_samplehistory.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_minuteaverages
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_minuteaverages.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_nvidiagpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_nvidiagpus.cpp
    LIBS cardhour_sim_lib)
# Real NVIDIA GPUs (catalog, telemetry, passthrough). Without a GPU every function skips and
# ctest reports the test as skipped, not passed.
cardhour_add_test(tst_realgpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_realgpus.cpp
    LIBS cardhour_podman_api_test cardhour_service_fixture)
add_dependencies(tst_realgpus cardhour-sim)
set_property(TEST tst_realgpus APPEND PROPERTY LABELS gpu)
set_tests_properties(tst_realgpus PROPERTIES
    SKIP_REGULAR_EXPRESSION "no NVIDIA GPU on this machine")
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(TEST tst_realgpus APPEND PROPERTY
        ENVIRONMENT "CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()
# The simulated nvidia-smi and the NVML stand-in read by parsers that are not ours (csv,
# xml.etree, ctypes) on a status file the test writes: all three agree, follow the file, and
# answer with the real tools' error wording and return codes.
add_test(NAME tst_nvml_fidelity
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gpu/fidelity_check.py host
        ${PROJECT_SOURCE_DIR}/backend-sim/images/base/nvidia-smi $<TARGET_FILE:cardhour_nvml>)
set_tests_properties(tst_nvml_fidelity PROPERTIES TIMEOUT 180)
