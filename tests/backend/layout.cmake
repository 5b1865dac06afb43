# The include rules of backend-sim/src (no two units include each other; runtime/ and the
# floors below it include nothing from service/, api/, server/, cli/), checked on the sources.
add_test(NAME backend_include_rules
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layout/test_includes.py
                 ${PROJECT_SOURCE_DIR}/backend-sim/src)
set_tests_properties(backend_include_rules PROPERTIES TIMEOUT 60 LABELS "backend")
