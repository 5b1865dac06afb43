# What cardhour-sim's own command line says (help, subcommand help, refusals at start).
cardhour_add_test(tst_simcommandline
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cli/tst_simcommandline.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_simcommandline cardhour-sim)

# `cardhour-sim chaos` against a running provider (add, list, clear; token, log-in, refusals).
cardhour_add_test(tst_simchaos
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/cli/tst_simchaos.cpp
    LIBS cardhour_test_support)
add_dependencies(tst_simchaos cardhour-sim)
