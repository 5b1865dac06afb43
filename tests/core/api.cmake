# core/api: pure parsers, and the clients against a real cardhour-sim.
foreach(name IN ITEMS tst_models tst_sseparser)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/${name}.cpp
        LIBS cardhour_core
        LABELS core)
endforeach()
foreach(name IN ITEMS tst_providerclient tst_eventstream tst_spendingclient)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/api/${name}.cpp
        LIBS cardhour_core_test_support
        LABELS core)
    add_dependencies(${name} cardhour-sim)
endforeach()
