#pragma once
// Fault injection for tests. Every read and write request (both engines,
// pread_full, read_full, pwrite_full, the output's and the runs' allocations,
// a mapped input), every unnamed temporary file and the GPU sorts ask the
// FaultInjector a test installed whether to fail; reads then fail with EIO,
// writes with ENOSPC, unnamed files with EOPNOTSUPP, GPU sorts with GpuError,
// exactly as a failed device, a full disk, a file system without O_TMPFILE or
// a lost GPU would.
// A read request may also find the end of its file where it starts
// (early_end), as it would in a file shorter than its reader knows: a run
// that reads back short, an input cut while it is read.
// That is how the tests prove that a failure at any stage leaves the old
// target, no partial output and no temporary file.
//
//   io::FailAfter full_disk(io::FaultPoint::write, 3);  // the third write on
//   io::ScopedFaultInjector scope(full_disk);           // this scope's sorts
//   EXPECT_THROW(corank::sort(request), io::IoError);
//
// The injector is installed for the whole process, not passed with a sort's
// options: the fault points lie in free functions that every layer calls
// (pread_full and its kind take no options), and a test double of the
// operating system is process-wide by nature. Nothing reads the environment;
// without an installed injector each fault point costs one relaxed load.
#include <atomic>
#include <cstdint>

namespace corank::io {

enum class FaultPoint : std::uint8_t {
  read,              // a read request: fails with EIO
  write,             // a write request or a file allocation: fails with ENOSPC
  device_sort,       // a GPU sort, before it starts
  device_sort_done,  // a GPU sort, after the device sorted (its results not yet taken)
  unnamed_file,      // a file without a name (O_TMPFILE): refused, as by a file system without them
  early_end,         // a read request (engines, pread_full, read_full): no bytes, the end of the file
};

class FaultInjector {
public:
  virtual ~FaultInjector() = default;
  // Asked once per request at `point`, from any thread; true fails it.
  virtual bool fail(FaultPoint point) noexcept = 0;
};

// Installs an injector for the process while it lives, and restores the one
// before it (scopes nest). The injector must outlive the scope.
class ScopedFaultInjector {
public:
  explicit ScopedFaultInjector(FaultInjector& injector) noexcept;
  ~ScopedFaultInjector();
  ScopedFaultInjector(const ScopedFaultInjector&) = delete;
  ScopedFaultInjector& operator=(const ScopedFaultInjector&) = delete;

private:
  FaultInjector* previous_;
};

// Whether the request at `point` fails: false unless an installed injector says so.
bool inject_failure(FaultPoint point) noexcept;

// The nth request at one fault point from its construction fails, and so does
// every later one there, as on a full disk or a failed device; other points
// pass. n == 0 fails nothing. Counts across threads.
class FailAfter final : public FaultInjector {
public:
  FailAfter(FaultPoint point, std::uint64_t n) noexcept : point_(point), n_(n) {}
  bool fail(FaultPoint point) noexcept override {
    if (point != point_) return false;
    return seen_.fetch_add(1, std::memory_order_relaxed) + 1 >= n_ && n_ > 0;
  }
  // Requests seen at the point so far, the failed ones included.
  std::uint64_t requests() const noexcept { return seen_.load(std::memory_order_relaxed); }

private:
  FaultPoint point_;
  std::uint64_t n_;
  std::atomic<std::uint64_t> seen_{0};
};

}  // namespace corank::io
