// io::huge_pages_pay: huge pages are advised unless a bound virtio balloon
// reports free pages to its host; CORANK_HUGE_PAGES=0/1 overrides either way.
// Each case lays out a directory as /sys/bus/virtio/devices does.
#include <filesystem>
#include <fstream>
#include <string>

#include "corank/io/huge_pages.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

namespace fs = std::filesystem;

// A device directory: its id, its features (bit 0 first) and, where bound, a driver link.
void add_device(const fs::path& root, const std::string& name, const std::string& id, const std::string& features,
                bool bound) {
  const fs::path d = root / name;
  fs::create_directories(d);
  std::ofstream(d / "device") << id << "\n";
  std::ofstream(d / "features") << features << "\n";
  if (bound) {
    const fs::path driver = root.parent_path() / ("driver-of-" + root.filename().string() + "-" + name);
    fs::create_directories(driver);
    fs::create_directory_symlink(driver, d / "driver");
  }
}

const std::string kReporting = "0110010100000000000000000000000010000000";  // bit 5 set, as a balloon shows it
const std::string kNoReporting = "0110000100000000000000000000000010000000";

TEST(HugePages, PayWithoutABalloon) {
  ScratchDir dir;
  const fs::path root = dir.file("devices");
  fs::create_directories(root);
  EXPECT_TRUE(huge_pages_pay(root, nullptr));
  add_device(root, "virtio1", "0x0002", kReporting, true);  // a block device: its bits mean other things
  EXPECT_TRUE(huge_pages_pay(root, nullptr));
  EXPECT_TRUE(huge_pages_pay(dir.file("absent"), nullptr));
}

TEST(HugePages, DoNotPayUnderABalloonThatReportsFreePages) {
  ScratchDir dir;
  const fs::path root = dir.file("devices");
  add_device(root, "virtio1", "0x0002", kNoReporting, true);
  add_device(root, "virtio0", "0x0005", kReporting, true);
  EXPECT_FALSE(huge_pages_pay(root, nullptr));
  EXPECT_TRUE(huge_pages_pay(root, "1"));
  EXPECT_FALSE(huge_pages_pay(root, "0"));
  EXPECT_FALSE(huge_pages_pay(root, "yes"));  // not 0 or 1: the rule decides
}

TEST(HugePages, PayUnderABalloonThatDoesNotReportOrIsNotBound) {
  ScratchDir dir;
  const fs::path quiet = dir.file("quiet"), unbound = dir.file("unbound");
  add_device(quiet, "virtio0", "0x0005", kNoReporting, true);
  add_device(unbound, "virtio0", "0x0005", kReporting, false);
  EXPECT_TRUE(huge_pages_pay(quiet, nullptr));
  EXPECT_TRUE(huge_pages_pay(unbound, nullptr));
  EXPECT_FALSE(huge_pages_pay(unbound, "0"));
}

}  // namespace
}  // namespace corank::io::test
