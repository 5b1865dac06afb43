# End-to-end tests of cardhour-sim with the podman runtime: real containers with sshd, reached
# with the real ssh client. Needs the base image (fixture podman_base_image); runs alone.
cardhour_add_test(tst_api_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/tst_api_podman.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_api_podman cardhour-sim)
set_tests_properties(tst_api_podman PROPERTIES
    TIMEOUT 900
    LABELS "podman"
    RUN_SERIAL ON
    FIXTURES_REQUIRED podman_base_image)
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(TEST tst_api_podman APPEND PROPERTY
        ENVIRONMENT "CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()
