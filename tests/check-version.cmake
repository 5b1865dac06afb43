# Run by the `version_single_source` test: every program says the version project() gives.
#   cmake -DVERSION=x.y.z -DPROGRAMS="a|b" -P check-version.cmake
string(REPLACE "|" ";" PROGRAMS "${PROGRAMS}")
foreach(program IN LISTS PROGRAMS)
    execute_process(COMMAND ${program} --version
        OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code TIMEOUT 60)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "${program} --version exited with ${code}: ${err}")
    endif()
    string(STRIP "${out}" out)
    if(NOT out MATCHES " ${VERSION}$")
        message(FATAL_ERROR "${program} --version says \"${out}\"; project() says ${VERSION}")
    endif()
    message(STATUS "${out}")
endforeach()
