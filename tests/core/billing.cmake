# core/billing: BillTicker with a manual clock.
cardhour_add_test(tst_billticker
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_billticker.cpp
    LIBS cardhour_core
    LABELS core)

# RunwayAlerts: when the tray warns (runway thresholds, re-arming, instances the provider ended).
cardhour_add_test(tst_runwayalerts
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_runwayalerts.cpp
    LIBS cardhour_core
    LABELS core)

# Money: formatting and parsing amounts (shared by ui::Format, TopUpDialog and cardhourctl).
cardhour_add_test(tst_money
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_money.cpp
    LIBS cardhour_core
    LABELS core)
