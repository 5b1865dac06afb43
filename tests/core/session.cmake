# core/session: SecretStore and Session against the real Secret Service. run-with-keyring
# starts a private D-Bus session with an unlocked gnome-keyring; where it cannot, the tests
# skip and say why.
foreach(name IN ITEMS tst_secretstore tst_session tst_clientsession)
    cardhour_add_test(${name}
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/session/${name}.cpp
        LIBS cardhour_core_test_support
        LABELS core keychain
        WRAPPER ${CMAKE_CURRENT_SOURCE_DIR}/run-with-keyring)
    add_dependencies(${name} cardhour-sim)
endforeach()
