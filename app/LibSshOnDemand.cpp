// libssh bound on first use instead of at exec: the client's executable carries these forwarders
// (with the linker's --as-needed it then records no dependency on libssh), so loading libssh and
// libcrypto (a third of the libraries' start-up cost beyond a bare Qt window) waits until the
// first SSH connection, key or transfer, after the window is on screen. The SSH code itself is
// core/ssh, unchanged; each forwarder has the very signature of libssh.h, which the compiler
// checks against the header's extern "C" declaration. Tests and cardhourctl link libssh directly.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>

namespace {

void *libSshSymbol(const char *name)
{
    // Thread-safe: SSH work runs on worker threads.
    static void *const library = [] {
        void *handle = dlopen(CARDHOUR_LIBSSH_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            std::fprintf(stderr, "cardhour: cannot load %s: %s\n", CARDHOUR_LIBSSH_SONAME,
                         dlerror());
            std::abort();
        }
        return handle;
    }();
    void *symbol = dlsym(library, name);
    if (!symbol) {
        std::fprintf(stderr, "cardhour: %s has no %s\n", CARDHOUR_LIBSSH_SONAME, name);
        std::abort();
    }
    return symbol;
}

} // namespace

// One forwarder per libssh function the client calls (`nm -u` on a build without this file lists
// them). Were one missing, the linker would take libssh back as needed at exec: the test
// client_loads_libssh_late says so.
#define CARDHOUR_LIBSSH(ret, name, params, args)                                                   \
    extern "C" ret name params                                                                     \
    {                                                                                              \
        static const auto real = reinterpret_cast<decltype(&name)>(libSshSymbol(#name));           \
        return real args;                                                                          \
    }

CARDHOUR_LIBSSH(int, sftp_async_read, (sftp_file file, void *data, uint32_t len, uint32_t id),
                (file, data, len, id))
CARDHOUR_LIBSSH(int, sftp_async_read_begin, (sftp_file file, uint32_t len), (file, len))
CARDHOUR_LIBSSH(void, sftp_attributes_free, (sftp_attributes file), (file))
CARDHOUR_LIBSSH(int, sftp_close, (sftp_file file), (file))
CARDHOUR_LIBSSH(int, sftp_closedir, (sftp_dir dir), (dir))
CARDHOUR_LIBSSH(void, sftp_free, (sftp_session sftp), (sftp))
CARDHOUR_LIBSSH(int, sftp_get_error, (sftp_session sftp), (sftp))
CARDHOUR_LIBSSH(int, sftp_init, (sftp_session sftp), (sftp))
CARDHOUR_LIBSSH(int, sftp_mkdir, (sftp_session sftp, const char *directory, mode_t mode),
                (sftp, directory, mode))
CARDHOUR_LIBSSH(sftp_session, sftp_new, (ssh_session session), (session))
CARDHOUR_LIBSSH(sftp_file, sftp_open,
                (sftp_session session, const char *file, int accesstype, mode_t mode),
                (session, file, accesstype, mode))
CARDHOUR_LIBSSH(sftp_dir, sftp_opendir, (sftp_session session, const char *path), (session, path))
CARDHOUR_LIBSSH(sftp_attributes, sftp_readdir, (sftp_session session, sftp_dir dir), (session, dir))
CARDHOUR_LIBSSH(int, sftp_rename, (sftp_session sftp, const char *original, const char *newname),
                (sftp, original, newname))
CARDHOUR_LIBSSH(int, sftp_seek64, (sftp_file file, uint64_t new_offset), (file, new_offset))
CARDHOUR_LIBSSH(sftp_attributes, sftp_stat, (sftp_session session, const char *path),
                (session, path))
CARDHOUR_LIBSSH(int, sftp_unlink, (sftp_session sftp, const char *file), (sftp, file))
CARDHOUR_LIBSSH(ssize_t, sftp_write, (sftp_file file, const void *buf, size_t count),
                (file, buf, count))
CARDHOUR_LIBSSH(int, ssh_channel_change_pty_size, (ssh_channel channel, int cols, int rows),
                (channel, cols, rows))
CARDHOUR_LIBSSH(int, ssh_channel_close, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(void, ssh_channel_free, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_get_exit_status, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_is_closed, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_is_eof, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(ssh_channel, ssh_channel_new, (ssh_session session), (session))
CARDHOUR_LIBSSH(int, ssh_channel_open_forward,
                (ssh_channel channel, const char *remotehost, int remoteport,
                 const char *sourcehost, int localport),
                (channel, remotehost, remoteport, sourcehost, localport))
CARDHOUR_LIBSSH(int, ssh_channel_open_session, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_poll, (ssh_channel channel, int is_stderr), (channel, is_stderr))
CARDHOUR_LIBSSH(int, ssh_channel_read_nonblocking,
                (ssh_channel channel, void *dest, uint32_t count, int is_stderr),
                (channel, dest, count, is_stderr))
CARDHOUR_LIBSSH(int, ssh_channel_read_timeout,
                (ssh_channel channel, void *dest, uint32_t count, int is_stderr, int timeout_ms),
                (channel, dest, count, is_stderr, timeout_ms))
CARDHOUR_LIBSSH(int, ssh_channel_request_exec, (ssh_channel channel, const char *cmd),
                (channel, cmd))
CARDHOUR_LIBSSH(int, ssh_channel_request_pty_size,
                (ssh_channel channel, const char *term, int cols, int rows),
                (channel, term, cols, rows))
CARDHOUR_LIBSSH(int, ssh_channel_request_shell, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_send_eof, (ssh_channel channel), (channel))
CARDHOUR_LIBSSH(int, ssh_channel_write, (ssh_channel channel, const void *data, uint32_t len),
                (channel, data, len))
CARDHOUR_LIBSSH(void, ssh_clean_pubkey_hash, (unsigned char **hash), (hash))
CARDHOUR_LIBSSH(int, ssh_connect, (ssh_session session), (session))
CARDHOUR_LIBSSH(void, ssh_disconnect, (ssh_session session), (session))
CARDHOUR_LIBSSH(void, ssh_free, (ssh_session session), (session))
CARDHOUR_LIBSSH(const char *, ssh_get_error, (void *error), (error))
CARDHOUR_LIBSSH(socket_t, ssh_get_fd, (ssh_session session), (session))
CARDHOUR_LIBSSH(int, ssh_get_publickey_hash,
                (const ssh_key key, enum ssh_publickey_hash_type type, unsigned char **hash,
                 size_t *hlen),
                (key, type, hash, hlen))
CARDHOUR_LIBSSH(int, ssh_get_server_publickey, (ssh_session session, ssh_key *key), (session, key))
CARDHOUR_LIBSSH(int, ssh_is_connected, (ssh_session session), (session))
CARDHOUR_LIBSSH(void, ssh_key_free, (ssh_key key), (key))
CARDHOUR_LIBSSH(enum ssh_keytypes_e, ssh_key_type, (const ssh_key key), (key))
CARDHOUR_LIBSSH(enum ssh_keytypes_e, ssh_key_type_from_name, (const char *name), (name))
CARDHOUR_LIBSSH(const char *, ssh_key_type_to_char, (enum ssh_keytypes_e type), (type))
CARDHOUR_LIBSSH(ssh_session, ssh_new, (), ())
CARDHOUR_LIBSSH(int, ssh_options_set,
                (ssh_session session, enum ssh_options_e type, const void *value),
                (session, type, value))
CARDHOUR_LIBSSH(int, ssh_pki_export_privkey_base64,
                (const ssh_key privkey, const char *passphrase, ssh_auth_callback auth_fn,
                 void *auth_data, char **b64_key),
                (privkey, passphrase, auth_fn, auth_data, b64_key))
CARDHOUR_LIBSSH(int, ssh_pki_export_pubkey_base64, (const ssh_key key, char **b64_key),
                (key, b64_key))
CARDHOUR_LIBSSH(int, ssh_pki_generate, (enum ssh_keytypes_e type, int parameter, ssh_key *pkey),
                (type, parameter, pkey))
CARDHOUR_LIBSSH(int, ssh_pki_import_privkey_base64,
                (const char *b64_key, const char *passphrase, ssh_auth_callback auth_fn,
                 void *auth_data, ssh_key *pkey),
                (b64_key, passphrase, auth_fn, auth_data, pkey))
CARDHOUR_LIBSSH(int, ssh_pki_import_privkey_file,
                (const char *filename, const char *passphrase, ssh_auth_callback auth_fn,
                 void *auth_data, ssh_key *pkey),
                (filename, passphrase, auth_fn, auth_data, pkey))
CARDHOUR_LIBSSH(int, ssh_pki_import_pubkey_base64,
                (const char *b64_key, enum ssh_keytypes_e type, ssh_key *pkey),
                (b64_key, type, pkey))
CARDHOUR_LIBSSH(void, ssh_string_free_char, (char *s), (s))
CARDHOUR_LIBSSH(int, ssh_userauth_publickey,
                (ssh_session session, const char *username, const ssh_key privkey),
                (session, username, privkey))
