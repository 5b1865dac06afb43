# core/sandbox: SandboxLauncher starts the real cardhour-sim binary.
cardhour_add_test(tst_sandboxlauncher
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox/tst_sandboxlauncher.cpp
    LIBS cardhour_core_test_support
    LABELS core)
target_compile_definitions(tst_sandboxlauncher
    PRIVATE CARDHOUR_SIM_PATH="$<TARGET_FILE:cardhour-sim>")
add_dependencies(tst_sandboxlauncher cardhour-sim)

# SandboxDatasets runs the real `cardhour-sim datasets add`.
cardhour_add_test(tst_sandboxdatasets
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox/tst_sandboxdatasets.cpp
    LIBS cardhour_core Qt6::Test
    LABELS core)
target_compile_definitions(tst_sandboxdatasets
    PRIVATE CARDHOUR_SIM_PATH="$<TARGET_FILE:cardhour-sim>")
add_dependencies(tst_sandboxdatasets cardhour-sim)
