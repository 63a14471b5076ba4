// The mergers of spilled text runs (run_merge.hpp): runs spilled as
// TextSorter spills them, merged by one loser tree and in key ranges by
// several threads, plain and compressed. The reference is std::stable_sort of
// the runs' records concatenated in run order, under a format whose ties are
// distinct records (-k1,1 -s), so any tie broken out of run order shows.
#include "corank/text/run_merge.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../library_test_util.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/io/temp_files.hpp"
#include "run_test_util.hpp"

namespace corank::text {
namespace {

namespace fs = std::filesystem;
using namespace corank::text::run_test;

class RunMergeTest : public ::testing::Test {
protected:
  RunMergeTest() { fs::create_directories(dir_); }

  // A run of sorted `records` in an anonymous file, written as
  // TextSorter::write_at writes one: `parts` writers, each at its own offset
  // of the file, keeping samples every `stride` bytes with offsets in the run.
  SpilledRun spill(const std::vector<std::string>& records, std::uint64_t stride, unsigned parts = 1) {
    SpilledRun run{temps_.create_anonymous(), 0, {}};
    const io::FileRange range(run.fd.get(), 0, "temporary file");
    const std::size_t n = records.size();
    for (unsigned p = 0; p < parts; ++p) {
      const std::unique_ptr<io::ByteSink> sink = range.sink_at(run.bytes);
      RecordWriter w(*sink, '\n', nullptr);
      w.keep_samples(stride, run.bytes, run.samples);
      for (std::size_t i = n * p / parts; i < n * (p + 1) / parts; ++i) w.write(records[i]);
      w.finish();
      sink->finish();
      run.bytes += w.bytes();
      run.content.records += w.records();
      run.content.bytes += w.bytes();
    }
    return run;
  }
  std::vector<SpilledRun> spill_all(const std::vector<std::vector<std::string>>& runs, std::uint64_t stride,
                                    unsigned parts = 1) {
    std::vector<SpilledRun> out;
    for (const auto& r : runs) out.push_back(spill(r, stride, parts));
    return out;
  }

  // The runs merged by merge_streams over their run_reader()s, into a writer
  // (under -u where `unique`) whose record count goes to *records.
  static std::string merge_by_streams(std::span<const SpilledRun> runs, const TextFormat& format, std::size_t buffer,
                                      const io::IoOptions& io = {}, const TextFormat* unique = nullptr,
                                      std::uint64_t* records = nullptr) {
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const auto& r : runs) readers.push_back(run_reader(r, format, buffer, io));
    std::string out;
    io::StringSink sink(out);
    RecordWriter w(sink, format.terminator(), unique, 1000);
    merge_streams(readers, format, w);
    w.finish();
    if (records) *records = w.records();
    return out;
  }

  const fs::path dir_ = fs::temp_directory_path() / ("corank-run-merge-" + std::to_string(::getpid()));
  test::RemoveOnExit remove_{dir_};
  io::TempDirectories temps_{{dir_.string()}};
};

// A spilled run reads back whole through run_reader, and its samples, kept by
// several writers at their own offsets, point at its records.
TEST_F(RunMergeTest, SpilledRunsReadBackWithTheirSamples) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(3);
  const auto runs = make_runs(rng, {0, 1, 500}, 20, format, 80, 40);
  for (const unsigned parts : {1u, 3u})
    for (const auto& records : runs) {
      const SpilledRun run = spill(records, 300, parts);
      const std::string bytes = joined(records);
      EXPECT_EQ(run.bytes, bytes.size());
      EXPECT_EQ(file_size(run.fd.get()), bytes.size());
      EXPECT_EQ(read_at(run.fd.get(), 0, run.bytes), bytes);
      EXPECT_EQ(run.samples.empty(), std::none_of(records.begin(), records.end(), [](const std::string& r) {
                  return r.size() <= RecordWriter::kMaxSampleBytes;
                }));
      expect_samples(run.samples, bytes, '\n', 300, 0, /*one_writer=*/parts == 1);
      auto reader = run_reader(run, format, 64, {});
      std::vector<std::string> back;
      for (std::string_view r; reader->next(r);) back.emplace_back(r);
      EXPECT_EQ(back, records);
    }
}

