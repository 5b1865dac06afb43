# The provider on PostgreSQL. One fixture starts a scratch cluster (initdb in a temporary
# directory, a server on a free loopback port) before the tests that need it and removes it
# after them; each test's providers keep their data in a schema of their own on it
# (SimProcess::postgresStore). Skipped (77) where PostgreSQL is not installed.
set(cardhour_postgres_url_file ${CMAKE_CURRENT_BINARY_DIR}/postgres-cluster.url)
add_test(NAME postgres_cluster_start
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/support/postgres-cluster start
                 ${cardhour_postgres_url_file})
add_test(NAME postgres_cluster_stop
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/support/postgres-cluster stop
                 ${cardhour_postgres_url_file})
set_tests_properties(postgres_cluster_start PROPERTIES
    FIXTURES_SETUP postgres_cluster SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "postgres;backend")
set_tests_properties(postgres_cluster_stop PROPERTIES
    FIXTURES_CLEANUP postgres_cluster TIMEOUT 60 LABELS "postgres;backend")

# cardhour_postgres_test(NAME): the test NAME (already added) once more as NAME_pg, its
# providers on the scratch cluster instead of SQLite.
function(cardhour_postgres_test name)
    add_test(NAME ${name}_pg COMMAND ${name})
    set(environment QT_QPA_PLATFORM=offscreen CARDHOUR_SIM_BIN=$<TARGET_FILE:cardhour-sim>
        CARDHOUR_TEST_POSTGRES_URL_FILE=${cardhour_postgres_url_file})
    set_tests_properties(${name}_pg PROPERTIES
        ENVIRONMENT "${environment}"
        FIXTURES_REQUIRED postgres_cluster
        TIMEOUT 300
        LABELS "postgres;backend")
endfunction()

# The API suite on both stores (api.cmake's list), but tst_api_hwcheck: its reconciler case leaves a
# segment open after a termination and expects the posting tick to charge it, while on a shared
# store a provider bills only the hosts it runs.
set(cardhour_api_tests_pg ${cardhour_api_tests})
list(REMOVE_ITEM cardhour_api_tests_pg tst_api_hwcheck)
foreach(name IN LISTS cardhour_api_tests_pg)
    cardhour_postgres_test(${name})
endforeach()

# Two provider processes on one database: each test function starts both on a schema of its
# own. Only on PostgreSQL (SQLite has one provider).
cardhour_add_test(tst_api_shared_store
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_shared_store.cpp
    LIBS cardhour_test_support
    LABELS postgres)
add_dependencies(tst_api_shared_store cardhour-sim)
set_property(TEST tst_api_shared_store APPEND PROPERTY
    ENVIRONMENT "CARDHOUR_TEST_POSTGRES_URL_FILE=${cardhour_postgres_url_file}")
set_tests_properties(tst_api_shared_store PROPERTIES
    FIXTURES_REQUIRED postgres_cluster TIMEOUT 600)
