#include "corank/io/output_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <utility>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io {

OutputFile::OutputFile(const std::string& target, const IoOptions& opt) : target_(target), sync_(opt.sync_output) {
  if (target.empty() || target == "-") {
    target_ = "-";
    sink_ = make_fd_sink(STDOUT_FILENO, "standard output", opt);
    if (opt.output_codec) sink_ = compressing_sink(std::move(sink_), *opt.output_codec, "standard output");
    return;
  }
  auto slash = target.rfind('/');
  std::string dir = slash == std::string::npos ? "." : target.substr(0, slash == 0 ? 1 : slash);
  std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string tmpl = (dir == "/" ? "" : dir) + "/." + base + ".corank-XXXXXX";
  install_cleanup_handlers();
  fd_ = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd_ < 0) throw_io_error("cannot create output file in", dir, errno);
  temp_path_ = tmpl;
  cleanup_slot_ = register_cleanup(temp_path_);
  ::fchmod(fd_, 0666 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
  dir_ = dir;
  try {
    sink_ = make_fd_sink(fd_, target_, opt);
    const Codec codec = opt.output_codec ? *opt.output_codec : codec_from_suffix(target_);
    sink_ = compressing_sink(std::move(sink_), codec, target_);
    positional_ = codec == Codec::none;
  } catch (...) {
    // No destructor runs for a half-built object: undo the temporary file here.
    ::close(fd_);
    ::unlink(temp_path_.c_str());
    unregister_cleanup(cleanup_slot_);
    throw;
  }
}

OutputFile::~OutputFile() {
  unmap();
  sink_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  unregister_cleanup(cleanup_slot_);
}

namespace {
constexpr std::uint64_t kPrefaultPiece = std::uint64_t{32} << 20;
constexpr unsigned kPrefaultThreads = 8;
}  // namespace

void OutputFile::unmap() noexcept {
  stop_prefault_ = true;
  for (auto& t : prefault_) t.join();
  prefault_.clear();
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
  map_ = nullptr;
}

bool OutputFile::map_for_writing(std::uint64_t bytes) {
  if (!positional_ || sink_->bytes_written() != 0 || bytes == 0) return false;
  struct statfs fs {};
  if (::fstatfs(fd_, &fs) != 0 || (static_cast<unsigned long>(fs.f_type) != TMPFS_MAGIC && static_cast<unsigned long>(fs.f_type) != RAMFS_MAGIC)) return false;
  if (inject_write_failure()) throw_io_error("write failed", target_, ENOSPC);  // the engines' test hook
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) throw_io_error("write failed", target_, errno);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) return false;
  map_ = static_cast<std::byte*>(p);
  map_bytes_ = bytes;
  // Huge pages where the file system allows them (tmpfs huge=advise): fewer,
  // larger page allocations. Advice only.
  ::madvise(map_, bytes, MADV_HUGEPAGE);
  mapped_used_ = bytes;
  // Ranges are allocated by the writers, in parallel, where the kernel can
  // populate a range and report failure (Linux 5.14); else all at once here.
  populate_ = ::madvise(map_, 1, MADV_POPULATE_WRITE) == 0;
  if (!populate_ && ::fallocate(fd_, 0, 0, static_cast<off_t>(bytes)) != 0) {
    const int e = errno;
    unmap();
    throw_io_error("write failed", target_, e);
  }
  if (populate_) {
    // Thread t takes pieces t, t + T, ...: the front of the file first, where
    // the writers start. A failure stops it; the writer that reaches that
    // range reports it.
    stop_prefault_ = false;
    for (unsigned t = 0; t < kPrefaultThreads; ++t)
      prefault_.emplace_back([this, t] {
        for (std::uint64_t at = t * kPrefaultPiece; at < map_bytes_ && !stop_prefault_;
             at += kPrefaultThreads * kPrefaultPiece)
          if (::madvise(map_ + at, static_cast<std::size_t>(std::min(kPrefaultPiece, map_bytes_ - at)),
                        MADV_POPULATE_WRITE) != 0)
            return;
      });
  }
  return true;
}

void OutputFile::write_mapped(std::uint64_t at, const void* src, std::size_t n) {
  if (n == 0) return;
  if (map_ == nullptr || at + n > map_bytes_) throw IoError("write failed", target_, "write outside the mapped output");
  if (populate_) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t from = at / page * page;
    if (::madvise(map_ + from, static_cast<std::size_t>(at + n - from), MADV_POPULATE_WRITE) != 0)
      throw_io_error("write failed", target_, errno == ENOMEM || errno == EFAULT ? ENOSPC : errno);
  }
  std::memcpy(map_ + at, src, n);
}

void OutputFile::commit() {
  if (map_ != nullptr) {
    unmap();
    if (::ftruncate(fd_, static_cast<off_t>(mapped_used_)) != 0) throw_io_error("write failed", target_, errno);
  }
  sink_->finish();
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  if (::close(std::exchange(fd_, -1)) != 0) throw_io_error("write failed", target_, errno);
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) throw_io_error("cannot rename output to", target_, errno);
  committed_ = true;
  // The rename itself is durable only once the directory is synced.
  if (!sync_) return;
  int d = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d >= 0) {
    int r = ::fsync(d);
    int e = errno;
    ::close(d);
    if (r != 0 && e != EINVAL) throw_io_error("fsync failed", dir_, e);
  }
}

}  // namespace corank::io
