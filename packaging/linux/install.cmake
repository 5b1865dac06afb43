# The Linux side of the package: the desktop entry, icons, AppStream metadata, manual pages,
# changelog and copyright, and the Debian package's settings (cpack -G DEB).
install(FILES linux/cardhour.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CARDHOUR_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size IN LISTS CARDHOUR_ICON_SIZES)
    install(FILES ${CARDHOUR_ICON_DIR}/cardhour-${size}.png
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
        RENAME cardhour.png)
endforeach()

# Dates for the metainfo's release and the changelog: the build's (SOURCE_DATE_EPOCH when set,
# for reproducible packages).
string(TIMESTAMP CARDHOUR_RELEASE_DATE "%Y-%m-%d" UTC)
string(TIMESTAMP CARDHOUR_RELEASE_DATE_RFC2822 "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(metainfo "${CMAKE_CURRENT_BINARY_DIR}/io.cardhour.CardHour.metainfo.xml")
configure_file(linux/io.cardhour.CardHour.metainfo.xml.in ${metainfo} @ONLY)
install(FILES ${metainfo} DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# Manual pages and the changelog, compressed as Debian wants them (gzip -n: no time stamp).
find_program(CARDHOUR_GZIP gzip REQUIRED)
set(man_sources linux/man/cardhour.1 linux/man/cardhour-sim.1)
# cardhourctl's page is written with cardhourctl; packed when it is there.
foreach(candidate cardhourctl/cardhourctl.1 packaging/linux/man/cardhourctl.1)
    if(EXISTS ${PROJECT_SOURCE_DIR}/${candidate})
        list(APPEND man_sources ${PROJECT_SOURCE_DIR}/${candidate})
        break()
    endif()
endforeach()
configure_file(linux/changelog.in ${CMAKE_CURRENT_BINARY_DIR}/changelog @ONLY)
set(compressed "")
foreach(source IN LISTS man_sources ITEMS ${CMAKE_CURRENT_BINARY_DIR}/changelog)
    get_filename_component(name ${source} NAME)
    get_filename_component(absolute ${source} ABSOLUTE)
    set(gz "${CMAKE_CURRENT_BINARY_DIR}/gz/${name}.gz")
    add_custom_command(OUTPUT ${gz}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/gz
        COMMAND ${CARDHOUR_GZIP} -9 -n -c ${absolute} > ${gz}
        DEPENDS ${absolute} VERBATIM)
    list(APPEND compressed ${gz})
    if(name MATCHES "\\.1$")
        install(FILES ${gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    else()
        install(FILES ${gz} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/cardhour)
    endif()
endforeach()
add_custom_target(cardhour_docs ALL DEPENDS ${compressed})
install(FILES linux/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/cardhour)

set(CPACK_GENERATOR "TGZ")
find_program(CARDHOUR_DPKG_DEB dpkg-deb)
if(CARDHOUR_DPKG_DEB)
    list(APPEND CPACK_GENERATOR "DEB")
endif()

# Debian package. dpkg-shlibdeps works out the libraries the executables link where it exists;
# the list below adds what no ELF file names (the Qt SQLite and SVG plugins, the Secret Service
# client QtKeychain loads) and is complete on its own where dpkg-shlibdeps does not run; the
# alternatives cover the "t64" names of Debian 13 and Ubuntu 24.04.
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6core6 (>= 6.4) | libqt6core6t64 (>= 6.4)"
    "libqt6gui6 (>= 6.4) | libqt6gui6t64 (>= 6.4)"
    "libqt6network6 (>= 6.4) | libqt6network6t64 (>= 6.4)"
    "libqt6sql6 (>= 6.4) | libqt6sql6t64 (>= 6.4)"
    "libqt6sql6-sqlite (>= 6.4) | libqt6sql6-sqlite-t64 (>= 6.4)"
    "libqt6widgets6 (>= 6.4) | libqt6widgets6t64 (>= 6.4)"
    "libqt6svg6 (>= 6.4)"
    "qt6-qpa-plugins (>= 6.4)"
    "libqt6keychain1 | libqt6keychain1t64"
    "libsecret-1-0"
    "libssh-4 (>= 0.10) | libssh-4t64 (>= 0.10)"
    "libcurl4 (>= 7.68) | libcurl4t64 (>= 7.68)"
    "libsqlite3-0 (>= 3.20)"
    "libvterm0 (>= 0.1)"
    "libssl3 (>= 3.0) | libssl3t64 (>= 3.0)"
    "openssh-client")
list(JOIN CPACK_DEBIAN_PACKAGE_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Real containers (podman with runc), a Secret Service for the keychain, Qt's own Chinese
# strings, CJK glyphs; without them the client still runs (in-process sandbox, no keychain).
# debootstrap too: with no registry, the sandbox's images are built from it on first run.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "podman, runc, uidmap, slirp4netns, debootstrap, gnome-keyring | kwalletmanager, "
    "qt6-translations-l10n, fonts-noto-cjk | fonts-wqy-microhei")
string(JOIN "" CPACK_DEBIAN_PACKAGE_RECOMMENDS ${CPACK_DEBIAN_PACKAGE_RECOMMENDS})
# Only for `cardhour-sim --store postgresql://…` (several providers on one database).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libqt6sql6-psql (>= 6.4) | libqt6sql6-psql-t64 (>= 6.4)")
find_program(CARDHOUR_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(CARDHOUR_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
# Lintian: what it reports that is so on purpose, each with the reason.
install(FILES linux/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
    RENAME cardhour)
