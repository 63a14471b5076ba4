// Key entries made before the sort, as records arrive (prepared_keys.hpp):
// a sort of a selection that takes them gives what a sort of the kept records
// alone gives (equal keys in input order, -r, -u, one sort or runs), however
// the ranges were filled (out of order, in pieces); where they are not whole
// (a range never filled), of another buffer, or the sort goes another way
// (a plan beyond memory), it makes its own keys and the output is the same.
#include "corank/prepared_keys.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "corank/record_selection.hpp"
#include "corank/request_options.hpp"
#include "corank/sort.hpp"
#include "keep_ranges.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

using test::KeepRanges;

constexpr std::uint32_t R = 16;  // a u64 key below 400 (ties), then the record's number

struct Fixture {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("corank-prepared-" + std::to_string(::getpid()));
  std::string buffer;  // every record, kept or in a gap
  std::string kept;    // the kept records, in order
  // Three regions with gaps between them, one empty.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges{{0, 30000}, {45000, 0}, {50000, 42000}, {100000, 9000}};

  Fixture() {
    std::filesystem::create_directories(dir);
    buffer = test::numbered_records(110000, 400, 11);
    for (const auto& [b, n] : ranges) kept.append(buffer, b * R, n * R);
    std::ofstream(dir / "kept.rec", std::ios::binary) << kept;
  }
  ~Fixture() { std::filesystem::remove_all(dir); }

  const std::byte* records() const { return reinterpret_cast<const std::byte*>(buffer.data()); }

  SortRequest want(bool reverse, bool unique, std::uint64_t budget) const {
    SortRequest r;
    r.format = "fixed:16";
    r.keys = {"0:8:u64"};
    r.reverse = reverse;
    r.unique = unique;
    r.gpu = GpuMode::Off;
    r.threads = 2;
    r.memory_budget = budget;
    r.temp_dirs = {dir};
    r.io.sync_output = false;
    r.inputs = {dir / "kept.rec"};
    r.output = dir / "want";
    return r;
  }
};

// Fills the ranges' keys from the last range to the first, each in pieces
// of `piece` records; all but range `skip`.
void fill(PreparedKeys& keys, const Fixture& f, std::uint64_t piece, std::size_t skip = SIZE_MAX) {
  for (std::size_t k = f.ranges.size(); k-- > 0;) {
    if (k == skip) continue;
    const auto [b, n] = f.ranges[k];
    for (std::uint64_t at = 0; at < n; at += piece) keys.fill(b + at, std::min(piece, n - at), 2);
  }
}

// `want` (a sort of the kept records alone) over the selection instead.
SortRequest of_selection(const Fixture& f, SortRequest want, const KeepRanges& sel) {
  want.inputs.clear();
  want.input_buffers = {{f.records(), f.buffer.size()}};
  want.input_selection = &sel;
  want.output = f.dir / "got";
  return want;
}

// The sort of the selection with `keys`, its output equal to the sort of
// the kept records alone; its stats.
SortStats sorted_alike(const Fixture& f, const SortRequest& want, PreparedKeys& keys, const KeepRanges& sel) {
  sort(want);
  SortRequest r = of_selection(f, want, sel);
  r.prepared_keys = &keys;
  const SortStats stats = sort(r);
  EXPECT_EQ(stats.records_in, f.kept.size() / R);
  EXPECT_TRUE(test::slurp(f.dir / "got") == test::slurp(f.dir / "want"))
      << "-r " << want.reverse << " -u " << want.unique << " -S " << want.memory_budget;
  return stats;
}

