// A -T directory that fills up is named in the message ("temporary file in
// DIR"), for spilled runs of binary records and of text alike, and the sort
// leaves nothing behind there or beside the target.
#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/sort.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;

class TemporaryDirectory : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-tempdir-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
    std::mt19937_64 rng(7);
    std::string records(std::size_t{100} * 20000, '\0'), lines;
    for (auto& c : records) c = static_cast<char>(rng());
    for (int i = 0; i < 60000; ++i) lines += std::to_string(rng() % 1000000) + " line\n";
    std::ofstream(dir_ / "records", std::ios::binary) << records;
    std::ofstream(dir_ / "lines", std::ios::binary) << lines;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The message of a sort whose first write request (a spilled run's) fails.
  std::string full_disk_message(const std::string& format, const std::string& input) {
    SortRequest r;
    r.inputs = {(dir_ / input).string()};
    r.output = (dir_ / "out").string();
    r.format = format;
    r.memory_budget = std::uint64_t{256} << 10;
    r.temp_dirs = {(dir_ / "tmp").string()};
    r.gpu = GpuMode::Off;
    io::FailAfter full(io::FaultPoint::write, 1);
    io::ScopedFaultInjector faults(full);
    try {
      sort(r);
    } catch (const io::IoError& e) {
      return e.what();
    }
    return "no error";
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

  fs::path dir_;
};

TEST_F(TemporaryDirectory, AFullOneIsNamed) {
  char real[PATH_MAX];
  ASSERT_NE(::realpath((dir_ / "tmp").c_str(), real), nullptr);
  const std::string want = std::string("write failed: temporary file in '") + real + "': No space left on device";
  EXPECT_EQ(full_disk_message("gensort", "records"), want);
  EXPECT_EQ(full_disk_message("lines", "lines"), want);
  EXPECT_EQ(entries(), (std::vector<std::string>{"lines", "records", "tmp"}));
}

}  // namespace
}  // namespace corank