// merge_streams is the stable merge: ties go to the earlier run, through
// runs that are empty, a single run, no runs, every record tied, and records
// far longer than the readers' buffers.
TEST_F(RunMergeTest, MergeStreamsIsTheStableMerge) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(4);
  const std::vector<std::vector<std::size_t>> shapes{
      {}, {0}, {300}, {0, 0, 0}, {200, 0, 150, 1, 0, 300}, {1, 1, 1, 1, 1}, {50, 400},
      {37, 120, 5, 0, 260, 90, 14, 200, 3, 77, 150, 0, 61, 9, 300, 44, 18}};
  for (const unsigned keys : {1u, 3u, 50u})
    for (const auto& sizes : shapes) {
      const auto runs = make_runs(rng, sizes, keys, format, 60, 25);
      const std::vector<SpilledRun> spilled = spill_all(runs, 1000);
      const std::vector<std::string> want = stable_merge(runs, format);
      for (const std::size_t buffer : {std::size_t{64}, std::size_t{4096}, std::size_t{1} << 20}) {
        SCOPED_TRACE("keys " + std::to_string(keys) + " runs " + std::to_string(sizes.size()) + " buffer " +
                     std::to_string(buffer));
        std::uint64_t records = 0;
        EXPECT_EQ(merge_by_streams(spilled, format, buffer, {}, nullptr, &records), joined(want));
        EXPECT_EQ(records, want.size());
      }
    }
}

// Runs of repeated records (a run's next record with the same bytes wins
// again without a comparison) among records that tie by key but differ: the
// stable merge still.
TEST_F(RunMergeTest, MergeStreamsOfRepeatedRecordsIsTheStableMerge) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(6);
  for (const unsigned keys : {1u, 2u, 5u}) {
    std::vector<std::vector<std::string>> runs(4);
    for (std::size_t r = 0; r < runs.size(); ++r) {
      for (std::size_t i = 0, n = 50 + rng() % 300; i < n; ++i)
        runs[r].push_back("k" + std::to_string(rng() % keys) + " p" + std::to_string(rng() % 3));
      std::stable_sort(runs[r].begin(), runs[r].end(),
                       [&](const std::string& a, const std::string& b) { return format.compare(a, b) < 0; });
    }
    EXPECT_EQ(merge_by_streams(spill_all(runs, 1000), format, 64), joined(stable_merge(runs, format))) << keys;
  }
}

// Merged into a writer under -u, as TextSorter merges runs under -u: the
// first of each group of equal records, earlier runs first, survives.
TEST_F(RunMergeTest, MergeStreamsUnderUniqueKeepsTheFirstOfEqualRecords) {
  const LineFormat unique = by_first_field(true);
  std::mt19937 rng(5);
  for (const unsigned keys : {1u, 7u, 200u}) {
    const auto runs = make_runs(rng, {120, 0, 80, 200, 1}, keys, unique);
    std::vector<std::string> want;
    for (const auto& r : stable_merge(runs, unique))
      if (want.empty() || unique.compare(want.back(), r) != 0) want.push_back(r);
    std::uint64_t records = 0;
    EXPECT_EQ(merge_by_streams(spill_all(runs, 500), unique, 256, {}, &unique, &records), joined(want)) << keys;
    EXPECT_EQ(records, want.size());
  }
}

// merge_in_ranges writes what merge_streams writes, on 1, 2 and 4 threads,
// direct or through the page cache, from a start offset whose bytes before it
// stay as they were, with and without samples of the merged run, which keep
// keep_samples' promise over it. The runs tie heavily across the splitters
// (or are all one tie), some records are too long to sample, the first
// record of a run among them, and longer than the smallest read buffers.
TEST_F(RunMergeTest, MergeInRangesWritesTheStableMerge) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(6);
  constexpr std::uint64_t kStride = 256, kMergedStride = 700;
  for (const unsigned keys : {1u, 3u, 40u})
    for (const unsigned parts : {1u, 3u}) {
      auto runs = make_runs(rng, {400, 1, 900, 250, 600, 30}, keys, format, 120, 60);
      runs[2].front().append(RecordWriter::kMaxSampleBytes, 'L');  // unsampled; keys alone order (-s)
      const std::vector<SpilledRun> spilled = spill_all(runs, kStride, parts);
      ASSERT_TRUE(can_merge_in_ranges(spilled));
      ASSERT_GT(spilled[2].samples.front().offset, 0u);
      const std::string want = joined(stable_merge(runs, format));
      std::uint64_t records = 0;
      ASSERT_EQ(merge_by_streams(spilled, format, 4096, {}, nullptr, &records), want);
      for (const unsigned threads : {1u, 2u, 4u})
        for (const bool direct : {false, true})
          for (const bool keep : {false, true})
            for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{5003}}) {
              SCOPED_TRACE("keys " + std::to_string(keys) + " parts " + std::to_string(parts) + " threads " +
                           std::to_string(threads) + " direct " + std::to_string(direct) + " samples " +
                           std::to_string(keep) + " start " + std::to_string(start));
              const io::FileDesc fd = temps_.create_anonymous();
              std::string before(static_cast<std::size_t>(start), '\0');
              for (auto& c : before) c = static_cast<char>(rng());
              io::pwrite_full(fd.get(), before.data(), before.size(), 0, "merged");
              std::vector<RunSample> samples;
              const ParallelMerge options{.io = {},
                                          .direct = direct,
                                          .threads = threads,
                                          // Small read buffers (4 KiB) on several threads.
                                          .memory = threads == 1 ? std::uint64_t{64} << 20 : std::uint64_t{1} << 16,
                                          .samples = keep ? &samples : nullptr,
                                          .stride = kMergedStride};
              const MergedBytes m = merge_in_ranges(spilled, format, io::FileRange(fd.get(), start, "merged"), options);
              EXPECT_EQ(m.bytes, want.size());
              EXPECT_EQ(m.records, records);
              EXPECT_EQ(file_size(fd.get()), start + want.size());
              EXPECT_EQ(read_at(fd.get(), 0, start), before);
              EXPECT_EQ(read_at(fd.get(), start, want.size() + 1), want);
              if (keep) {
                EXPECT_FALSE(samples.empty());
                expect_samples(samples, want, '\n', kMergedStride);
              } else {
                EXPECT_TRUE(samples.empty());
              }
            }
    }
}

