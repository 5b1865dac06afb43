# One test builds the base image before any podman test needs it, so that two tests running in
# parallel never build it at once; the podman tests then run one at a time.
add_test(NAME podman_base_image
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/runtime/build-base-image $<TARGET_FILE:cardhour-sim>)
set_tests_properties(podman_base_image PROPERTIES
    FIXTURES_SETUP podman_base_image
    SKIP_RETURN_CODE 77
    TIMEOUT 1800
    LABELS "podman")
set_tests_properties(tst_imagebuilder tst_sshprobe tst_podmanruntime tst_dockerruntime PROPERTIES
    FIXTURES_REQUIRED podman_base_image
    RUN_SERIAL ON)
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(
        TEST podman_base_image tst_imagebuilder tst_sshprobe tst_podmanruntime tst_dockerruntime
        APPEND PROPERTY ENVIRONMENT "CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()
