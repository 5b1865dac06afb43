# Test harness for the HTTP integration tests: runs the real cardhour-sim as a child process
# (path from $CARDHOUR_SIM_BIN, which ctest sets) and talks to it over HTTP and raw sockets.
add_library(cardhour_test_support STATIC
    ${CMAKE_CURRENT_SOURCE_DIR}/support/SimProcess.h
    ${CMAKE_CURRENT_SOURCE_DIR}/support/SimProcess.cpp)
target_include_directories(cardhour_test_support PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(cardhour_test_support
    PUBLIC Qt6::Core Qt6::Network Qt6::Test
    PRIVATE cardhour_options)

# The provider's services wired over SQLite, a manual clock and the in-process runtime, for
# the unit tests of several folders (header only: support/ServiceFixture.h).
add_library(cardhour_service_fixture INTERFACE)
target_sources(cardhour_service_fixture INTERFACE
    ${CMAKE_CURRENT_SOURCE_DIR}/support/ServiceFixture.h)
target_include_directories(cardhour_service_fixture INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(cardhour_service_fixture INTERFACE cardhour_sim_lib)
