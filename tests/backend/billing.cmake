# tests for backend-sim/src/billing and the instance state machine
cardhour_add_test(tst_pricing SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_pricing.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_ledger SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_ledger.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_instanceservice
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_instanceservice.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/billing/ServiceFixture.h
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_billinginvariants
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_billinginvariants.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/billing/ServiceFixture.h
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_meter SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_meter.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_snapshotservice
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_snapshotservice.cpp
    LIBS cardhour_sim_lib)
