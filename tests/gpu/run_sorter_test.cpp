// GPU run formation against the CPU: key extraction against KeyNormalizer for
// every key type, and sorted entries against sort_run for random,
// duplicate-heavy and all-equal data at sizes around the chunk size.
// Plain C++20 (it uses src/ headers); skips with a reason without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/run_sorter.cuh"
#include "corank/gpu_backend.hpp"
#include "corank/gpu_key_layout.hpp"
#include "corank/normalize.hpp"
#include "corank/run_sort.hpp"
#include "corank/run_sorter.hpp"

#include "gpu_skip.hpp"

namespace corank {
namespace {

struct FormatCase {
  const char* format;
  std::vector<std::string> keys;
};

// Every key type, endianness and direction, in formats of 1- and 2-word keys.
std::vector<FormatCase> format_cases() {
  return {
      {"u32", {}},
      {"u64", {}},
      {"i32", {}},
      {"i64", {}},
      {"f32", {}},
      {"f64", {}},
      {"gensort", {}},
      {"fixed:24", {"0:1:u8", "1:2:u16be", "3:1:i8", "4:2:i16", "6:4:i32be:desc", "10:4:f32be"}},
      {"fixed:24", {"0:8:u64be", "8:8:i64be:desc"}},
      {"fixed:24", {"0:8:f64be:desc", "8:3"}},
      {"fixed:24", {"0:4:u32:desc", "4:4:f32:desc", "8:4:i32", "12:2:u16"}},
      {"fixed:16", {"0:5:bytes:desc", "5:2:i16be"}},
      {"fixed:20", {"2:10"}},
      {"fixed:12", {"4:8:f64:desc"}},
      {"fixed:9", {"1:8:i64:desc"}},
  };
}

std::string name_of(const FormatCase& c) {
  std::string s = c.format;
  for (const auto& k : c.keys) s += " " + k;
  return s;
}

// Random bytes, with some records made of 0x00, 0xFF, 0x80 and 0x7F runs so
// zeros, infinities, NaNs and the sign boundaries turn up.
std::vector<std::byte> make_records(std::uint32_t R, std::uint64_t n, std::uint64_t seed, const char* kind) {
  std::vector<std::byte> v(n * R);
  std::mt19937_64 rng(seed);
  const std::string k = kind;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::byte* r = v.data() + i * R;
    if (k == "equal") {
      std::memset(r, 0x5A, R);
    } else if (k == "duplicates") {
      const auto b = static_cast<unsigned char>(rng() % 3 * 0x7F);  // 0x00, 0x7F, 0xFE
      std::memset(r, b, R);
      r[R - 1] = static_cast<std::byte>(rng());  // payload differs, keys mostly do not
    } else {
      for (std::uint32_t j = 0; j < R; ++j) r[j] = static_cast<std::byte>(rng());
      if (rng() % 8 == 0) {
        static const unsigned char fills[] = {0x00, 0xFF, 0x80, 0x7F};
        const auto f = fills[rng() % 4];
        const std::uint32_t at = static_cast<std::uint32_t>(rng() % R);
        std::memset(r + at, f, R - at);
      }
    }
  }
  return v;
}

TEST(GpuKeyExtraction, MatchesKeyNormalizerForEveryKeyType) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const auto& c : format_cases()) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = parse_format(c.format, c.keys);
    const KeyNormalizer norm(format);
    const unsigned W = format.key_words();
    ASSERT_LE(W, gpu::kMaxGpuKeyWords);
    const std::uint64_t n = 5000;
    const auto records = make_records(format.record_size, n, 42 + W, "random");
    gpu::DeviceBuffer<std::byte> d_records(records.size());
    gpu::DeviceBuffer<std::uint64_t> d_keys(n * W);
    gpu::DeviceBuffer<std::uint32_t> d_index(n);
    ASSERT_EQ(cudaMemcpy(d_records.data(), records.data(), records.size(), cudaMemcpyHostToDevice), cudaSuccess);
    gpu::extract_keys(to_key_layout(format), d_records.data(), n, d_keys.data(), d_index.data(), nullptr);
    std::vector<std::uint64_t> keys(n * W);
    std::vector<std::uint32_t> index(n);
    ASSERT_EQ(cudaMemcpy(keys.data(), d_keys.data(), keys.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(index.data(), d_index.data(), n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    std::uint64_t want[8];
    for (std::uint64_t i = 0; i < n; ++i) {
      norm.normalize(records.data() + i * format.record_size, want);
      for (unsigned w = 0; w < W; ++w) ASSERT_EQ(keys[i * W + w], want[w]) << "record " << i << " word " << w;
      ASSERT_EQ(index[i], i);
    }
  }
}

// Runs through the src seam on the GPU backend vs sort_run on the CPU.
template <unsigned W>
void expect_gpu_runs_match_cpu(const RecordFormat& format, GpuRunFormation& gpu,
                               const std::vector<std::uint64_t>& sizes, const char* kind) {
  const KeyNormalizer norm(format);
  const std::uint32_t R = format.record_size;
  std::uint64_t total = 0;
  for (auto s : sizes) total += s;
  const auto records = make_records(R, total, 7 * total + W, kind);
  std::vector<KeyEntry<W>> got(total), want(total), scratch(total + 1);
  RunSorter<W> sorter(norm, R, 4, &gpu, /*required=*/true);
  // All runs in flight before one finish(), as the in-memory plan does;
  // pos = global index, so each run has its own pos_base.
  std::uint64_t base = 0;
  for (auto s : sizes) {
    sorter.sort(records.data() + base * R, s, base, got.data() + base, scratch.data());
    base += s;
  }
  sorter.finish();
  ASSERT_TRUE(sorter.on_gpu());
  base = 0;
  for (auto s : sizes) {
    sort_run<W>(norm, records.data() + base * R, R, s, base, want.data() + base, scratch.data(), 4);
    base += s;
  }
  for (std::uint64_t i = 0; i < total; ++i) {
    ASSERT_EQ(got[i].pos, want[i].pos) << kind << " entry " << i;
    for (unsigned w = 0; w < W; ++w) ASSERT_EQ(got[i].key[w], want[i].key[w]) << kind << " entry " << i;
  }
}

TEST(GpuRunFormation, SortedEntriesEqualCpuSortRun) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const auto& c : format_cases()) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = parse_format(c.format, c.keys);
    SortOptions options;
    options.gpu = GpuMode::On;
    const std::uint64_t chunk = 1000;
    auto gpu = open_gpu_backend(options, format, chunk, 4, std::nullopt);
    ASSERT_TRUE(gpu);
    ASSERT_EQ(gpu->chunk_records(), chunk);
    // Sizes 0, 1, chunk-1, chunk, and runs of chunk+1 and several chunks that
    // are sorted in pieces and merged on the CPU.
    const std::vector<std::uint64_t> sizes = {0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 17, 2};
    for (const char* kind : {"random", "duplicates", "equal"}) {
      dispatch_key_words(format.key_words(), [&](auto words) {
        constexpr unsigned W = decltype(words)::value;
        if constexpr (W <= 2) expect_gpu_runs_match_cpu<W>(format, *gpu, sizes, kind);
      });
    }
    EXPECT_GT(gpu->times().sort, 0.0);
  }
}

