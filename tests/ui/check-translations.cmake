# cmake -DTS_FILE=... -P check-translations.cmake: fails when a translation is unfinished or
# missing, so a new tr() string cannot ship untranslated (build cardhour_lupdate, then translate).
file(READ "${TS_FILE}" ts)
string(REGEX MATCHALL "<translation type=\"unfinished\"" unfinished "${ts}")
string(REGEX MATCHALL "<translation type=\"vanished\"|<translation type=\"obsolete\"" stale "${ts}")
string(REGEX MATCHALL "<message[ >]" messages "${ts}")
list(LENGTH unfinished n_unfinished)
list(LENGTH stale n_stale)
list(LENGTH messages n_messages)
if(n_messages EQUAL 0)
    message(FATAL_ERROR "${TS_FILE}: no messages")
endif()
if(n_unfinished GREATER 0 OR n_stale GREATER 0)
    message(FATAL_ERROR
        "${TS_FILE}: ${n_unfinished} unfinished and ${n_stale} stale of ${n_messages} messages")
endif()
message(STATUS "${TS_FILE}: all ${n_messages} messages translated")