// A merged run, with the samples merge_in_ranges kept, merges again in
// ranges with other runs (TextSorter's merge passes).
TEST_F(RunMergeTest, AMergedRunMergesAgainInRanges) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(7);
  const auto runs = make_runs(rng, {300, 500, 200, 400}, 25, format, 100, 80);
  std::vector<SpilledRun> spilled = spill_all(runs, 200);
  SpilledRun merged{temps_.create_anonymous(), 0, {}};
  const io::FileRange range(merged.fd.get(), 0, "temporary file");
  const ParallelMerge options{.threads = 3, .samples = &merged.samples, .stride = 200};
  const MergedBytes first = merge_in_ranges(std::span(spilled).first(2), format, range, options);
  merged.bytes = first.bytes;
  merged.content = {first.records, first.bytes};
  std::vector<SpilledRun> second;
  second.push_back(std::move(merged));
  second.push_back(std::move(spilled[2]));
  second.push_back(std::move(spilled[3]));
  ASSERT_TRUE(can_merge_in_ranges(second));
  const std::string want = joined(stable_merge(runs, format));
  const io::FileDesc fd = temps_.create_anonymous();
  const MergedBytes m = merge_in_ranges(second, format, io::FileRange(fd.get(), 0, "out"), {.threads = 4});
  EXPECT_EQ(m.bytes, want.size());
  EXPECT_EQ(read_at(fd.get(), 0, want.size() + 1), want);
}

// Only runs that each have samples merge in ranges: not one whose records are
// all too long to sample, nor one written without samples.
TEST_F(RunMergeTest, CanMergeInRangesOnlyRunsWithSamples) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(8);
  const auto runs = make_runs(rng, {100, 50}, 10, format);
  std::vector<SpilledRun> spilled = spill_all(runs, 64);
  EXPECT_TRUE(can_merge_in_ranges(spilled));
  EXPECT_TRUE(can_merge_in_ranges(std::span(spilled).first(1)));

  const std::vector<std::string> long_records{"k1 " + std::string(RecordWriter::kMaxSampleBytes, 'a'),
                                              "k2 " + std::string(RecordWriter::kMaxSampleBytes * 2, 'b')};
  spilled.push_back(spill(long_records, 64));
  EXPECT_TRUE(spilled.back().samples.empty());
  EXPECT_FALSE(can_merge_in_ranges(spilled));
  spilled.pop_back();

  SpilledRun unsampled = spill(runs[0], 64);
  unsampled.samples.clear();
  spilled.push_back(std::move(unsampled));
  EXPECT_FALSE(can_merge_in_ranges(spilled));
}

