# tests for backend-sim/src/service (InstanceService is tested with billing, in billing.cmake)
cardhour_add_test(tst_catalog SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/service/tst_catalog.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_cardlending
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/service/tst_cardlending.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/billing/ServiceFixture.h
    LIBS cardhour_sim_lib)
