// Sorting some records of input buffers (record_selection.hpp): the reader
// gives exactly the kept records, in input order, across buffers, however
// its reads are sized; a sort of a selection gives what a sort of only those
// records gives, on the CPU's in-memory and spilling paths, and where its
// records are sorted where they lie; and an input
// that keeps other than the selection's count is an error, not a short or
// truncated output.
#include "corank/record_selection.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/sort.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

constexpr std::uint32_t R = 8;

// Keeps the records whose key (a little-endian u64) is a multiple of `every`,
// claiming `records` of them.
class MultiplesOf final : public RecordSelection {
public:
  MultiplesOf(std::uint64_t every, std::uint64_t records) : every_(every), records_(records) {}
  std::uint64_t records() const override { return records_; }
  std::uint64_t mark(const std::byte* recs, std::uint64_t n, std::uint64_t, std::uint8_t* keep) const override {
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t v;
      std::memcpy(&v, recs + i * R, 8);
      kept += keep[i] = v % every_ == 0;
    }
    return kept;
  }

private:
  std::uint64_t every_, records_;
};

struct Input {
  std::vector<std::string> pieces;
  std::string kept;  // the kept records, concatenated in order
  std::uint64_t kept_records = 0;

  std::vector<std::span<const std::byte>> buffers() const {
    std::vector<std::span<const std::byte>> b;
    for (const auto& p : pieces) b.emplace_back(reinterpret_cast<const std::byte*>(p.data()), p.size());
    return b;
  }
};

// Pieces of 0, 50000, 7 and 90000 random records; kept: multiples of `every`.
Input make_input(std::uint64_t every = 3) {
  std::mt19937_64 rng(3);
  Input in;
  for (int n : {0, 50000, 7, 90000}) {
    std::string p;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v = rng() % 1000000;
      p.append(reinterpret_cast<const char*>(&v), 8);
      if (v % every == 0) in.kept.append(reinterpret_cast<const char*>(&v), 8), ++in.kept_records;
    }
    in.pieces.push_back(std::move(p));
  }
  return in;
}

// Every record, a third, next to none: runs of kept records across words,
// blocks and buffers, and reads that end anywhere in them.
// The sort of the kept records alone, from a file of them (`want`), as a
// request whose copy sorts the selection instead (`got`).
SortRequest sort_of_kept(const std::filesystem::path& dir, const std::filesystem::path& kept, const char* format,
                         std::uint64_t budget, unsigned threads) {
  SortRequest want;
  want.format = format;
  want.gpu = GpuMode::Off;
  want.threads = threads;
  want.memory_budget = budget;
  want.temp_dirs = {dir};
  want.io.sync_output = false;
  want.inputs = {kept};
  want.output = dir / "want";
  return want;
}

// The same request over the selection of the input buffers.
SortRequest sort_of_selection(SortRequest r, const Input& in, const RecordSelection& sel,
                              const std::filesystem::path& dir) {
  r.inputs.clear();
  r.input_buffers = in.buffers();
  r.input_selection = &sel;
  r.output = dir / "got";
  return r;
}

TEST(RecordSelection, ReadsExactlyTheKeptRecordsInOrder) {
  for (std::uint64_t every : {1ull, 3ull, 1000003ull}) {
    const Input in = make_input(every);
    const MultiplesOf sel(every, in.kept_records);
    for (std::uint64_t max : {1ull, 1000ull, 16384ull, 100000ull}) {
      SelectedRecords reader(in.buffers(), R, sel, 4);
      std::string got;
      std::string buf(max * R, '\0');
      for (;;) {
        const std::uint64_t n = reader.read(reinterpret_cast<std::byte*>(buf.data()), max);
        got.append(buf.data(), n * R);
        if (n < max) break;  // short only at the end
      }
      EXPECT_EQ(reader.read(reinterpret_cast<std::byte*>(buf.data()), max), 0u);
      EXPECT_TRUE(got == in.kept) << "multiples of " << every << ", reads of " << max;
    }
  }
}

