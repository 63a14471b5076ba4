#pragma once
// A rank's scratch files (received pieces, a piece sorted before it is moved
// into place): in the first -T directory (else $TMPDIR, else /tmp), without a
// name (O_TMPFILE), so that no exit, SIGKILL included, leaves one behind; the
// rank's sort opens them as /proc/self/fd/N. Where the file system has no
// O_TMPFILE they are named, in a directory of the rank's own that carries its
// host and process id (cleanup.hpp), removed on every exit path, on SIGINT,
// SIGTERM and SIGHUP, and by the next run on the host after a SIGKILL.
#include <string>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/mpi/cleanup.hpp"

namespace corank::mpi {

// An open file with a name that opens it again.
class ScratchFile {
public:
  ScratchFile() = default;
  // named: a path to unlink when this object ends; "" for an anonymous file.
  ScratchFile(io::FileDesc fd, std::string named);
  ScratchFile(ScratchFile&& o) noexcept;
  ScratchFile& operator=(ScratchFile&& o) noexcept;
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() { reset(); }
  int fd() const noexcept { return fd_.get(); }
  // /proc/self/fd/N for an anonymous file (valid while this object lives).
  const std::string& path() const noexcept { return path_; }
  bool named() const noexcept { return !named_.empty(); }

private:
  void reset() noexcept;
  io::FileDesc fd_;
  std::string path_, named_;
  CleanupPath cleanup_;  // a named one, for the signal handlers
};

// An anonymous read-write file in `dir` with `mode` (less the umask);
// invalid where the file system has no O_TMPFILE. Throws IoError naming
// `dir` for any other failure.
io::FileDesc open_anonymous(const std::string& dir, unsigned mode);

class ScratchSpace {
public:
  // Removes, there, what dead corank-mpi processes of this host left.
  explicit ScratchSpace(const std::vector<std::string>& temp_dirs);
  ~ScratchSpace();
  ScratchSpace(const ScratchSpace&) = delete;
  ScratchSpace& operator=(const ScratchSpace&) = delete;
  // A new empty file; `name` names it only where it must have a name.
  ScratchFile create(const std::string& name, unsigned mode = 0600);
  const std::string& root() const noexcept { return root_; }

private:
  std::string root_;
  std::string dir_;  // the named directory, once made
  CleanupPath dir_cleanup_;
};

// The directory of a path ("." for a bare name) and its last component.
std::string dir_of(const std::string& path);
std::string base_of(const std::string& path);

}  // namespace corank::mpi
