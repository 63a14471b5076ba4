#pragma once
// What the tests of SortedRun share (sorted_run_test.cpp: by ranges, and
// failures; sorted_run_stores_test.cpp: front to back through every store):
// random records and slices of them, the descriptors the process holds, and
// the fixture with the run's temporary directory and a worker pool.
#include "corank/sorted_run.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "corank/io/worker_pool.hpp"

namespace corank::sorted_run_test {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

inline constexpr std::uint32_t kRecordSizes[] = {1, 12, 100};

inline Bytes random_bytes(std::uint64_t n, std::uint32_t seed) {
  Bytes b(n);
  std::mt19937_64 rng(seed);
  for (auto& x : b) x = static_cast<std::byte>(rng());
  return b;
}

// Records [first, first + n) of `all`, records of R bytes.
inline Bytes slice(const Bytes& all, std::uint32_t R, std::uint64_t first, std::uint64_t n) {
  return Bytes(all.begin() + static_cast<std::ptrdiff_t>(first * R),
               all.begin() + static_cast<std::ptrdiff_t>((first + n) * R));
}

// Descriptors this process holds: a spilled run holds one until it is gone.
inline std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

inline const char* storage(bool in_memory) { return in_memory ? "in memory" : "spilled"; }
inline RunStore store_of(bool in_memory) { return in_memory ? RunStore::memory : RunStore::file; }

class SortedRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-sorted-run-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Every entry of the run's temporary directory.
  std::vector<std::string> temp_entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    return v;
  }

  // The run's records, read back whole.
  static Bytes read_all(const SortedRun& run, std::uint32_t R, io::WorkerPool& pool) {
    Bytes out(run.count() * R);
    run.read(0, run.count(), out.data(), pool);
    return out;
  }

  fs::path dir_;
  io::WorkerPool pool_{3};
};

}  // namespace corank::sorted_run_test
