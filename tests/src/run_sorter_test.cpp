// The run-formation seam without a GPU: a fake backend that sorts on the CPU,
// delivers only at finish() and fails on demand, so the seam's chunking of
// large runs and its fail-over (redo on the CPU under --gpu=auto, an error
// under --gpu=on) are tested everywhere.
#include "corank/run_sorter.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace corank {
namespace {

template <unsigned W>
class FakeGpu final : public GpuRunFormation {
public:
  FakeGpu(const KeyNormalizer& norm, std::uint32_t R, std::uint64_t chunk) : norm_(norm), R_(R), chunk_(chunk) {}

  int fail_at_submit = -1;  // the submit (0-based) that throws
  bool fail_at_finish = false;
  int submits = 0;

  std::uint64_t chunk_records() const override { return chunk_; }
  void submit(const std::byte* records, std::uint64_t n, std::uint64_t pos_base, std::uint64_t* out) override {
    EXPECT_LE(n, chunk_);
    if (submits++ == fail_at_submit) throw GpuError("injected submit failure");
    std::vector<KeyEntry<W>> e(n), scratch(n);
    sort_run<W>(norm_, records, R_, n, pos_base, e.data(), scratch.data(), 1);
    pending_.push_back({std::move(e), out});
  }
  void finish() override {
    if (fail_at_finish) throw GpuError("injected finish failure");
    for (auto& p : pending_) std::memcpy(p.out, p.entries.data(), p.entries.size() * sizeof(KeyEntry<W>));
    pending_.clear();
  }
  GpuTimes times() const override { return {}; }
  std::string describe() const override { return "fake"; }

private:
  struct Pending {
    std::vector<KeyEntry<W>> entries;
    std::uint64_t* out;
  };
  const KeyNormalizer& norm_;
  std::uint32_t R_;
  std::uint64_t chunk_;
  std::vector<Pending> pending_;
};

class RunSorterSeam : public ::testing::Test {
protected:
  static constexpr std::uint64_t kChunk = 100;
  RecordFormat format = parse_format("u64", {});
  KeyNormalizer norm{format};
  std::vector<std::uint64_t> sizes = {0, 1, kChunk - 1, kChunk, kChunk + 1, 3 * kChunk + 7};
  std::uint64_t total = 0;
  std::vector<std::byte> records;

  void SetUp() override {
    for (auto s : sizes) total += s;
    std::vector<std::uint64_t> v(total);
    std::mt19937_64 rng(3);
    for (auto& x : v) x = rng() % 50;  // many ties
    records.resize(total * 8);
    std::memcpy(records.data(), v.data(), records.size());
  }

  // Sorts every run through the seam (all in flight, then finish) and checks
  // each against sort_run.
  void sort_and_check(RunSorter<1>& sorter) {
    std::vector<KeyEntry<1>> got(total), want(total), scratch(total);
    std::uint64_t base = 0;
    for (auto s : sizes) {
      sorter.sort(records.data() + base * 8, s, base, got.data() + base, scratch.data());
      base += s;
    }
    sorter.finish();
    base = 0;
    for (auto s : sizes) {
      sort_run<1>(norm, records.data() + base * 8, 8, s, base, want.data() + base, scratch.data(), 1);
      base += s;
    }
    for (std::uint64_t i = 0; i < total; ++i) {
      ASSERT_EQ(got[i].key[0], want[i].key[0]) << i;
      ASSERT_EQ(got[i].pos, want[i].pos) << i;
    }
  }
};

TEST_F(RunSorterSeam, ChunksLargeRunsAndMatchesTheCpu) {
  FakeGpu<1> gpu(norm, 8, kChunk);
  RunSorter<1> sorter(norm, 8, 2, &gpu, true);
  sort_and_check(sorter);
  EXPECT_TRUE(sorter.on_gpu());
  EXPECT_EQ(gpu.submits, 1 + 1 + 1 + 1 + 2 + 4);  // an empty run is submitted too
}

TEST_F(RunSorterSeam, AutoRedoesPendingRunsOnTheCpuAfterAFailure) {
  for (int at : {0, 2, 4, 6}) {
    SCOPED_TRACE(at);
    FakeGpu<1> gpu(norm, 8, kChunk);
    gpu.fail_at_submit = at;
    RunSorter<1> sorter(norm, 8, 2, &gpu, false);
    testing::internal::CaptureStderr();
    sort_and_check(sorter);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_FALSE(sorter.on_gpu());
    EXPECT_NE(err.find("GPU run formation failed (injected submit failure); sorting on the CPU"), std::string::npos)
        << err;
  }
  FakeGpu<1> gpu(norm, 8, kChunk);
  gpu.fail_at_finish = true;
  RunSorter<1> sorter(norm, 8, 2, &gpu, false);
  testing::internal::CaptureStderr();
  sort_and_check(sorter);
  (void)testing::internal::GetCapturedStderr();
  EXPECT_FALSE(sorter.on_gpu());
}

TEST_F(RunSorterSeam, OnTurnsAFailureIntoAnError) {
  FakeGpu<1> gpu(norm, 8, kChunk);
  gpu.fail_at_submit = 1;
  RunSorter<1> sorter(norm, 8, 2, &gpu, true);
  std::vector<KeyEntry<1>> out(total), scratch(total);
  sorter.sort(records.data(), 1, 0, out.data(), scratch.data());
  EXPECT_THROW(sorter.sort(records.data(), 2, 0, out.data(), scratch.data()), GpuError);
}

TEST(GpuBackend, OffNeverOpensAndOnFailsWithAReasonWhereNoneIsUsable) {
  SortOptions options;
  const RecordFormat format = parse_format("u32", {});
  options.gpu = GpuMode::Off;
  EXPECT_EQ(open_gpu_backend(options, format, 100, 1, std::nullopt), nullptr);
  options.gpu = GpuMode::On;
  options.gpu_memory = 1;  // holds no chunk on any device
  try {
    (void)open_gpu_backend(options, format, 100, 1, std::nullopt);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--gpu=on: no usable GPU (", 0), 0u) << e.what();
  }
  options.gpu = GpuMode::Auto;
  EXPECT_EQ(open_gpu_backend(options, format, 100, 1, std::nullopt), nullptr);
}

TEST(GpuBackend, AutoKeepsSmallInputsOnTheCpu) {
  // Below the threshold auto never opens the device, whatever the machine has;
  // --gpu=on is not bound by it.
  SortOptions options;
  const RecordFormat format = parse_format("u64", {});
  options.gpu = GpuMode::Auto;
  EXPECT_EQ(open_gpu_backend(options, format, 100, 1, kAutoGpuMinRecords - 1), nullptr);
  options.gpu = GpuMode::On;
  options.gpu_memory = 1;
  EXPECT_THROW((void)open_gpu_backend(options, format, 100, 1, std::uint64_t{10}), UsageError);
}

}  // namespace
}  // namespace corank
