// drive_sort (sort_driver.hpp) over a model whose runs live in a fake file
// system: what the driver decides (one chunk written straight out, runs held
// within max_runs, passes of fan_in, the last merge) and what it leaves
// behind when a step fails, without records or files of a real kind.
#include "corank/sort_driver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace corank {
namespace {

struct Rec {
  int key;
  int id;  // place in the input: equal keys must come out in this order
};

// Counts the files the runs hold, as the process's descriptors would.
struct FakeFs {
  int open = 0, peak = 0, created = 0;
};

class FakeFile {
public:
  explicit FakeFile(FakeFs& fs) : fs_(&fs) {
    ++fs.created;
    fs.peak = std::max(fs.peak, ++fs.open);
  }
  FakeFile(FakeFile&& o) noexcept : fs_(std::exchange(o.fs_, nullptr)) {}
  FakeFile& operator=(FakeFile&& o) noexcept {
    if (this != &o) {
      close();
      fs_ = std::exchange(o.fs_, nullptr);
    }
    return *this;
  }
  ~FakeFile() { close(); }
  void close() {
    if (fs_) --fs_->open;
    fs_ = nullptr;
  }
  bool is_open() const { return fs_ != nullptr; }

private:
  FakeFs* fs_;
};

struct InjectedFault : std::runtime_error {
  InjectedFault() : std::runtime_error("injected") {}
};

// Sorts `input` in chunks of the given sizes (the last repeated), its runs
// files of `fs`; throws InjectedFault at the spill or merge numbered
// fail_spill or fail_merge (1-based; 0 never).
class FakeModel {
public:
  struct Run {
    std::vector<Rec> recs;
    FakeFile file;
  };

  FakeModel(std::vector<Rec> input, std::vector<std::size_t> chunk_sizes, std::size_t fan_in, std::size_t max_runs,
            FakeFs& fs)
      : input_(std::move(input)), sizes_(std::move(chunk_sizes)), fan_in_(fan_in), max_runs_(max_runs), fs_(fs) {}

