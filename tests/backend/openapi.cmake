# OpenAPI contract of cardhour-sim: backend-sim/api/openapi.yaml against the real server.
# Needs Python 3 with python3-yaml and python3-jsonschema, and ssh-keygen (openssh-client).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME openapi_conformance
         COMMAND ${Python3_EXECUTABLE} -B ${CMAKE_CURRENT_SOURCE_DIR}/openapi/test_openapi.py
                 $<TARGET_FILE:cardhour-sim> ${CMAKE_SOURCE_DIR}/backend-sim/api/openapi.yaml)
set_tests_properties(openapi_conformance PROPERTIES
    TIMEOUT 120
    LABELS "backend;openapi")
