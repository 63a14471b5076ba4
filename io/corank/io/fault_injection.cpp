#include "corank/io/fault_injection.hpp"

#include <atomic>
#include <cstdlib>

namespace corank::io {

namespace {
// Writes left before the failing one; 0 disarmed. -1: environment not read yet.
std::atomic<std::int64_t> g_countdown{-1};
std::atomic<bool> g_tripped{false};

void load_env() noexcept {
  std::int64_t expected = -1;
  const char* v = std::getenv("CORANK_IO_FAIL_WRITE_AFTER");
  std::int64_t n = v ? std::strtoll(v, nullptr, 10) : 0;
  g_countdown.compare_exchange_strong(expected, n > 0 ? n : 0);
}
}  // namespace

void set_write_failure_after(std::uint64_t n) noexcept {
  g_tripped.store(false);
  g_countdown.store(static_cast<std::int64_t>(n));
}

bool inject_write_failure() noexcept {
  if (g_countdown.load(std::memory_order_relaxed) < 0) load_env();
  if (g_tripped.load(std::memory_order_relaxed)) return true;
  std::int64_t c = g_countdown.load(std::memory_order_relaxed);
  while (c > 0) {
    if (g_countdown.compare_exchange_weak(c, c - 1)) {
      if (c == 1) {
        g_tripped.store(true);
        return true;
      }
      return false;
    }
  }
  return false;
}

}  // namespace corank::io
