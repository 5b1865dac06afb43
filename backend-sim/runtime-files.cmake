# The files cardhour-sim reads at run time (core/RuntimeFiles): the image recipes with
# bootstrap-debian and the simulated nvidia-smi (images/), and podman/containers.conf.
# Installed to <datadir>/cardhour; in the build tree staged to <build>/share/cardhour, so a
# program run from the build finds the same layout and the source tree is never read.
set(cardhour_runtime_build_dir "${CMAKE_BINARY_DIR}/share/cardhour")
file(GLOB_RECURSE cardhour_runtime_sources CONFIGURE_DEPENDS
    "${CMAKE_CURRENT_SOURCE_DIR}/images/*" "${CMAKE_CURRENT_SOURCE_DIR}/podman/*")
set(cardhour_runtime_stamp "${CMAKE_CURRENT_BINARY_DIR}/runtime-files.stamp")
# Removed first: a recipe file deleted from the source must not linger in the build's copy.
add_custom_command(OUTPUT ${cardhour_runtime_stamp}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${cardhour_runtime_build_dir}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_CURRENT_SOURCE_DIR}/images
        ${cardhour_runtime_build_dir}/images
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_CURRENT_SOURCE_DIR}/podman
        ${cardhour_runtime_build_dir}/podman
    COMMAND ${CMAKE_COMMAND} -E touch ${cardhour_runtime_stamp}
    DEPENDS ${cardhour_runtime_sources}
    COMMENT "Staging the sandbox's runtime files in share/cardhour")
add_custom_target(cardhour_sim_runtime_files ALL DEPENDS ${cardhour_runtime_stamp})

# The runtime folder as seen from the programs' folder: what RuntimeFiles looks for next to the
# program (../share/cardhour on Linux, in the macOS bundle and on Windows alike).
file(RELATIVE_PATH cardhour_relative_datadir "/prefix/${CARDHOUR_INSTALL_BINDIR}"
    "/prefix/${CARDHOUR_INSTALL_RUNTIMEDIR}")
# On the one file that needs them, so a change of folders recompiles nothing else.
set_property(SOURCE src/core/RuntimeFiles.cpp TARGET_DIRECTORY cardhour_sim_lib APPEND PROPERTY
    COMPILE_DEFINITIONS CARDHOUR_RELATIVE_DATADIR="${cardhour_relative_datadir}"
    CARDHOUR_BUILD_RUNTIME_DIR="${cardhour_runtime_build_dir}")
add_dependencies(cardhour_sim_lib cardhour_sim_runtime_files)

install(DIRECTORY images/ DESTINATION ${CARDHOUR_INSTALL_RUNTIMEDIR}/images USE_SOURCE_PERMISSIONS)
install(FILES podman/containers.conf DESTINATION ${CARDHOUR_INSTALL_RUNTIMEDIR}/podman)
