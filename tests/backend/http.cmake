# tests for backend-sim/src/http
cardhour_add_test(tst_requestparser
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/http/tst_requestparser.cpp
    LIBS cardhour_sim_http)
cardhour_add_test(tst_router
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/http/tst_router.cpp
    LIBS cardhour_sim_http)
cardhour_add_test(tst_httpserver
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/http/tst_httpserver.cpp
    LIBS cardhour_sim_http)
cardhour_add_test(tst_eventbacklog
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/http/tst_eventbacklog.cpp
    LIBS cardhour_sim_http)
