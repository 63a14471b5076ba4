#include "corank/io/fresh_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "corank/io/file_desc.hpp"

namespace corank::io {

namespace {

constexpr std::size_t kProbePages = 256;

// [p, p + n) widened to whole pages.
std::pair<void*, std::size_t> whole_pages(const void* p, std::size_t n) noexcept {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto lo = reinterpret_cast<std::uintptr_t>(p) / page * page;
  const auto hi = (reinterpret_cast<std::uintptr_t>(p) + n + page - 1) / page * page;
  return {reinterpret_cast<void*>(lo), static_cast<std::size_t>(hi - lo)};
}

// CORANK_POPULATE's value where it is 0 or 1, else none.
std::optional<bool> setting_value(const char* setting) noexcept {
  if (setting != nullptr && (std::strcmp(setting, "0") == 0 || std::strcmp(setting, "1") == 0)) return *setting == '1';
  return std::nullopt;
}

}  // namespace

double fault_microseconds() noexcept {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* m = ::mmap(nullptr, kProbePages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 0;
  ::madvise(m, kProbePages * page, MADV_NOHUGEPAGE);  // a fault a page, as the sorter's 4 KiB pages take them
  auto* bytes = static_cast<volatile char*>(m);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < kProbePages; ++i) bytes[i * page] = 1;
  const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - t0;
  ::munmap(m, kProbePages * page);
  return took.count() / kProbePages;
}

bool populate_pays(double fault_us, const char* setting) noexcept {
  return setting_value(setting).value_or(fault_us > kCostlyFaultMicroseconds);
}

bool populate_pays() noexcept {
  static const bool pay = [] {
    const auto set = setting_value(std::getenv("CORANK_POPULATE"));
    return set ? *set : populate_pays(fault_microseconds(), nullptr);  // the probe only where it decides
  }();
  return pay;
}

void populate_for_writing(void* p, std::size_t n) noexcept {
  if (n >= kPopulateFrom && populate_pays()) (void)prefault_for_write(p, n);
}

void populate_for_reading(const void* p, std::size_t n) noexcept {
  if (n < kPopulateFrom || !populate_pays()) return;
#ifdef MADV_POPULATE_READ
  const auto [from, bytes] = whole_pages(p, n);
  (void)::madvise(from, bytes, MADV_POPULATE_READ);
#endif
}

}  // namespace corank::io
