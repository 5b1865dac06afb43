# tests for backend-sim/src/service: the instance state machine, snapshots, catalog, cards
set(_service ${CMAKE_CURRENT_SOURCE_DIR}/service)
cardhour_add_test(tst_instanceservice
    SOURCES ${_service}/tst_instanceservice.cpp
    LIBS cardhour_service_fixture)
cardhour_add_test(tst_snapshotservice
    SOURCES ${_service}/tst_snapshotservice.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_catalog SOURCES ${_service}/tst_catalog.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_cardlending
    SOURCES ${_service}/tst_cardlending.cpp
    LIBS cardhour_service_fixture)
cardhour_add_test(tst_cardslices
    SOURCES ${_service}/tst_cardslices.cpp
    LIBS cardhour_service_fixture)
target_compile_definitions(tst_cardslices PRIVATE
    CARDHOUR_NVIDIA_SMI="${PROJECT_SOURCE_DIR}/backend-sim/images/base/nvidia-smi")
cardhour_add_test(tst_spendinglimits
    SOURCES ${_service}/tst_spendinglimits.cpp ${_service}/SpendingFixture.h
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_stoppolicies
    SOURCES ${_service}/tst_stoppolicies.cpp ${_service}/SpendingFixture.h
    LIBS cardhour_sim_lib)
# The parts of InstanceService, each on its own.
foreach(_part instancerecords instanceviews instancelifecycle runtimereports storagefees accounts
        accountbill)
    cardhour_add_test(tst_${_part}
        SOURCES ${_service}/tst_${_part}.cpp
        LIBS cardhour_service_fixture)
endforeach()
foreach(_part spendingguard billingtick idlewatch)
    cardhour_add_test(tst_${_part}
        SOURCES ${_service}/tst_${_part}.cpp ${_service}/SpendingFixture.h
        LIBS cardhour_sim_lib)
endforeach()
# 10 000 random sequences: minutes of CPU on a loaded machine, more than Qt Test's 5 minutes.
set_tests_properties(tst_spendinglimits PROPERTIES
    TIMEOUT 1200
    ENVIRONMENT "QTEST_FUNCTION_TIMEOUT=1150000")
cardhour_add_test(tst_hardwarecheck
    SOURCES ${_service}/tst_hardwarecheck.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_uploaddigests
    SOURCES ${_service}/tst_uploaddigests.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_chunkwriter
    SOURCES ${_service}/tst_chunkwriter.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_hostdiskreserve
    SOURCES ${_service}/tst_hostdiskreserve.cpp
    LIBS cardhour_sim_lib)
