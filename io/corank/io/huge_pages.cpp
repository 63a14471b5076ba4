#include "corank/io/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace corank::io {

namespace {

constexpr const char* kBalloonDevice = "0x0005";   // virtio device id of the memory balloon
constexpr std::size_t kFreePageReporting = 5;      // VIRTIO_BALLOON_F_REPORTING, a bit of `features`
constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::string first_word(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

// A bound balloon device whose features (one '0'/'1' a bit, bit 0 first)
// include free page reporting.
bool reports_free_pages(const std::filesystem::path& device) {
  std::error_code ec;
  if (first_word(device / "device") != kBalloonDevice || !std::filesystem::exists(device / "driver", ec)) return false;
  const std::string features = first_word(device / "features");
  return features.size() > kFreePageReporting && features[kFreePageReporting] == '1';
}

}  // namespace

bool huge_pages_pay(const std::string& virtio_devices, const char* setting) noexcept {
  if (setting != nullptr && (std::strcmp(setting, "0") == 0 || std::strcmp(setting, "1") == 0)) return *setting == '1';
  try {
    std::error_code ec;
    for (const auto& device : std::filesystem::directory_iterator(virtio_devices, ec))
      if (reports_free_pages(device.path())) return false;
  } catch (...) {  // an unreadable /sys: the advice, as before there was a rule
  }
  return true;
}

bool huge_pages_pay() noexcept {
  static const bool pay = huge_pages_pay("/sys/bus/virtio/devices", std::getenv("CORANK_HUGE_PAGES"));
  return pay;
}

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
  if (bytes >= kHugePage && huge_pages_pay()) ::madvise(p, bytes, MADV_HUGEPAGE);
}

}  // namespace corank::io
