#pragma once
// What the end-to-end tests of the corank command share (cli_test.cpp: every
// plan and error path; cli_files_test.cpp: compressed and memory-backed files,
// output targets, peak memory): the Cli fixture, gensort records with their
// stable-sorted reference, typed reads of a file, and the check of a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace corank::test::cli {

namespace fs = std::filesystem;
// What the tests take from cli_test_util.hpp (a using-directive of this
// namespace brings them along).
using corank::test::corank_bin;
using corank::test::read_bytes;
using corank::test::Result;
using corank::test::run_corank;
using corank::test::write_file;

class Cli : public corank::test::CorankTest {
protected:
  // Files left in dir (temporary output names start with '.').
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    for (auto& e : fs::directory_iterator(dir_ / "tmp")) v.push_back("tmp/" + e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
};

using Rec = std::array<unsigned char, 100>;

inline std::vector<Rec> gensort_records(std::size_t n, std::uint32_t seed, int distinct_first_bytes = 256) {
  std::mt19937_64 rng(seed);
  std::vector<Rec> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& b : v[i]) b = static_cast<unsigned char>(rng());
    v[i][0] = static_cast<unsigned char>(v[i][0] % distinct_first_bytes);
    if (distinct_first_bytes < 256) std::memset(v[i].data() + 1, 'k', 9);  // many equal keys
    std::snprintf(reinterpret_cast<char*>(v[i].data() + 12), 20, "%019zu", i);  // record identity
  }
  return v;
}

inline std::vector<Rec> stable_sorted(std::vector<Rec> v, bool reverse = false) {
  std::stable_sort(v.begin(), v.end(), [&](const Rec& a, const Rec& b) {
    int c = std::memcmp(a.data(), b.data(), 10);
    return reverse ? c > 0 : c < 0;
  });
  return v;
}

template <class T>
std::vector<T> read_as(const fs::path& p) {
  auto bytes = read_bytes(p);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// Budgets that force one in-memory plan, and external plans with a few, many
// and very many spilled runs.
inline const char* const kBudgets[] = {"", "-S 2M", "-S 256K", "-S 48K"};

// A failure as corank must fail: exit 2, one line naming `needle`.
inline void expect_clean_failure(Cli& t, const Result& r, const std::string& needle) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  (void)t;
}

}  // namespace corank::test::cli
