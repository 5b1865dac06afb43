# core/ssh: keys, verified connections, shell, port forwards, SFTP, OpenSSH config.
cardhour_add_test(tst_sshconfigwriter
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ssh/tst_sshconfigwriter.cpp
    LIBS cardhour_core
    LABELS core)
target_include_directories(tst_sshconfigwriter PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ssh)

# The one path from a provider's host key to known_hosts and every OpenSSH command; key choice.
cardhour_add_test(tst_sshaccess
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ssh/tst_sshaccess.cpp
    LIBS cardhour_core
    LABELS core)
target_include_directories(tst_sshaccess PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ssh)

# A one-click app's local guards: the forward's peer uid (loopback connections) and the 0600
# page that carries the app's address to the browser.
cardhour_add_test(tst_appopening
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ssh/tst_appopening.cpp
    LIBS cardhour_core
    LABELS core)

# Passphrases in the real keychain (run-with-keyring), keys checked with OpenSSH's ssh-keygen.
cardhour_add_test(tst_sshkeys
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ssh/tst_sshkeys.cpp
    LIBS cardhour_core
    LABELS core keychain
    WRAPPER ${CMAKE_CURRENT_SOURCE_DIR}/run-with-keyring)
target_include_directories(tst_sshkeys PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ssh)

# One real instance (podman) for every SSH function: connect, shell, forward, SFTP, ssh -F.
cardhour_add_test(tst_ssh_podman
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/ssh/tst_ssh_podman.cpp
    LIBS cardhour_core_test_support cardhour_podman_api_test)
target_include_directories(tst_ssh_podman PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ssh)
add_dependencies(tst_ssh_podman cardhour-sim)
cardhour_podman_test(tst_ssh_podman TIMEOUT 900)
