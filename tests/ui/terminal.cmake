# The embedded terminal (ui/terminal): the libvterm screen model, the widget, and a real program
# under a local PTY painted by the widget. Screens are saved under <build>/screenshots.
cardhour_add_test(tst_terminalscreen
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tst_terminalscreen.cpp
    LIBS cardhour_terminal
    LABELS ui)

foreach(name IN ITEMS tst_terminalwidget tst_terminalpty)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${name}.cpp
        LIBS cardhour_terminal
        LABELS ui)
    target_compile_definitions(${name} PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
endforeach()
target_link_libraries(tst_terminalpty PRIVATE util)