TEST(PreparedKeys, ASortTakesThemAndGivesTheSortOfTheKeptRecords) {
  const Fixture f;
  const KeepRanges sel(f.ranges);
  for (bool reverse : {false, true})
    for (bool unique : {false, true})
      for (std::uint64_t piece : {std::uint64_t{1000}, std::uint64_t{1} << 20}) {
        const SortRequest want = f.want(reverse, unique, std::uint64_t{64} << 20);
        auto keys = PreparedKeys::make(request::binary_options(want), f.records(), f.buffer.size() / R);
        ASSERT_TRUE(keys);
        fill(*keys, f, piece);
        EXPECT_EQ(keys->filled(), f.kept.size() / R);
        sorted_alike(f, want, *keys, sel);
        EXPECT_TRUE(keys->taken()) << "the sort made its own keys";
      }
}

// A budget that keeps the sort in memory but not in one radix sort (the
// least that keeps it in memory, found by bisection): the entries are sorted
// in runs and merged.
TEST(PreparedKeys, TakenInRunsUnderATightBudget) {
  const Fixture f;
  const KeepRanges sel(f.ranges);
  const auto sorted = [&](std::uint64_t budget, bool compare) {
    const SortRequest want = f.want(false, false, budget);
    auto keys = PreparedKeys::make(request::binary_options(want), f.records(), f.buffer.size() / R);
    fill(*keys, f, 5000);
    SortStats stats;
    if (compare) {
      stats = sorted_alike(f, want, *keys, sel);
    } else {
      SortRequest r = of_selection(f, want, sel);
      r.prepared_keys = keys.get();
      stats = sort(r);
    }
    EXPECT_EQ(keys->taken(), stats.mode == "in-memory") << "-S " << budget;
    return stats;
  };
  std::uint64_t lo = std::uint64_t{64} << 10, hi = std::uint64_t{64} << 20;  // external at lo, in memory at hi
  while (hi - lo > (std::uint64_t{16} << 10)) {
    const std::uint64_t mid = (lo + hi) / 2;
    (sorted(mid, false).mode == "in-memory" ? hi : lo) = mid;
  }
  // A little over the edge: the process's own memory, which the plan takes
  // off -S, moves a few pages from one sort to the next. Runs still, where
  // one sort of every entry would need scratch for all of them (about 1.2 MB
  // more here).
  const std::uint64_t budget = hi + (std::uint64_t{256} << 10);
  const SortStats stats = sorted(budget, true);
  EXPECT_EQ(stats.mode, "in-memory");
  EXPECT_GT(stats.runs, 1u) << "-S " << budget;
}

TEST(PreparedKeys, KeysNotWholeOrAnotherPlanLeaveTheSortToItsOwn) {
  const Fixture f;
  const KeepRanges sel(f.ranges);
  SortRequest want = f.want(false, false, std::uint64_t{64} << 20);
  auto missing = PreparedKeys::make(request::binary_options(want), f.records(), f.buffer.size() / R);
  fill(*missing, f, 7000, 2);  // the second region's keys never made
  EXPECT_EQ(sorted_alike(f, want, *missing, sel).mode, "in-memory");
  EXPECT_FALSE(missing->taken());
  // Keys of the same records, but of another buffer: not the sort's.
  const std::string copy = f.buffer;
  auto elsewhere = PreparedKeys::make(request::binary_options(want), reinterpret_cast<const std::byte*>(copy.data()),
                                      copy.size() / R);
  fill(*elsewhere, f, 7000);
  EXPECT_EQ(sorted_alike(f, want, *elsewhere, sel).mode, "in-memory");
  EXPECT_FALSE(elsewhere->taken());
  want.memory_budget = std::uint64_t{1} << 20;  // runs spilled: the external plan
  auto external = PreparedKeys::make(request::binary_options(want), f.records(), f.buffer.size() / R);
  fill(*external, f, 7000);
  EXPECT_EQ(sorted_alike(f, want, *external, sel).mode, "external");
  EXPECT_FALSE(external->taken());
}

TEST(PreparedKeys, NoneForRecordsSortedAsKeyWords) {
  SortRequest r;
  r.format = "u64";
  const std::byte none[8] = {};
  EXPECT_FALSE(PreparedKeys::make(request::binary_options(r), none, 1));
}

}  // namespace
}  // namespace corank
