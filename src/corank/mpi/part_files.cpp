#include "corank/mpi/part_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "corank/io/error.hpp"
#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

std::string part_name(const std::string& out, unsigned rank) {
  char n[16];
  std::snprintf(n, sizeof n, "%05u", rank);
  return out + ".part-" + n;
}

PartFile::PartFile(const std::string& target, unsigned rank) : name_(part_name(target, rank)) {
  staged_ = dir_of(name_) + "/." + base_of(name_) + "." + job_mark() + ".new";
  // Beside the target, so that staging it is a link and taking its name a
  // rename; 0666 less the umask, a new file's mode.
  if (io::FileDesc fd = open_anonymous(dir_of(name_), 0666); fd.valid()) {
    file_ = ScratchFile(std::move(fd), "");
    return;
  }
  file_ = ScratchFile(io::FileDesc::open(staged_, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), "");
  staged_here_ = true;
  cleanup_ = CleanupPath(staged_, /*directory=*/false);
}

PartFile::~PartFile() {
  if (staged_here_) ::unlink(staged_.c_str());
}

void PartFile::stage() {
  if (staged_here_) return;  // named from the start
  ::unlink(staged_.c_str());   // a dead run's (the same host and process id)
  cleanup_ = CleanupPath(staged_, /*directory=*/false);
  if (::linkat(AT_FDCWD, file_.path().c_str(), AT_FDCWD, staged_.c_str(), AT_SYMLINK_FOLLOW) != 0)
    throw io::IoError("cannot create output file", staged_, errno);
  staged_here_ = true;
}

void PartFile::taken() noexcept {
  staged_here_ = false;
  cleanup_.release();
}

void commit_parts(Communicator& c, const std::string& target, PartFile& mine) {
  phase(c, [&] {
    if (::rename(mine.staged().c_str(), mine.name().c_str()) != 0) throw io::IoError("rename failed", mine.name(), errno);
    mine.taken();
  });
  if (c.rank() == 0)  // parts of an earlier run with more ranks would not belong
    for (unsigned k = c.ranks(); ::unlink(part_name(target, k).c_str()) == 0; ++k) {
    }
}

}  // namespace corank::mpi
