# One INTERFACE target that every CardHour target links: warnings and strict Qt defines.
add_library(cardhour_options INTERFACE)

target_compile_definitions(cardhour_options INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_FOREACH
    QT_NO_KEYWORDS
    QT_NO_CONTEXTLESS_CONNECT
    QT_DISABLE_DEPRECATED_UP_TO=0x060400)

if(MSVC)
    target_compile_options(cardhour_options INTERFACE /W4 /permissive- /utf-8)
    if(CARDHOUR_WERROR)
        target_compile_options(cardhour_options INTERFACE /WX)
    endif()
else()
    target_compile_options(cardhour_options INTERFACE
        -Wall -Wextra -Wpedantic $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wnon-virtual-dtor
        -Wcast-align
        -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough)
    if(CARDHOUR_WERROR)
        target_compile_options(cardhour_options INTERFACE -Werror)
    endif()
endif()

# Sanitizer builds (the asan preset turns this on).
option(CARDHOUR_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
if(CARDHOUR_SANITIZE AND NOT MSVC)
    target_compile_options(cardhour_options
        INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(cardhour_options INTERFACE -fsanitize=address,undefined)
endif()

# The one version, from project(... VERSION): #include "CardHourVersion.h" gives CARDHOUR_VERSION.
configure_file(${CMAKE_CURRENT_LIST_DIR}/CardHourVersion.h.in
    ${CMAKE_BINARY_DIR}/generated/CardHourVersion.h @ONLY)
target_include_directories(cardhour_options INTERFACE ${CMAKE_BINARY_DIR}/generated)

# lld where it is installed, for the ~150 programs (most of them tests, each pulling in the static
# libraries): the tests' links took 186 s of step time with GNU ld and -g, 90 s with lld and -g1.
# CARDHOUR_USE_LLD=OFF keeps the default linker.
option(CARDHOUR_USE_LLD "Link with lld when the compiler can use it" ON)
if(CARDHOUR_USE_LLD AND NOT MSVC AND NOT APPLE)
    include(CheckLinkerFlag)
    check_linker_flag(CXX -fuse-ld=lld CARDHOUR_LINKER_LLD)
    if(CARDHOUR_LINKER_LLD)
        target_link_options(cardhour_options INTERFACE -fuse-ld=lld)
    endif()
endif()
