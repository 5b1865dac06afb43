# tests for backend-sim/src/store
cardhour_add_test(tst_migrations
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/store/tst_migrations.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/billing/ServiceFixture.h
    LIBS cardhour_sim_lib)
