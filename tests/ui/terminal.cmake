# The embedded terminal (ui/terminal): the libvterm screen model, the widget, and a real program
# under a local PTY painted by the widget. Screens are saved under <build>/screenshots.
cardhour_add_test(tst_terminalscreen
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/terminal/tst_terminalscreen.cpp
    LIBS cardhour_terminal
    LABELS ui)

foreach(name IN ITEMS tst_terminalwidget tst_terminalpty)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/terminal/${name}.cpp
        LIBS cardhour_terminal
        LABELS ui)
    target_compile_definitions(${name}
        PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
endforeach()
target_link_libraries(tst_terminalpty PRIVATE util)

# The terminal in the main window on a real instance (podman): one click opens a verified shell,
# htop, resize, reconnect, a missing key named. Saves terminal-*.png under <build>/screenshots.
cardhour_add_test(tst_terminaltab
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tst_terminaltab.cpp
    LIBS cardhour_ui cardhour_core_test_support cardhour_podman_api_test)
target_include_directories(tst_terminaltab PRIVATE ${PROJECT_SOURCE_DIR}/tests/core/ssh)
target_compile_definitions(tst_terminaltab
    PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
add_dependencies(tst_terminaltab cardhour-sim)
cardhour_podman_test(tst_terminaltab TIMEOUT 600)
