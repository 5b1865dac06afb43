# One test builds the shared images (base, jupyter, ocr, speech and what they stand on) before
# any podman test needs them, so that two tests never build them at once; a no-op when they are
# current (scripts/test builds them beside the compiler, so here it only checks).
add_test(NAME podman_base_image
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/runtime/build-base-image $<TARGET_FILE:cardhour-sim>)
set_tests_properties(podman_base_image PROPERTIES
    FIXTURES_SETUP podman_base_image
    SKIP_RETURN_CODE 77
    TIMEOUT 1800
    LABELS "podman;backend")
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(TEST podman_base_image APPEND PROPERTY
        ENVIRONMENT "CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()
# The runtime's tests with real containers (tst_layersize reads the base image's layers).
cardhour_podman_test(tst_imagebuilder)
cardhour_podman_test(tst_layersize)
foreach(name IN ITEMS tst_sshprobe tst_podmanruntime tst_dockerruntime)
    cardhour_podman_test(${name} TIMEOUT 2400)
endforeach()