TEST(RecordSelection, AnotherCountThanTheSelectionsIsAnError) {
  const Input in = make_input();
  std::string buf(in.kept_records * R + 64, '\0');
  for (std::uint64_t claimed : {in.kept_records - 1, in.kept_records + 1}) {
    const MultiplesOf sel(3, claimed);  // the reader holds it by reference
    SelectedRecords reader(in.buffers(), R, sel, 2);
    // A sort reads no more than the count it was given.
    EXPECT_THROW(reader.read(reinterpret_cast<std::byte*>(buf.data()), claimed), InputError) << claimed;
  }
}

TEST(RecordSelection, SortOfASelectionIsTheSortOfItsRecords) {
  const auto dir = std::filesystem::temp_directory_path() / ("corank-selection-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const test::RemoveOnExit remove(dir);
  const Input in = make_input();
  std::ofstream(dir / "kept.u64", std::ios::binary) << in.kept;
  const MultiplesOf sel(3, in.kept_records);
  for (std::uint64_t budget : {std::uint64_t{64} << 20, std::uint64_t{1} << 20}) {  // in memory; runs spilled
    const SortRequest want = sort_of_kept(dir, dir / "kept.u64", "u64", budget, 2);
    sort(want);
    const SortStats stats = sort(sort_of_selection(want, in, sel, dir));
    EXPECT_EQ(stats.records_out, in.kept_records);
    EXPECT_TRUE(test::slurp(dir / "got") == test::slurp(dir / "want")) << "-S " << budget;
  }
}

// One buffer, a key that ties often: the CPU's in-memory sort takes the kept
// records where they lie (entries only), in one sort or in runs (the
// smallest budget that keeps the sort in memory, found by bisection), and
// equal keys keep their input order, as a sort of the kept records alone
// gives.
TEST(RecordSelection, KeptRecordsSortedWhereTheyLie) {
  const auto dir = std::filesystem::temp_directory_path() / ("corank-selection-in-place-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const test::RemoveOnExit remove(dir);
  std::mt19937_64 rng(4);
  Input in;
  in.pieces = {"", ""};
  for (int i = 0; i < 600000; ++i) {
    const std::uint64_t v = rng();
    in.pieces[1].append(reinterpret_cast<const char*>(&v), 8);
    if (v % 3 == 0) in.kept.append(reinterpret_cast<const char*>(&v), 8), ++in.kept_records;
  }
  std::ofstream(dir / "kept.rec", std::ios::binary) << in.kept;
  const MultiplesOf sel(3, in.kept_records);
  const auto run = [&](std::uint64_t budget, unsigned threads) {
    SortRequest want = sort_of_kept(dir, dir / "kept.rec", "fixed:8", budget, threads);
    want.keys = {"0:2:u16"};
    sort(want);
    test::Recorder said;
    SortRequest r = sort_of_selection(want, in, sel, dir);
    r.verbose = true;
    r.io.diagnostics = &said;
    const SortStats stats = sort(r);
    EXPECT_EQ(stats.records_out, in.kept_records);
    EXPECT_TRUE(test::slurp(dir / "got") == test::slurp(dir / "want")) << threads << " threads, -S " << budget;
    if (stats.mode == "in-memory") EXPECT_TRUE(said.said("the selected records sorted where they lie"));
    return stats;
  };
  for (unsigned threads : {1u, 3u}) EXPECT_EQ(run(std::uint64_t{256} << 20, threads).runs, 1u);
  // External at lo, in memory at hi: the sort at hi, within 256 KiB of the
  // edge, has no room left for one sort of every entry.
  std::uint64_t lo = std::uint64_t{1} << 20, hi = std::uint64_t{256} << 20;
  std::uint64_t runs_at_hi = 1;
  while (hi - lo > (std::uint64_t{256} << 10)) {
    const std::uint64_t mid = (lo + hi) / 2;
    const SortStats stats = run(mid, 3);
    if (stats.mode == "in-memory")
      hi = mid, runs_at_hi = stats.runs;
    else
      lo = mid;
  }
  EXPECT_GT(runs_at_hi, 1u) << "-S " << hi;
}

}  // namespace
}  // namespace corank
