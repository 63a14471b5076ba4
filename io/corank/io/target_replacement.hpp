#pragma once
// Putting the finished output in its target's place; output_file.hpp decides
// which way.
//  - By rename: the output was written to a file without a name (O_TMPFILE)
//    in the target's directory. It gets a name beside the target (linkat) and
//    is renamed over it: the one instant in which a killed process could leave
//    a file behind, under an owned name that the next run removes
//    (owned_temporary.hpp), and a DeferTermination section (termination.hpp).
//  - By copy, into a target that a rename would change (several hard links):
//    see copy_over().
#include <cstdint>
#include <string>

namespace corank::io {

// The file that -o `target` writes: `target` with its symlinks followed, to
// the end of a dangling one, which is then created (as GNU sort's open() with
// O_CREAT does). Where the kernel protects symlinks (fs.protected_symlinks), a
// link it would not follow for open() is refused here too (EACCES). Throws
// IoError("open failed", target, ...).
std::string resolve_target(const std::string& target);

// A file without a name in `dir` with `mode` (less the umask), open read-write;
// -1 with errno set where refused (EOPNOTSUPP: a file system without them).
int open_unnamed(const std::string& dir, unsigned mode);

// Gives the unnamed file `fd` an owned name beside `file` and returns it.
// Throws IoError naming `file`'s directory.
std::string link_beside(int fd, const std::string& file);

// Copies the whole of `from` into the existing file `path` (the target,
// called `target` in messages), keeping its inode. Old content or new, never a
// mix, as far as the kernel allows:
//  - concurrent copies into one file take turns (an exclusive flock(), held
//    until the copy is synced), so outputs never interleave;
//  - the final size is allocated first (fallocate), before a byte of the old
//    content is touched, so a full file system fails with the old content
//    whole (on copy-on-write file systems, btrfs and ZFS, overwriting needs
//    space of its own that no allocation reserves);
//  - the copy is a DeferTermination section: SIGINT, SIGTERM and SIGHUP wait
//    for it where the program takes them so (termination.hpp).
// SIGKILL, a power cut or an I/O error in the middle of the copy still leave
// a mix: this way of writing is never atomic (GNU sort's never is).
void copy_over(int from, const std::string& path, const std::string& target, bool sync);

}  // namespace corank::io
