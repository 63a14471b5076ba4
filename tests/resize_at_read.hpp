#pragma once
// A file that changes while it is read, for the tests of corank's snapshot
// of its inputs (io/corank/io/source.hpp). Installed as the process's fault
// injector (io/fault_injection.hpp), ResizeAtRead fails nothing: at the nth
// read request (or the first write) it cuts a file to a new size, or appends
// bytes to it, before that request runs. A request that arrives meanwhile, on another thread,
// waits until the file has changed, so every read from the nth on sees the
// new file whatever the engine and however many threads read.
// drop_cached_pages() takes a file's pages out of the page cache
// (posix_fadvise, no privileges needed), so that what reads it goes to the
// disk: O_DIRECT through the engine rather than a copy from the cache.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "corank/io/fault_injection.hpp"

namespace corank::test {

// Whether the file's pages could be dropped (written back first: dirty pages stay).
inline bool drop_cached_pages(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return ok;
}

class ResizeAtRead final : public io::FaultInjector {
public:
  // At the nth read request `path` is cut to `size` bytes.
  static ResizeAtRead cut(std::string path, std::uint64_t nth, std::uint64_t size) {
    return ResizeAtRead(std::move(path), nth, size, {});
  }
  // At the first write request (a sort in memory: once every input was
  // read, as the output is written) `path` is cut to `size` bytes.
  static ResizeAtRead cut_at_first_write(std::string path, std::uint64_t size) {
    return ResizeAtRead(std::move(path), 1, size, {}, io::FaultPoint::write);
  }
  // At the nth read request `bytes` are appended to `path`.
  static ResizeAtRead grow(std::string path, std::uint64_t nth, std::string bytes) {
    return ResizeAtRead(std::move(path), nth, 0, std::move(bytes));
  }
  bool fail(io::FaultPoint point) noexcept override {
    if (point != point_) return false;
    if (seen_.fetch_add(1, std::memory_order_relaxed) + 1 >= nth_) std::call_once(once_, [this] { resize(); });
    return false;
  }
  // Whether the file was changed, and without an error.
  bool resized() const noexcept { return resized_.load(); }

private:
  ResizeAtRead(std::string path, std::uint64_t nth, std::uint64_t size, std::string appended,
               io::FaultPoint point = io::FaultPoint::read)
      : path_(std::move(path)), point_(point), nth_(nth), size_(size), appended_(std::move(appended)) {}

  void resize() noexcept {
    if (appended_.empty()) {
      resized_ = ::truncate(path_.c_str(), static_cast<off_t>(size_)) == 0 && drop_cached_pages(path_);
      return;
    }
    const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return;
    const bool ok = ::write(fd, appended_.data(), appended_.size()) == static_cast<ssize_t>(appended_.size());
    ::close(fd);
    resized_ = ok && drop_cached_pages(path_);
  }

  std::string path_;
  io::FaultPoint point_;
  std::uint64_t nth_;
  std::uint64_t size_;
  std::string appended_;
  std::atomic<std::uint64_t> seen_{0};
  std::once_flag once_;
  std::atomic<bool> resized_{false};
};

}  // namespace corank::test
