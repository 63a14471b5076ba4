#pragma once
// Temporary files. Spilled runs are anonymous: created in a -T directory with
// mode 0600 and no name (O_TMPFILE), so the kernel frees them on every exit
// path, SIGKILL included. Where the file system refuses unnamed files, a run
// gets an owned name (owned_temporary.hpp) that is unlinked at once, and stale
// ones are removed from the directory first.
//
// Named files that a dying program should remove (the output's temporary file
// on such a file system) are registered here; the library installs no signal
// handler (termination.hpp): a program's signal thread, or a handler it
// installs, calls unlink_registered_files().
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "corank/io/file_desc.hpp"

namespace corank::io {

class TempDirectories {
public:
  // dirs empty: $TMPDIR, else /tmp (GNU sort's rule).
  explicit TempDirectories(std::vector<std::string> dirs);
  // An anonymous read-write file in the next directory, round-robin. Throws
  // IoError naming the directory, and why where the reason is not plain
  // ("the file system there takes no new files" for /proc, say).
  FileDesc create_anonymous();
  const std::vector<std::string>& dirs() const noexcept { return dirs_; }

private:
  std::vector<std::string> dirs_;
  std::vector<bool> swept_;  // stale owned names removed from dirs_[i] (file systems without O_TMPFILE)
  std::size_t next_ = 0;
};

// What spilled runs are called in messages. The write paths of io/ name such a
// file by the directory it lies in (file_name_in_errors), so that a full -T
// directory is named: "write failed: temporary file in '/scratch': No space left on device".
inline constexpr std::string_view kTemporaryFile = "temporary file";
// `name`, or for kTemporaryFile "temporary file in 'DIR'", DIR read back from
// the descriptor (/proc/self/fd); `name` where that cannot be read.
std::string file_name_in_errors(int fd, const std::string& name);

// Registers a path for removal by unlink_registered_files(); returns a slot for unregister_cleanup.
int register_cleanup(const std::string& path);
void unregister_cleanup(int slot) noexcept;
// Unlinks every registered path; async-signal-safe.
void unlink_registered_files() noexcept;

}  // namespace corank::io