  std::optional<bool> next_chunk() {
    if (at_ == input_.size()) return std::nullopt;
    const std::size_t size = sizes_[std::min(chunks_, sizes_.size() - 1)];
    const std::size_t n = std::min(size, input_.size() - at_);
    chunk_.assign(input_.begin() + static_cast<std::ptrdiff_t>(at_),
                  input_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    std::stable_sort(chunk_.begin(), chunk_.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    at_ += n;
    ++chunks_;
    // Like a reader of a pipe: a full chunk cannot tell that nothing follows.
    return n < size;
  }
  void write_chunk() {
    ++writes_;
    output_ = chunk_;
  }
  Run spill_chunk() {
    if (++spills_ == fail_spill) throw InjectedFault();
    return Run{chunk_, FakeFile(fs_)};
  }
  Run merge(std::span<Run> group) {
    if (++merges_ == fail_merge) throw InjectedFault();
    if (group.size() < 2 || group.size() > fan_in_) throw std::logic_error("merge of a bad group");
    for (const Run& r : group)
      if (!r.file.is_open()) throw std::logic_error("merge of a freed run");
    Run out{merge_recs(group), FakeFile(fs_)};
    merged_records += out.recs.size();
    for (Run& r : group) r.file.close();
    return out;
  }
  void merge_into_output(std::span<Run> runs) {
    last_merge_width = runs.size();
    output_ = merge_recs(runs);
  }
  std::uint64_t bytes(const Run& r) const { return r.recs.size(); }
  std::size_t fan_in() const { return fan_in_; }
  std::size_t max_runs() const { return max_runs_; }
  void formed(std::span<const Run> runs) { formed_runs = runs.size(); }
  void drain() noexcept { ++drains; }

  const std::vector<Rec>& output() const { return output_; }
  int writes() const { return writes_; }
  int merges() const { return merges_; }

  int fail_spill = 0, fail_merge = 0;
  std::size_t formed_runs = 0, last_merge_width = 0;
  std::uint64_t merged_records = 0;  // written by merges into runs
  int drains = 0;

protected:
  // Equal keys keep run order, then order within the run.
  static std::vector<Rec> merge_recs(std::span<Run> runs) {
    std::vector<Rec> all;
    for (const Run& r : runs) all.insert(all.end(), r.recs.begin(), r.recs.end());
    std::stable_sort(all.begin(), all.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    return all;
  }

  std::vector<Rec> input_;
  std::vector<std::size_t> sizes_;
  std::size_t fan_in_, max_runs_;
  FakeFs& fs_;
  std::vector<Rec> chunk_, output_;
  std::size_t at_ = 0, chunks_ = 0;
  int writes_ = 0, spills_ = 0, merges_ = 0;
};

static_assert(SortModel<FakeModel>);

// n records with keys drawn from few values, so that ties abound.
std::vector<Rec> make_input(int n, int distinct = 17) {
  std::mt19937 rng(42);
  std::vector<Rec> v;
  for (int i = 0; i < n; ++i) v.push_back(Rec{static_cast<int>(rng() % distinct), i});
  return v;
}

// The stable sort of the input, as the driver must produce.
void expect_stable_sort_of(const std::vector<Rec>& in, const std::vector<Rec>& out) {
  auto want = in;
  std::stable_sort(want.begin(), want.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
  ASSERT_EQ(out.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(out[i].key, want[i].key) << "at " << i;
    ASSERT_EQ(out[i].id, want[i].id) << "at " << i;
  }
}

TEST(SortDriver, OneChunkIsWrittenStraightOut) {
  FakeFs fs;
  const auto in = make_input(50);
  FakeModel m(in, {64}, 4, 100, fs);
  SortStats stats;
  drive_sort(m, stats);
  EXPECT_EQ(m.writes(), 1);
  EXPECT_EQ(fs.created, 0);
  EXPECT_EQ(stats.runs, 1u);
  EXPECT_EQ(stats.merge_passes, 0u);
  expect_stable_sort_of(in, m.output());
}

TEST(SortDriver, AnEmptyInputWritesNothing) {
  FakeFs fs;
  FakeModel m({}, {64}, 4, 100, fs);
  SortStats stats;
  drive_sort(m, stats);
  EXPECT_EQ(m.writes(), 0);
  EXPECT_EQ(m.last_merge_width, 0u);
  EXPECT_EQ(stats.runs, 0u);
  EXPECT_EQ(fs.created, 0);
}

TEST(SortDriver, AFullLastChunkIsARunLikeAnyOther) {
  // A reader that cannot know the input ended: the one full chunk is spilled
  // and merged alone.
  FakeFs fs;
  const auto in = make_input(64);
  FakeModel m(in, {64}, 4, 100, fs);
  SortStats stats;
  drive_sort(m, stats);
  EXPECT_EQ(m.writes(), 0);
  EXPECT_EQ(m.last_merge_width, 1u);
  expect_stable_sort_of(in, m.output());
  EXPECT_EQ(fs.open, 0);
}

TEST(SortDriver, PassesMergeGroupsOfFanInUntilOneMergeIsLeft) {
  FakeFs fs;
  const auto in = make_input(20 * 10 - 3);  // 20 runs, the last short
  FakeModel m(in, {10}, 3, 1000, fs);
  SortStats stats;
  drive_sort(m, stats);
  EXPECT_EQ(m.formed_runs, 20u);
  // 20 runs -> 7 -> 3: two passes, then the last merge of three.
  EXPECT_EQ(stats.merge_passes, 2u);
  EXPECT_EQ(m.merges(), 7 + 2);  // groups of 3,3,3,3,3,3,2 then 3,3,1
  EXPECT_EQ(m.last_merge_width, 3u);
  EXPECT_EQ(stats.runs, 20u);
  expect_stable_sort_of(in, m.output());
  EXPECT_EQ(fs.open, 0);
}

TEST(SortDriver, RunsHeldStayWithinMaxRuns) {
  for (const std::size_t fan_in : {2u, 3u, 5u}) {
    for (const std::size_t max_runs : {2u, 4u, 7u}) {
      FakeFs fs;
      const auto in = make_input(3000);
      // Chunks of uneven sizes, as records of a pipe arrive.
      FakeModel m(in, {13, 40, 7, 7, 90, 31, 5, 64}, fan_in, max_runs, fs);
      SortStats stats;
      drive_sort(m, stats);
      // A merge opens its output while its group is still open.
      EXPECT_LE(static_cast<std::size_t>(fs.peak), max_runs + 1) << fan_in << " " << max_runs;
      EXPECT_LE(m.formed_runs, max_runs) << fan_in << " " << max_runs;
      EXPECT_GT(stats.merge_passes, 0u);
      expect_stable_sort_of(in, m.output());
      EXPECT_EQ(fs.open, 0);
    }
  }
}

TEST(SortDriver, EarlyMergesTakeTheNewestRunsOfTheLowestLevel) {
  FakeFs fs;
  const auto in = make_input(100 + 2 + 100 + 100);
  // Runs of 100, 1, 1, 100, 100 records (the last short of its 100): at
  // three runs held, all of level 0, the newest two are merged.
  FakeModel m(in, {100, 1, 1, 100}, 2, 3, fs);
  SortStats stats;
  drive_sort(m, stats);
  expect_stable_sort_of(in, m.output());
  EXPECT_EQ(fs.open, 0);
  EXPECT_LE(fs.peak, 4);
}

TEST(SortDriver, EarlyMergesRewriteARecordOncePerLevel) {
  // Few runs held (a low ulimit -n) and many chunks: merging equal levels
  // rewrites each record about log(chunks) / log(fan-in) times; merging the
  // cheapest neighbours (a new chunk and the large run beside it, over and
  // over) rewrote it 67 times here, merging every run so far more still.
  for (const auto& [chunks, fan_in, max_runs, most] :
       {std::tuple{1000, 4u, 6u, 16}, std::tuple{200, 100u, 8u, 4}, std::tuple{300, 3u, 3u, 40}}) {
    FakeFs fs;
    const auto in = make_input(10 * chunks);
    FakeModel m(in, {10}, fan_in, max_runs, fs);
    SortStats stats;
    drive_sort(m, stats);
    expect_stable_sort_of(in, m.output());
    EXPECT_LE(static_cast<std::size_t>(fs.peak), max_runs + 1) << chunks;
    EXPECT_LE(m.merged_records, most * in.size()) << chunks << " " << m.merged_records / in.size();
    EXPECT_EQ(fs.open, 0);
  }
}

TEST(SortDriver, AFailedSpillOrMergeFreesEveryRun) {
  for (int at = 1; at <= 6; ++at) {
    for (const bool in_merge : {false, true}) {
      FakeFs fs;
      FakeModel m(make_input(500), {20}, 3, 5, fs);
      (in_merge ? m.fail_merge : m.fail_spill) = at;
      SortStats stats;
      EXPECT_THROW(drive_sort(m, stats), InjectedFault) << at << " " << in_merge;
      EXPECT_EQ(fs.open, 0) << at << " " << in_merge;
      EXPECT_EQ(m.drains, 1);
    }
  }
}

// Adaptive run formation over the fake: a window of `window` records kept
// sorted; each chunk's records less than the last one the output run took go
// to a side run, the rest merge with the window, and all but the window's
// worth join the output run. At chunk give_up_at (1-based; 0 never) it stops
// streaming and leaves the window and the chunk as runs.
class StreamingModel : public FakeModel {
public:
  StreamingModel(std::vector<Rec> input, std::vector<std::size_t> sizes, std::size_t fan_in, std::size_t max_runs,
                 FakeFs& fs, std::size_t window, std::size_t give_up_at = 0)
      : FakeModel(std::move(input), std::move(sizes), fan_in, max_runs, fs), window_(window), give_up_at_(give_up_at) {}

  bool streams() const { return streaming_; }
  std::vector<Run> stream_chunk(bool last) {
    std::vector<Run> left;
    if (++streamed_ == give_up_at_) {
      streaming_ = false;
      left.push_back(Run{kept_, FakeFile(fs_)});
      left.push_back(Run{chunk_, FakeFile(fs_)});
      return left;
    }
    const auto late = std::partition_point(chunk_.begin(), chunk_.end(),
                                           [&](const Rec& r) { return !run_.empty() && r.key < run_.back().key; });
    if (late != chunk_.begin()) {
      left.push_back(Run{std::vector<Rec>(chunk_.begin(), late), FakeFile(fs_)});
      side_records += static_cast<std::size_t>(late - chunk_.begin());
    }
    std::vector<Rec> all = kept_;  // first among equals
    all.insert(all.end(), late, chunk_.end());
    std::stable_sort(all.begin(), all.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    const std::size_t keep = last ? 0 : std::min(window_, all.size());
    run_.insert(run_.end(), all.begin(), all.end() - static_cast<std::ptrdiff_t>(keep));
    kept_.assign(all.end() - static_cast<std::ptrdiff_t>(keep), all.end());
    return left;
  }
  void end_stream() {
    run_.insert(run_.end(), kept_.begin(), kept_.end());
    kept_.clear();
  }
  void merge_stream_into_output(std::span<Run> runs) {
    if (runs.size() + 1 > fan_in()) throw std::logic_error("the output run and too many runs");
    last_merge_width = runs.size() + 1;
    std::vector<Rec> all = run_;
    for (const Run& r : runs) all.insert(all.end(), r.recs.begin(), r.recs.end());
    std::stable_sort(all.begin(), all.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    run_ = std::move(all);
  }
  // What went to the output: the run streamed into it, merged with the runs left where there were any.
  const std::vector<Rec>& output() const { return run_; }

  std::size_t side_records = 0;

private:
  std::size_t window_, give_up_at_;
  std::size_t streamed_ = 0;
  bool streaming_ = true;
  std::vector<Rec> run_, kept_;
};

// n records, each key its place plus up to `late` less (ties by halving).
std::vector<Rec> nearly_sorted(int n, int late, int every = 1) {
  std::mt19937 rng(7);
  std::vector<Rec> v;
  for (int i = 0; i < n; ++i) v.push_back(Rec{(i - (i % every == 0 ? static_cast<int>(rng() % (late + 1)) : 0)) / 2, i});
  return v;
}

TEST(SortDriver, InputWithinTheWindowStreamsIntoOneRun) {
  FakeFs fs;
  const auto in = nearly_sorted(1000, 12);
  StreamingModel m(in, {10}, 3, 4, fs, 16);
  SortStats stats;
  drive_sort(m, stats);
  expect_stable_sort_of(in, m.output());
  EXPECT_EQ(fs.created, 0);
  EXPECT_EQ(m.side_records, 0u);
  EXPECT_EQ(stats.runs, 1u);
  EXPECT_EQ(m.last_merge_width, 0u);  // nothing merged: the output was written once
}

TEST(SortDriver, LateRecordsMakeSideRunsMergedAfterTheOutputRun) {
  for (const std::size_t fan_in : {2u, 3u, 8u}) {
    for (const std::size_t max_runs : {2u, 5u}) {
      FakeFs fs;
      const auto in = nearly_sorted(2000, 300, 23);  // a record in 23 far later than the window
      StreamingModel m(in, {10, 37}, fan_in, max_runs, fs, 16);
      SortStats stats;
      drive_sort(m, stats);
      expect_stable_sort_of(in, m.output());
      EXPECT_GT(m.side_records, 0u);
      EXPECT_GE(m.last_merge_width, 2u);
      EXPECT_LE(m.last_merge_width, fan_in);
      EXPECT_LE(static_cast<std::size_t>(fs.peak), max_runs + 1) << fan_in << " " << max_runs;
      EXPECT_EQ(fs.open, 0);
    }
  }
}

TEST(SortDriver, AModelThatStopsStreamingFormsRunsFromThere) {
  for (const std::size_t give_up_at : {1u, 2u, 5u}) {
    FakeFs fs;
    const auto in = make_input(500);
    StreamingModel m(in, {20}, 3, 6, fs, 8, give_up_at);
    SortStats stats;
    drive_sort(m, stats);
    expect_stable_sort_of(in, m.output());
    EXPECT_EQ(fs.open, 0);
  }
}

TEST(SortDriver, RefusesAFanInBelowTwo) {
  FakeFs fs;
  FakeModel m(make_input(10), {4}, 1, 100, fs);
  SortStats stats;
  EXPECT_THROW(drive_sort(m, stats), std::logic_error);
}

}  // namespace
}  // namespace corank
