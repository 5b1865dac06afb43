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

# Statement: one calendar month of the ledger in a stated time zone, totals by kind and host.
cardhour_add_test(tst_statement
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_statement.cpp
    LIBS cardhour_core
    LABELS core)

# CostComparison: own cards, a public cloud and this provider, exact (the brief's 3,009.60).
cardhour_add_test(tst_costcomparison
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/billing/tst_costcomparison.cpp
    LIBS cardhour_core
    LABELS core)
