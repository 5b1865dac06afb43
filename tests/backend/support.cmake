# Test harness for the HTTP integration tests: runs the real cardhour-sim as a child process
# (path from $CARDHOUR_SIM_BIN, which ctest sets) and talks to it over HTTP and raw sockets.
add_library(cardhour_test_support STATIC
    ${CMAKE_CURRENT_SOURCE_DIR}/support/SimProcess.h
    ${CMAKE_CURRENT_SOURCE_DIR}/support/SimProcess.cpp)
target_include_directories(cardhour_test_support PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(cardhour_test_support
    PUBLIC Qt6::Core Qt6::Network Qt6::Test
    PRIVATE cardhour_options)
