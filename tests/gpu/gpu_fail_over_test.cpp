// A GPU sort that fails, injected at the device-sort fault points
// (io/fault_injection.hpp) through corank::sort() in this process: under
// GpuMode::Auto the sort starts again on the CPU (an input file is read again)
// and warns; under GpuMode::On it is an error that leaves no output. Skips
// without a GPU.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "corank/errors.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/sort.hpp"
#include "gpu_skip.hpp"
#include "../src/library_test_util.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;

using test::Recorder;
using test::slurp;

class GpuFailOver : public ::testing::Test {
protected:
  void SetUp() override {
    CORANK_SKIP_WITHOUT_GPU();
    dir_ = fs::temp_directory_path() / ("corank-gpu-fail-over-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  SortRequest request(const std::string& format, GpuMode gpu, const std::string& input, const std::string& output) {
    SortRequest r;
    r.format = format;
    r.inputs = {input};
    r.output = output;
    r.gpu = gpu;
    r.io.sync_output = false;
    r.io.diagnostics = &said_;
    r.verbose = r.io.verbose = true;
    return r;
  }

  Recorder said_;
  fs::path dir_;
};

// 2^25 + 1 i64 records with many ties: --gpu=auto puts a file this large on
// the GPU. The fault before the device sorts and after it sorted.
TEST_F(GpuFailOver, RecordSortStartsAgainOnTheCpuUnderAuto) {
  const std::uint64_t n = (std::uint64_t{1} << 25) + 1;
  {
    std::vector<std::int64_t> v(n);
    std::mt19937_64 rng(5);
    for (auto& x : v) x = static_cast<std::int64_t>(rng() % 1000) - 500;
    std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(n * 8));
  }
  sort(request("i64", GpuMode::Off, path("in"), path("cpu")));
  const std::string cpu = slurp(path("cpu"));
  for (io::FaultPoint point : {io::FaultPoint::device_sort, io::FaultPoint::device_sort_done})
    for (GpuMode mode : {GpuMode::Auto, GpuMode::On}) {
      const bool before = point == io::FaultPoint::device_sort;
      SCOPED_TRACE(std::string(before ? "before" : "after") + " the sort, " + (mode == GpuMode::On ? "on" : "auto"));
      said_.clear();
      fs::remove(path("gpu"));
      io::FailAfter fault(point, 1);
      io::ScopedFaultInjector scope(fault);
      if (mode == GpuMode::Auto) {
        sort(request("i64", mode, path("in"), path("gpu")));
        EXPECT_TRUE(said_.said("injected failure")) << "no warning";
        EXPECT_TRUE(said_.said("sorting on the CPU"));
        EXPECT_TRUE(slurp(path("gpu")) == cpu) << "outputs differ";
      } else {
        try {
          sort(request("i64", mode, path("in"), path("gpu")));
          ADD_FAILURE() << "no error";
        } catch (const std::exception& e) {
          EXPECT_NE(std::string(e.what()).find("injected failure"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(fs::exists(path("gpu")));
      }
      EXPECT_GE(fault.requests(), 1u);
    }
}

// Lines: the GPU sorts prefixes and never reorders records, so a failed sort
// is redone on the CPU chunk by chunk under auto, and is an error under on. A
// FIFO has no size, so auto tries the GPU on it.
TEST_F(GpuFailOver, LinesSortOnTheCpuUnderAuto) {
  std::string text;
  std::mt19937 rng(3);
  for (int i = 0; i < 100000; ++i) text += "k" + std::to_string(rng() % 50000) + " " + std::to_string(i) + "\n";
  std::ofstream(path("in")) << text;
  sort(request("lines", GpuMode::Off, path("in"), path("cpu")));
  const std::string cpu = slurp(path("cpu"));
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  {
    io::FailAfter fault(io::FaultPoint::device_sort, 1);
    io::ScopedFaultInjector scope(fault);
    std::thread writer([&] { std::ofstream(path("fifo")) << text; });
    sort(request("lines", GpuMode::Auto, path("fifo"), path("gpu")));
    writer.join();
    EXPECT_TRUE(said_.said("injected failure")) << "no warning";
    EXPECT_TRUE(said_.said("sorting on the CPU"));
    EXPECT_TRUE(slurp(path("gpu")) == cpu) << "outputs differ";
    fs::remove(path("gpu"));
    EXPECT_THROW(sort(request("lines", GpuMode::On, path("in"), path("gpu"))), std::exception);
    EXPECT_FALSE(fs::exists(path("gpu")));
  }
  // Without the fault, auto sorts the FIFO on the GPU.
  said_.clear();
  std::thread writer([&] { std::ofstream(path("fifo")) << text; });
  sort(request("lines", GpuMode::Auto, path("fifo"), path("gpu")));
  writer.join();
  EXPECT_TRUE(said_.said("sort on the GPU (")) << "not on the GPU";
  EXPECT_TRUE(slurp(path("gpu")) == cpu) << "outputs differ";
}

}  // namespace
}  // namespace corank
