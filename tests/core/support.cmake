# Shared by the core tests: await() for replies, a test key, and SimProcess (which starts the
# real provider; it lives with the backend tests and is linked from there).
add_library(cardhour_core_test_support INTERFACE)
target_include_directories(cardhour_core_test_support INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(cardhour_core_test_support
    INTERFACE cardhour_core cardhour_test_support Qt6::Test)
