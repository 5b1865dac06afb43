# tests for backend-sim/src/auth
cardhour_add_test(tst_passwordhasher
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_passwordhasher.cpp
    LIBS cardhour_sim_auth)
cardhour_add_test(tst_tokens
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_tokens.cpp
    LIBS cardhour_sim_auth)
cardhour_add_test(tst_loginthrottle
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_loginthrottle.cpp
    LIBS cardhour_sim_auth)
cardhour_add_test(tst_sshpublickey
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_sshpublickey.cpp
    LIBS cardhour_sim_auth)
cardhour_add_test(tst_loginguard
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_loginguard.cpp
    LIBS cardhour_sim_auth)
cardhour_add_test(tst_signupgate
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/auth/tst_signupgate.cpp
    LIBS cardhour_sim_auth)
