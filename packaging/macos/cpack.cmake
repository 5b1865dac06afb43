# macOS: CardHour.app in a disk image (DragNDrop). cardhour-sim and cardhourctl go into
# Contents/MacOS next to the client (SandboxLauncher::defaultExecutable() looks there), the
# sandbox's runtime files into Contents/share/cardhour (RuntimeFiles: ../share/cardhour from
# Contents/MacOS); macdeployqt copies Qt and the other libraries into the bundle at install
# time, through Qt's own deploy script. Not yet run on macOS (docs/platforms.md).
set(CPACK_GENERATOR "DragNDrop")
set(CPACK_DMG_VOLUME_NAME "CardHour")
set(CPACK_DMG_FORMAT "UDZO")

configure_file(macos/Info.plist.in ${CMAKE_CURRENT_BINARY_DIR}/Info.plist @ONLY)
set_target_properties(cardhour PROPERTIES
    OUTPUT_NAME "CardHour"
    MACOSX_BUNDLE_INFO_PLIST ${CMAKE_CURRENT_BINARY_DIR}/Info.plist)

# The .icns from an .iconset of the rendered sizes (iconutil ships with macOS).
set(iconset "${CMAKE_CURRENT_BINARY_DIR}/cardhour.iconset")
set(icns "${CMAKE_CURRENT_BINARY_DIR}/cardhour.icns")
set(iconset_commands "")
foreach(size 16 32 128 256 512)
    math(EXPR double "${size} * 2")
    list(APPEND iconset_commands
        COMMAND cardhour-render-icon ${CARDHOUR_ICON_SVG} ${iconset}/icon_${size}x${size}.png
            ${size}
        COMMAND cardhour-render-icon ${CARDHOUR_ICON_SVG} ${iconset}/icon_${size}x${size}@2x.png
            ${double})
endforeach()
add_custom_command(OUTPUT ${icns}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${iconset}
    ${iconset_commands}
    COMMAND iconutil -c icns -o ${icns} ${iconset}
    DEPENDS cardhour-render-icon ${CARDHOUR_ICON_SVG})
add_custom_target(cardhour_macos_icon ALL DEPENDS ${icns})
add_dependencies(cardhour cardhour_macos_icon)
install(FILES ${icns} DESTINATION CardHour.app/Contents/Resources)


# Qt 6.4's signature (FILENAME_VARIABLE). It deploys for the bundle's own executable; whether
# macdeployqt also picks up what cardhour-sim and cardhourctl link (libssh) is not known yet.
qt_generate_deploy_app_script(TARGET cardhour FILENAME_VARIABLE deploy_script
    NO_UNSUPPORTED_PLATFORM_ERROR)
install(SCRIPT ${deploy_script})
