// app/LibSshOnDemand: linked without libssh, the forwarders load it at the first call and then
// behave as libssh itself (a session, options, an ed25519 key and its public half).
#include <QTest>

#include <dlfcn.h>
#include <libssh/libssh.h>

class TestLibSshOnDemand : public QObject
{
    Q_OBJECT

private:
    static bool libSshLoaded()
    {
        void *handle = dlopen(CARDHOUR_LIBSSH_SONAME, RTLD_NOW | RTLD_NOLOAD);
        if (handle)
            dlclose(handle);
        return handle != nullptr;
    }

private Q_SLOTS:
    void loadsLibSshAtTheFirstCall()
    {
        QVERIFY2(!libSshLoaded(), "libssh was mapped before any SSH call");
        ssh_session session = ssh_new();
        QVERIFY(session);
        QVERIFY(libSshLoaded());
        const int port = 2222;
        QCOMPARE(ssh_options_set(session, SSH_OPTIONS_HOST, "127.0.0.1"), SSH_OK);
        QCOMPARE(ssh_options_set(session, SSH_OPTIONS_PORT, &port), SSH_OK);
        QCOMPARE(ssh_is_connected(session), 0);
        ssh_free(session);
    }

    void keysWorkThroughTheForwarders()
    {
        ssh_key key = nullptr;
        QCOMPARE(ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key), SSH_OK);
        QVERIFY(key);
        QCOMPARE(ssh_key_type(key), SSH_KEYTYPE_ED25519);
        QCOMPARE(QByteArray(ssh_key_type_to_char(ssh_key_type(key))), QByteArray("ssh-ed25519"));
        char *publicKey = nullptr;
        QCOMPARE(ssh_pki_export_pubkey_base64(key, &publicKey), SSH_OK);
        QVERIFY(QByteArray(publicKey).size() > 40);
        ssh_key imported = nullptr;
        QCOMPARE(ssh_pki_import_pubkey_base64(publicKey, SSH_KEYTYPE_ED25519, &imported), SSH_OK);
        ssh_string_free_char(publicKey);
        ssh_key_free(imported);
        ssh_key_free(key);
    }
};

QTEST_GUILESS_MAIN(TestLibSshOnDemand)
#include "tst_libsshondemand.moc"
