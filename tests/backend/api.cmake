# HTTP integration tests for backend-sim/src/api: each starts the real cardhour-sim
# (ctest passes its path in CARDHOUR_SIM_BIN) and talks to it over HTTP.
# (postgres.cmake runs the same list on the PostgreSQL store.)
set(cardhour_api_tests
    tst_api_auth
    tst_api_keys
    tst_api_instances
    tst_api_billing
    tst_api_durability
    tst_api_storage
    tst_api_metrics
    tst_api_models
    tst_api_slices
    tst_api_chaos
    tst_api_interruptible
    tst_api_hwcheck)
foreach(name IN LISTS cardhour_api_tests)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/${name}.cpp
        LIBS cardhour_test_support)
    add_dependencies(${name} cardhour-sim)
endforeach()
# The storage tests run the provider on copies of the built-in catalog at other storage prices.
target_compile_definitions(tst_api_storage PRIVATE
    CARDHOUR_SOURCE_CATALOG="${PROJECT_SOURCE_DIR}/backend-sim/catalog")
target_compile_definitions(tst_api_slices PRIVATE
    CARDHOUR_SOURCE_CATALOG="${PROJECT_SOURCE_DIR}/backend-sim/catalog")
# The interruptible tests derive the expected prices from the catalog's discount.
target_compile_definitions(tst_api_interruptible PRIVATE
    CARDHOUR_SOURCE_CATALOG="${PROJECT_SOURCE_DIR}/backend-sim/catalog")
