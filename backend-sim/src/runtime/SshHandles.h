#pragma once

#include <libssh/libssh.h>
#include <memory>

namespace cardhour::sim {

// Owners of the libssh objects the runtime makes (host keys, the strings libssh allocates).
struct SshKeyDeleter
{
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
using SshKeyPtr = std::unique_ptr<ssh_key_struct, SshKeyDeleter>;

struct SshCharsDeleter
{
    void operator()(char *chars) const { ssh_string_free_char(chars); }
};
using SshChars = std::unique_ptr<char, SshCharsDeleter>;

} // namespace cardhour::sim
