# ui/pages: the account page on its own (no provider); the Snapshots and Storage pages against
# a real cardhour-sim. The snapshots test also restores a /workspace file with real containers
# (podman), so it runs alone after the base image fixture. Screens are saved under
# <build>/screenshots.
cardhour_add_test(tst_accountpage
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pages/tst_accountpage.cpp
    LIBS cardhour_ui
    LABELS ui)

cardhour_add_test(tst_storagepage
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pages/tst_storagepage.cpp
        ${CMAKE_CURRENT_SOURCE_DIR}/pages/PageTestSupport.h
    LIBS cardhour_ui cardhour_core_test_support
    LABELS ui)
target_compile_definitions(tst_storagepage
    PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
add_dependencies(tst_storagepage cardhour-sim)

cardhour_add_test(tst_snapshotspage
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pages/tst_snapshotspage.cpp
        ${CMAKE_CURRENT_SOURCE_DIR}/pages/PageTestSupport.h
    LIBS cardhour_ui cardhour_core_test_support cardhour_podman_api_test)
target_include_directories(tst_snapshotspage PRIVATE ${PROJECT_SOURCE_DIR}/tests/core/ssh)
target_compile_definitions(tst_snapshotspage
    PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
add_dependencies(tst_snapshotspage cardhour-sim)
cardhour_podman_test(tst_snapshotspage TIMEOUT 900)

# The Instances page on its own (InstancesPage) against a real cardhour-sim (in-process runtime).
cardhour_add_test(tst_instancespage
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pages/tst_instancespage.cpp
        ${CMAKE_CURRENT_SOURCE_DIR}/pages/PageTestSupport.h
    LIBS cardhour_ui cardhour_core_test_support
    LABELS ui)
target_compile_definitions(tst_instancespage
    PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
add_dependencies(tst_instancespage cardhour-sim)

# The model library (Storage page section, upload with resume and checksum, delete, launch
# dialog's models) against a real cardhour-sim (in-process runtime).
cardhour_add_test(tst_modellibrary
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/pages/tst_modellibrary.cpp
        ${CMAKE_CURRENT_SOURCE_DIR}/pages/PageTestSupport.h
    LIBS cardhour_ui cardhour_core_test_support
    LABELS ui)
target_compile_definitions(tst_modellibrary
    PRIVATE CARDHOUR_SCREENSHOT_DIR="${CARDHOUR_SCREENSHOT_DIR}")
add_dependencies(tst_modellibrary cardhour-sim)
