#pragma once
// What a file replaced by rename must carry over from the file it replaces, so
// that the name keeps meaning what it meant: owner, mode, and extended
// attributes (POSIX ACLs, SELinux labels, capabilities, user.* attributes).
// GNU sort keeps them by writing into the old file; corank writes a new one.
#include <sys/stat.h>

#include <string>

namespace corank::io {

// Gives the new file `fd` the owner and mode of `old` (whose stat is `st`) and
// its extended attributes. False (errno set) where it cannot: an owner or an
// attribute this process may not set. The caller then writes into the old
// file instead; fd is left half-dressed and must be discarded.
bool take_attributes(int fd, const std::string& old, const struct stat& st);

}  // namespace corank::io
