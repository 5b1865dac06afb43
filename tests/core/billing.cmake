# app/core/billing: BillTicker with a manual clock.
cardhour_add_test(tst_billticker
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_billticker.cpp
    LIBS cardhour_core
    LABELS core)
