#pragma once
// Move-only owner of a POSIX file descriptor; the destructor closes and never throws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace corank::io {

class FileDesc {
public:
  FileDesc() = default;
  explicit FileDesc(int fd) noexcept : fd_(fd) {}
  FileDesc(FileDesc&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  FileDesc& operator=(FileDesc&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  FileDesc(const FileDesc&) = delete;
  FileDesc& operator=(const FileDesc&) = delete;
  ~FileDesc() { reset(); }

  // Opens path; throws IoError("open failed", path, errno) on failure.
  static FileDesc open(const std::string& path, int flags, unsigned mode = 0644);

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept;

private:
  int fd_ = -1;
};

// Whole-buffer positional I/O: retries EINTR and short transfers; throws
// IoError naming the syscall and `path`. pread_full returns fewer bytes only at EOF.
std::size_t pread_full(int fd, void* dst, std::size_t n, std::uint64_t offset, const std::string& path);

// Faults in [p, p + n) for writing from user space; returns 0 or an errno
// (ENOMEM when the memory cannot be had, EFAULT when it cannot be written).
//
// Why: reads into valid buffers have been seen to answer EFAULT, "Bad
// address", now and then (a few in thousands of sorts, through pread and
// io_uring alike, at small budgets and while other memory- and I/O-heavy
// processes ran), never twice in a row. Such a read makes the kernel allocate
// destination pages never touched inside its copy; touched from user space
// first, a failed allocation is the process's to handle as out of memory,
// not a bad address. So every read that answers EFAULT (pread_full, the pread
// and io_uring engines) populates its destination with this and is retried
// once, and the engines' own buffers are touched when allocated; a truly bad
// address fails again. fresh_pages.hpp populates with it where that pays.
int prefault_for_write(void* p, std::size_t n) noexcept;
void pwrite_full(int fd, const void* src, std::size_t n, std::uint64_t offset, const std::string& path);
// Whether fd's file lies on a memory file system (tmpfs or ramfs), where its
// pages are memory already: mapping it costs no copy, and allocating its pages
// is the bulk of writing it.
bool on_memory_file_system(int fd) noexcept;
// Whether the file (fd, or the path's) lies on one of the kernel's pseudo
// file systems (proc, sysfs, debugfs, tracefs, securityfs, cgroup), whose
// files' sizes are not their contents' (0, or a page): such a file is read as
// a stream, to its end, never held to its size.
bool on_pseudo_file_system(int fd) noexcept;
bool on_pseudo_file_system(const std::string& path) noexcept;

// Writes n bytes at `offset`, the end of the regular file fd (open for
// reading and writing: a mapping needs both), with up to
// `threads` threads where that is faster. On a memory file system (tmpfs) the
// kernel serializes buffered writes to one file, and allocating its pages is
// the bulk of the work, but page faults in a shared mapping proceed in
// parallel: there the file is extended and each thread allocates its part of
// the new range (MADV_POPULATE_WRITE, so a full file system is an IoError,
// never a SIGBUS) and copies into it. Elsewhere, for small writes, or where
// the kernel cannot populate a range: pwrite_full. Returns whether the bytes
// went through a mapping. Throws IoError naming `path`.
bool append_in_parallel(int fd, std::uint64_t offset, const void* src, std::size_t n, unsigned threads,
                        const std::string& path);
// Sequential variants for pipes and terminals.
std::size_t read_full(int fd, void* dst, std::size_t n, const std::string& path);
void write_full(int fd, const void* src, std::size_t n, const std::string& path);

}  // namespace corank::io