TEST(GpuRunFormation, LargeRunWithinOneChunk) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u64", "gensort"}) {
    SCOPED_TRACE(f);
    const RecordFormat format = parse_format(f, {});
    SortOptions options;
    options.gpu = GpuMode::On;
    auto gpu = open_gpu_backend(options, format, 1 << 20, 8, std::nullopt);
    ASSERT_TRUE(gpu);
    dispatch_key_words(format.key_words(), [&](auto words) {
      constexpr unsigned W = decltype(words)::value;
      if constexpr (W <= 2) expect_gpu_runs_match_cpu<W>(format, *gpu, {1 << 20, (1 << 20) - 1, 12345}, "random");
    });
  }
}

// Stage accounting: bytes copied each way, and a busy time that the stages'
// sum bounds (the two slots can only hide stage time, never add it).
TEST(GpuRunFormation, StatsCountTheBytesEachWayAndTheBusyTime) {
  CORANK_SKIP_WITHOUT_GPU();
  const RecordFormat format = parse_format("gensort", {});
  SortOptions options;
  options.gpu = GpuMode::On;
  const std::uint64_t chunk = 1000;
  auto gpu = open_gpu_backend(options, format, chunk, 4, std::nullopt);
  ASSERT_TRUE(gpu);
  const std::uint64_t sizes[] = {chunk, 357, chunk, 1};
  std::vector<std::byte> records(chunk * 100);
  std::mt19937_64 rng(5);
  for (auto& b : records) b = static_cast<std::byte>(rng());
  const unsigned entry_words = format.key_words() + 1;
  std::vector<std::vector<std::uint64_t>> outs;
  std::uint64_t total = 0;
  for (std::uint64_t n : sizes) {
    outs.emplace_back(n * entry_words);
    gpu->submit(records.data(), n, total, outs.back().data());
    total += n;
  }
  gpu->finish();
  const GpuTimes t = gpu->times();
  EXPECT_EQ(t.h2d_bytes, static_cast<double>(total * 100));
  EXPECT_EQ(t.d2h_bytes, static_cast<double>(total * entry_words * 8));
  EXPECT_GT(t.busy, 0.0);
  EXPECT_LE(t.busy, t.stage_sum() * 1.001 + 1e-6);
  EXPECT_GE(t.overlapped(), 0.0);
}

TEST(GpuRunFormation, DeviceBudgetBoundsTheChunk) {
  CORANK_SKIP_WITHOUT_GPU();
  const RecordFormat format = parse_format("gensort", {});
  SortOptions options;
  options.gpu = GpuMode::On;
  options.gpu_memory = 1 << 20;
  auto gpu = open_gpu_backend(options, format, 1 << 20, 4, std::nullopt);
  ASSERT_TRUE(gpu);
  EXPECT_LT(gpu->chunk_records(), (1u << 20) / 2 / 100);
  EXPECT_GT(gpu->chunk_records(), 0u);
  expect_gpu_runs_match_cpu<2>(format, *gpu, {gpu->chunk_records() * 5 + 3, 1}, "random");
}

TEST(GpuRunFormation, NoChunkFitsATinyBudget) {
  CORANK_SKIP_WITHOUT_GPU();
  const RecordFormat format = parse_format("u64", {});
  SortOptions options;
  options.gpu = GpuMode::On;
  options.gpu_memory = 64;
  try {
    (void)open_gpu_backend(options, format, 1000, 1, std::nullopt);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--gpu=on: no usable GPU"), std::string::npos) << e.what();
  }
  options.gpu = GpuMode::Auto;
  EXPECT_EQ(open_gpu_backend(options, format, 1000, 1, std::nullopt), nullptr);
}

TEST(GpuRunFormation, WideKeysStayOnTheCpu) {
  CORANK_SKIP_WITHOUT_GPU();
  const RecordFormat format = parse_format("fixed:32", {"0:24"});
  SortOptions options;
  options.gpu = GpuMode::On;
  EXPECT_EQ(open_gpu_backend(options, format, 1000, 1, std::nullopt), nullptr);
}

}  // namespace
}  // namespace corank
