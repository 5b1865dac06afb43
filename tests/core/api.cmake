# core/api: pure parsers, and the clients against a real cardhour-sim.
foreach(name IN ITEMS tst_models tst_sseparser tst_providerurl)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/${name}.cpp
        LIBS cardhour_core
        LABELS core)
endforeach()
foreach(name IN ITEMS tst_providerclient tst_eventstream tst_providerclient_models
        tst_spendingclient)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/${name}.cpp
        LIBS cardhour_core_test_support
        LABELS core)
    add_dependencies(${name} cardhour-sim)
endforeach()
# The provider codes the client matches by name (core/api/ProviderCodes.h), each one that
# backend-sim/api/openapi.yaml lists (the spec read by tests/backend/openapi/openapi_spec.py).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME client_provider_codes
         COMMAND ${Python3_EXECUTABLE} -B ${CMAKE_CURRENT_SOURCE_DIR}/api/test_provider_codes.py
                 ${CMAKE_SOURCE_DIR}/core/api/ProviderCodes.h
                 ${CMAKE_SOURCE_DIR}/backend-sim/api/openapi.yaml)
set_tests_properties(client_provider_codes PROPERTIES TIMEOUT 30 LABELS core)
