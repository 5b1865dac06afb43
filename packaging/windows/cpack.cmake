# Windows: an NSIS installer (.exe) by default, WiX (.msi) with `cpack -G WIX`; windeployqt
# copies the Qt DLLs and plugins (sqldrivers/qsqlite.dll, imageformats, tls) next to the
# programs at install time, through Qt's own deploy script. Not yet run on Windows
# (docs/platforms.md).
set(CPACK_GENERATOR "NSIS" "ZIP")
set(CPACK_NSIS_DISPLAY_NAME "CardHour")
set(CPACK_NSIS_PACKAGE_NAME "CardHour")
set(CPACK_NSIS_MUI_ICON "${CMAKE_CURRENT_BINARY_DIR}/cardhour.ico")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\cardhour.exe")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_URL_INFO_ABOUT "${CARDHOUR_HOMEPAGE_URL}")
set(CPACK_NSIS_MENU_LINKS "bin/cardhour.exe" "CardHour")
# WiX: a fixed upgrade code, so a newer .msi replaces an older one.
set(CPACK_WIX_UPGRADE_GUID "6F0C5B1E-9B7A-4C2E-8E3D-2A41C7D0B9F4")
set(CPACK_WIX_PRODUCT_ICON "${CMAKE_CURRENT_BINARY_DIR}/cardhour.ico")
set(CPACK_WIX_PROGRAM_MENU_FOLDER "CardHour")

# The .ico from the rendered PNGs (Qt writes ICO through its imageformats plugin at 256 px).
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cardhour.ico
    COMMAND cardhour-render-icon ${CARDHOUR_ICON_SVG} ${CMAKE_CURRENT_BINARY_DIR}/cardhour.ico 256
    DEPENDS cardhour-render-icon ${CARDHOUR_ICON_SVG})
add_custom_target(cardhour_windows_icon ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/cardhour.ico)

# Qt 6.4's signature (FILENAME_VARIABLE; later versions also take it).
foreach(program cardhour cardhourctl cardhour-sim)
    qt_generate_deploy_app_script(TARGET ${program} FILENAME_VARIABLE deploy_script
        NO_UNSUPPORTED_PLATFORM_ERROR)
    install(SCRIPT ${deploy_script})
endforeach()
