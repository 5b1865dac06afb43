# tests for backend-sim/src/runtime: instance files, the SSH readiness probe, the engine
# dialects, the cgroup reader and the container runtime. The probe and the runtime tests need
# podman (and build localhost/cardhour/base:latest the first time, which takes minutes); they
# skip only when podman is missing or cannot run a container.
# Run them with CONTAINERS_CONF set where podman needs a containers.conf (e.g. runc, ulimits).
cardhour_add_test(tst_instancefiles
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_instancefiles.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_boxgpuenvironment
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_boxgpuenvironment.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_sshprobe
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_sshprobe.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/runtime/PodmanTestSupport.h
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_sshprobe PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

cardhour_add_test(tst_process
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_process.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_cgroupstats
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_cgroupstats.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_layersize
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_layersize.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/runtime/PodmanTestSupport.h
    LIBS cardhour_sim_lib)
target_compile_definitions(tst_layersize PRIVATE CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

cardhour_add_test(tst_clidialect
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_clidialect.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_enginecalls
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_enginecalls.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_workspacedisk
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_workspacedisk.cpp
    LIBS cardhour_sim_lib)

# How each engine's disk bound is reported (an `info`-answering script for the engine).
cardhour_add_test(tst_runtimediskquota
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_runtimediskquota.cpp
    LIBS cardhour_sim_lib)

cardhour_add_test(tst_sparedisks
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_sparedisks.cpp
    LIBS cardhour_sim_lib)

# The container runtime's parts (CliRuntime composes them), each over a fake engine that runs
# nothing (runtime/FakeEngine.h): no podman, a few seconds each.
foreach(part IN ITEMS containercache instanceopqueue containerlisting containerrunargs appwatcher
        connectioncounter usagesampler launchsteps instancenetworks workspacevolumes
        instanceteardown containersnapshots containerlauncher sshdreadiness containerdiskwatch
        imagewait cliengine egressfilter boxinspector)
    cardhour_add_test(tst_${part}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_${part}.cpp
                ${CMAKE_CURRENT_SOURCE_DIR}/runtime/FakeEngine.h
                ${CMAKE_CURRENT_SOURCE_DIR}/runtime/LaunchFixture.h
        LIBS cardhour_sim_lib)
endforeach()

# One test source, two engines: the podman CLI, and the docker CLI against podman's
# Docker-compatible API service (started by the test).
foreach(engine IN ITEMS podman docker)
    cardhour_add_test(tst_${engine}runtime
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/tst_cliruntime.cpp
                ${CMAKE_CURRENT_SOURCE_DIR}/runtime/PodmanTestSupport.h
        LIBS cardhour_sim_lib)
    target_compile_definitions(tst_${engine}runtime PRIVATE
        CARDHOUR_SOURCE_DIR="${PROJECT_SOURCE_DIR}" CARDHOUR_TEST_ENGINE="${engine}")
endforeach()
# tst_sshprobe, tst_podmanruntime and tst_dockerruntime start containers: podman-fixture.cmake.
