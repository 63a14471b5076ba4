#include "corank/mpi/scratch.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <utility>

#include "corank/io/error.hpp"
#include "corank/io/termination.hpp"

namespace corank::mpi {

ScratchFile::ScratchFile(io::FileDesc fd, std::string named) : fd_(std::move(fd)), named_(std::move(named)) {
  path_ = named_.empty() ? "/proc/self/fd/" + std::to_string(fd_.get()) : named_;
  if (!named_.empty()) cleanup_ = CleanupPath(named_, /*directory=*/false);
}

ScratchFile::ScratchFile(ScratchFile&& o) noexcept
    : fd_(std::move(o.fd_)), path_(std::exchange(o.path_, {})), named_(std::exchange(o.named_, {})),
      cleanup_(std::move(o.cleanup_)) {}

ScratchFile& ScratchFile::operator=(ScratchFile&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = std::move(o.fd_);
    path_ = std::exchange(o.path_, {});
    named_ = std::exchange(o.named_, {});
    cleanup_ = std::move(o.cleanup_);
  }
  return *this;
}

void ScratchFile::reset() noexcept {
  if (!named_.empty()) ::unlink(named_.c_str());
  named_.clear();
  path_.clear();
  cleanup_.release();
  fd_.reset();
}

io::FileDesc open_anonymous(const std::string& dir, unsigned mode) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
  if (fd >= 0) return io::FileDesc(fd);
  // No O_TMPFILE here (or a kernel that reads it as O_DIRECTORY).
  if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) return io::FileDesc();
  throw io::IoError("cannot create temporary file in", dir, errno);
}

ScratchSpace::ScratchSpace(const std::vector<std::string>& temp_dirs) {
  root_ = !temp_dirs.empty() ? temp_dirs[0] : "";
  if (root_.empty())
    if (const char* t = std::getenv("TMPDIR"); t && *t) root_ = t;
  if (root_.empty()) root_ = "/tmp";
  sweep_dead_jobs(root_);
}

ScratchSpace::~ScratchSpace() {
  if (!dir_.empty()) ::rmdir(dir_.c_str());  // its files were removed by their owners
}

ScratchFile ScratchSpace::create(const std::string& name, unsigned mode) {
  if (io::FileDesc fd = open_anonymous(root_, mode); fd.valid()) return ScratchFile(std::move(fd), "");
  const io::DeferTermination naming;  // registered as they are made (cleanup.hpp)
  if (dir_.empty()) {
    std::string templ = root_ + "/" + job_mark() + ".XXXXXX";
    if (!::mkdtemp(templ.data())) throw io::IoError("cannot create temporary directory", templ, errno);
    dir_ = templ;
    dir_cleanup_ = CleanupPath(dir_, /*directory=*/true);
  }
  const std::string path = dir_ + "/" + name;
  return ScratchFile(io::FileDesc::open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode), path);
}

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace corank::mpi