// A run must read back as it was written: one whose file ends early (a read
// that finds the end of the file, injected), plain or compressed, merged by
// streams or in key ranges, is "run ended early"; one that yields other
// records than were counted when it was written is an error too.
TEST_F(RunMergeTest, ARunThatReadsBackShortIsAnError) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(10);
  const auto runs = make_runs(rng, {3000, 2000}, 100, format, 200);
  const auto expect_error = [](const std::string& why, auto&& merge) {
    try {
      merge();
      ADD_FAILURE() << "merged a run that did not read back as written";
    } catch (const io::IoError& e) {
      EXPECT_EQ(std::string(e.what()), "read failed: temporary file: " + why);
    }
  };
  std::vector<SpilledRun> plain = spill_all(runs, 1000);
  for (const std::uint64_t nth : {1u, 3u, 10u}) {
    SCOPED_TRACE("read request " + std::to_string(nth) + " finds the end");
    io::FailAfter early_end(io::FaultPoint::early_end, nth);
    io::ScopedFaultInjector scope(early_end);
    expect_error("run ended early", [&] { merge_by_streams(plain, format, 4096); });
    const io::FileDesc out = temps_.create_anonymous();
    expect_error("run ended early",
                 [&] { merge_in_ranges(plain, format, io::FileRange(out.get(), 0, "out"), {.threads = 3}); });
  }
  io::IoOptions zstd;
  zstd.temp_codec = io::Codec::zstd;
  std::vector<SpilledRun> packed;
  for (const auto& records : runs) {
    SpilledRun run{temps_.create_anonymous(), 0, {}};
    auto sink = io::page_cache_run_sink(run.fd.get(), zstd);
    RecordWriter w(*sink, '\n', nullptr);
    for (const auto& rec : records) w.write(rec);
    w.finish();
    sink->finish();
    run.bytes = sink->stored_bytes();
    run.content = {w.records(), w.bytes()};
    packed.push_back(std::move(run));
  }
  {
    io::FailAfter early_end(io::FaultPoint::early_end, 2);
    io::ScopedFaultInjector scope(early_end);
    expect_error("run ended early", [&] { merge_by_streams(packed, format, 4096, zstd); });
  }
  // Counted otherwise when written: fewer bytes read back, or other records in as many bytes.
  ASSERT_EQ(merge_by_streams(packed, format, 4096, zstd), joined(stable_merge(runs, format)));
  packed[1].content.bytes += 1;
  expect_error("run ended early", [&] { merge_by_streams(packed, format, 4096, zstd); });
  packed[1].content.bytes -= 1;
  plain[0].content.records += 1;
  expect_error("run read back is not what was written", [&] { merge_by_streams(plain, format, 64); });
}

// Runs compressed (--compress-temp zstd or gzip) through page_cache_run_sink,
// one of them as several compressed pieces one after another (as
// TextSorter::write_compressed stores them), read back through run_reader
// and merged: the stable merge. Uncompressed runs through the same sink too.
TEST_F(RunMergeTest, CompressedRunsMerge) {
  const LineFormat format = by_first_field();
  std::mt19937 rng(9);
  for (const io::Codec codec : {io::Codec::zstd, io::Codec::gzip, io::Codec::none}) {
    SCOPED_TRACE(std::string(io::codec_name(codec)));
    io::IoOptions io;
    io.temp_codec = codec;
    const auto runs = make_runs(rng, {300, 0, 500, 1, 200}, 30, format, 200, 50);
    std::vector<SpilledRun> spilled;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      SpilledRun run{temps_.create_anonymous(), 0, {}};
      if (r == 2) {
        // Three pieces, each compressed on its own, stored one after another.
        for (int p = 0; p < 3; ++p) {
          std::string packed;
          auto sink = io::compressing_sink(std::make_unique<io::StringSink>(packed), codec, "temporary file",
                                           io::CompressionLevel::fast);
          RecordWriter w(*sink, '\n', nullptr);
          const std::size_t n = runs[r].size();
          for (std::size_t i = n * p / 3; i < n * (p + 1) / 3; ++i) w.write(runs[r][i]);
          w.finish();
          sink->finish();
          io::pwrite_full(run.fd.get(), packed.data(), packed.size(), run.bytes, "temporary file");
          run.bytes += packed.size();
          run.content.records += w.records();
          run.content.bytes += w.bytes();
        }
      } else {
        auto sink = io::page_cache_run_sink(run.fd.get(), io);
        RecordWriter w(*sink, '\n', nullptr);
        for (const auto& rec : runs[r]) w.write(rec);
        w.finish();
        sink->finish();
        run.bytes = sink->stored_bytes();
        run.content = {w.records(), w.bytes()};
        EXPECT_EQ(sink->bytes_written(), joined(runs[r]).size());
      }
      const std::string stored = read_at(run.fd.get(), 0, run.bytes + 1);
      EXPECT_EQ(stored.size(), run.bytes);
      if (codec == io::Codec::none) {
        EXPECT_EQ(stored, joined(runs[r]));
      } else if (runs[r].size() > 100) {
        EXPECT_LT(run.bytes, joined(runs[r]).size());
        EXPECT_EQ(io::codec_from_magic(reinterpret_cast<const unsigned char*>(stored.data()), stored.size()), codec);
      }
      spilled.push_back(std::move(run));
    }
    const std::vector<std::string> want = stable_merge(runs, format);
    for (const std::size_t buffer : {std::size_t{64}, std::size_t{1} << 16}) {
      std::uint64_t records = 0;
      EXPECT_EQ(merge_by_streams(spilled, format, buffer, io, nullptr, &records), joined(want)) << buffer;
      EXPECT_EQ(records, want.size());
    }
  }
}

}  // namespace
}  // namespace corank::text
