# HTTP integration tests for backend-sim/src/api: each starts the real cardhour-sim
# (ctest passes its path in CARDHOUR_SIM_BIN) and talks to it over HTTP.
cardhour_add_test(tst_api_auth
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_auth.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_auth cardhour-sim)

cardhour_add_test(tst_api_keys
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_keys.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_keys cardhour-sim)

cardhour_add_test(tst_api_instances
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_instances.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_instances cardhour-sim)

cardhour_add_test(tst_api_billing
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_billing.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_billing cardhour-sim)

cardhour_add_test(tst_api_durability
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_durability.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_durability cardhour-sim)
