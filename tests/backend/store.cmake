# tests for backend-sim/src/store
cardhour_add_test(tst_migrations
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/store/tst_migrations.cpp
    LIBS cardhour_service_fixture)
cardhour_add_test(tst_rawstatement
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/store/tst_rawstatement.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_storedialect
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/store/tst_storedialect.cpp
    LIBS cardhour_sim_lib)
