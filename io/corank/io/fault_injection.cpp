#include "corank/io/fault_injection.hpp"

#include <atomic>
#include <cstdlib>

namespace corank::io {

namespace {

// Requests left before the failing one; 0 disarmed, -1 environment not read yet.
// Once tripped, every later request fails too.
class Countdown {
public:
  explicit constexpr Countdown(const char* env) noexcept : env_(env) {}

  void arm(std::uint64_t n) noexcept {
    tripped_.store(false);
    left_.store(static_cast<std::int64_t>(n));
  }

  bool fire() noexcept {
    if (left_.load(std::memory_order_relaxed) < 0) load_env();
    if (tripped_.load(std::memory_order_relaxed)) return true;
    std::int64_t c = left_.load(std::memory_order_relaxed);
    while (c > 0) {
      if (left_.compare_exchange_weak(c, c - 1)) {
        if (c == 1) {
          tripped_.store(true);
          return true;
        }
        return false;
      }
    }
    return false;
  }

private:
  void load_env() noexcept {
    std::int64_t expected = -1;
    const char* v = std::getenv(env_);
    const std::int64_t n = v ? std::strtoll(v, nullptr, 10) : 0;
    left_.compare_exchange_strong(expected, n > 0 ? n : 0);
  }

  const char* env_;
  std::atomic<std::int64_t> left_{-1};
  std::atomic<bool> tripped_{false};
};

Countdown g_writes("CORANK_IO_FAIL_WRITE_AFTER");
Countdown g_reads("CORANK_IO_FAIL_READ_AFTER");

}  // namespace

void set_write_failure_after(std::uint64_t n) noexcept { g_writes.arm(n); }
bool inject_write_failure() noexcept { return g_writes.fire(); }
void set_read_failure_after(std::uint64_t n) noexcept { g_reads.arm(n); }
bool inject_read_failure() noexcept { return g_reads.fire(); }

}  // namespace corank::io
