# core/sandbox: SandboxLauncher starts the real cardhour-sim binary.
cardhour_add_test(tst_sandboxlauncher
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/sandbox/tst_sandboxlauncher.cpp
    LIBS cardhour_core_test_support
    LABELS core)
target_compile_definitions(tst_sandboxlauncher
    PRIVATE CARDHOUR_SIM_PATH="$<TARGET_FILE:cardhour-sim>")
add_dependencies(tst_sandboxlauncher cardhour-sim)
