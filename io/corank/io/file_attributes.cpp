#include "corank/io/file_attributes.hpp"

#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

namespace corank::io {

namespace {

// The bytes of a list or value call: f(buffer, size) answering a length or -1,
// asked again while the value grows in between (ERANGE). False, errno set, on
// failure.
template <class Call>
bool read_sized(std::vector<char>& out, Call f) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const ssize_t need = f(nullptr, 0);
    if (need < 0) return false;
    out.resize(static_cast<std::size_t>(need));
    const ssize_t got = f(out.data(), out.size());
    if (got >= 0) {
      out.resize(static_cast<std::size_t>(got));
      return true;
    }
    if (errno != ERANGE) return false;
  }
  return false;
}

bool copy_extended_attributes(int fd, const std::string& old) {
  std::vector<char> names;
  if (!read_sized(names, [&](char* b, std::size_t n) { return ::listxattr(old.c_str(), b, n); }))
    return errno == ENOTSUP;  // a file system without them: nothing to keep
  std::vector<char> value, present;
  for (std::size_t at = 0; at < names.size();) {
    const char* name = names.data() + at;
    at += std::strlen(name) + 1;
    if (!read_sized(value, [&](char* b, std::size_t n) { return ::getxattr(old.c_str(), name, b, n); })) {
      if (errno == ENODATA) continue;  // removed since it was listed
      return false;
    }
    // One the new file has already (an SELinux label given by its directory)
    // is not set again: setting even the same label may need a permission.
    if (read_sized(present, [&](char* b, std::size_t n) { return ::fgetxattr(fd, name, b, n); }) && present == value)
      continue;
    if (::fsetxattr(fd, name, value.data(), value.size(), 0) != 0) return false;
  }
  return true;
}

}  // namespace

bool take_attributes(int fd, const std::string& old, const struct stat& st) {
  // Owner first: a change of owner clears the set-user-ID and set-group-ID bits
  // that the mode then restores.
  if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(fd, st.st_uid, st.st_gid) != 0) return false;
  if (::fchmod(fd, st.st_mode & 07777) != 0) return false;
  return copy_extended_attributes(fd, old);
}

}  // namespace corank::io
