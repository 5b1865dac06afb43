# Run by the `app_help_without_display` test: `cardhour --help` and `--version` answer with no
# display, no platform plugin asked for and no X server (as over SSH or in a package check).
#   cmake -DPROGRAM=path/to/cardhour -DVERSION=x.y.z -P check-app-help.cmake
set(no_display -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM)
execute_process(COMMAND ${CMAKE_COMMAND} ${no_display} ${PROGRAM} --help
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code TIMEOUT 30)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "cardhour --help exited with ${code}: ${err}")
endif()
foreach(option --provider --sandbox --sim --ca --version)
    if(NOT out MATCHES "${option}")
        message(FATAL_ERROR "cardhour --help does not describe ${option}:\n${out}")
    endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} ${no_display} ${PROGRAM} --version
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code TIMEOUT 30)
string(STRIP "${out}" out)
if(NOT code EQUAL 0 OR NOT out MATCHES " ${VERSION}$")
    message(FATAL_ERROR "cardhour --version exited with ${code}, said \"${out}\": ${err}")
endif()
message(STATUS "${out}; --help describes every option")
