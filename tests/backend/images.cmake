# tests for backend-sim/src/runtime/ImageBuilder and `cardhour-sim images` (real podman builds).
# podman's configuration for the test: CARDHOUR_TEST_CONTAINERS_CONF, by default the
# CONTAINERS_CONF of the configuring shell (e.g. a containers.conf selecting runc where crun
# cannot run). The test itself also reads CARDHOUR_CONTAINERS_CONF / CONTAINERS_CONF.
# Without one in the environment, the repository's (runc, modest ulimits) where runc exists.
set(_cardhour_default_conf "$ENV{CONTAINERS_CONF}")
find_program(CARDHOUR_RUNC runc)
if(NOT _cardhour_default_conf AND CARDHOUR_RUNC)
    set(_cardhour_default_conf "${PROJECT_SOURCE_DIR}/backend-sim/podman/containers.conf")
endif()
set(CARDHOUR_TEST_CONTAINERS_CONF "${_cardhour_default_conf}" CACHE FILEPATH
    "containers.conf for podman in the podman tests (empty: podman's default)")
cardhour_add_test(tst_imagebuilder
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_imagebuilder.cpp
    LIBS cardhour_sim_lib)
# Builds the real base image (and the Debian root) when they are not current: minutes.
set_tests_properties(tst_imagebuilder PROPERTIES TIMEOUT 1800)
if(CARDHOUR_TEST_CONTAINERS_CONF)
    set_property(TEST tst_imagebuilder APPEND PROPERTY
        ENVIRONMENT "CARDHOUR_CONTAINERS_CONF=${CARDHOUR_TEST_CONTAINERS_CONF}")
endif()

# Where the runtime files are found: next to the program (an installed layout), else the build's.
cardhour_add_test(tst_runtimefiles
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/core/tst_runtimefiles.cpp
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_runtimefiles PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_runtimefiles cardhour-sim)
