# tests for backend-sim/src/billing. tst_billinginvariants drives the services through
# ServiceFixture, but what it asserts is billing's: after every step the ledger adds up.
set(_billing ${CMAKE_CURRENT_SOURCE_DIR}/billing)
cardhour_add_test(tst_pricing SOURCES ${_billing}/tst_pricing.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_ledger SOURCES ${_billing}/tst_ledger.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_meter SOURCES ${_billing}/tst_meter.cpp LIBS cardhour_sim_lib)
cardhour_add_test(tst_billinginvariants
    SOURCES ${_billing}/tst_billinginvariants.cpp
    LIBS cardhour_service_fixture)
# Live reads against what the ledger posts at random moments; the meter's memory against its table.
cardhour_add_test(tst_livereads
    SOURCES ${_billing}/tst_livereads.cpp
    LIBS cardhour_service_fixture)
# Time-ordered ids of ledger postings (core/Ids): the order the posting pass relies on.
cardhour_add_test(tst_ids
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/core/tst_ids.cpp
    LIBS cardhour_sim_lib)
# The Bookkeeper: postings inside the caller's transaction, billMoved only after its commit.
cardhour_add_test(tst_bookkeeper SOURCES ${_billing}/tst_bookkeeper.cpp LIBS cardhour_sim_lib)
# One writer of the books: no other file of backend-sim/src writes the ledger's tables or posts.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME check_one_writer
         COMMAND ${Python3_EXECUTABLE} ${_billing}/check_one_writer.py
                 ${CMAKE_SOURCE_DIR}/backend-sim/src)
set_tests_properties(check_one_writer PROPERTIES TIMEOUT 60 LABELS backend)
