// RecordWriter (record_writer.hpp): the bytes and terminators it writes, its
// counts, the -u filter, the samples it keeps and the room it claims.
#include "corank/text/record_writer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../library_test_util.hpp"
#include "corank/io/temp_files.hpp"
#include "run_test_util.hpp"

namespace corank::text {
namespace {

using namespace corank::text::run_test;

// Records and their terminators reach the sink in order, through buffers
// smaller and larger than the records (a record longer than the buffer goes
// past it); what the sink holds before finish() is a prefix of the output.
// write_raw counts bytes, not records.
TEST(RecordWriter, WritesRecordsAndTerminatorsInOrder) {
  std::mt19937 rng(1);
  std::vector<std::string> records{"", "a", ""};
  for (int i = 0; i < 300; ++i)
    records.push_back(std::string(rng() % 4 == 0 ? rng() % 300 : rng() % 20, static_cast<char>('a' + i % 26)));
  records.push_back(std::string(1000, 'z'));
  for (const char terminator : {'\n', '\0'})
    for (const std::size_t buffer : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1000},
                                     std::size_t{256} << 10}) {
      SCOPED_TRACE("buffer " + std::to_string(buffer) + " terminator " + std::to_string(int{terminator}));
      const std::string header = "HEADER";
      const std::string want = header + joined(records, terminator);
      std::string out;
      io::StringSink sink(out);
      RecordWriter w(sink, terminator, nullptr, buffer);
      EXPECT_EQ(w.capacity(), buffer);
      w.write_raw(header);
      for (const auto& r : records) {
        w.write(r);
        ASSERT_TRUE(want.starts_with(out));
      }
      EXPECT_EQ(w.records(), records.size());
      EXPECT_EQ(w.bytes(), want.size());
      if (buffer > want.size()) EXPECT_TRUE(out.empty()) << "nothing is written before the buffer fills";
      w.finish();
      EXPECT_EQ(out, want);
      EXPECT_EQ(w.bytes(), want.size());
      w.write("after");  // a finished writer goes on
      w.finish();
      EXPECT_EQ(out, want + "after" + terminator);
      EXPECT_EQ(w.records(), records.size() + 1);
    }
}

// Under -u a record equal to the last one written is dropped, so the first of
// each group of equal neighbours survives; equal records apart are kept.
// Without a unique format every record is kept, and a header written raw is
// not a record the next one is compared with.
TEST(RecordWriter, UniqueDropsEqualNeighbours) {
  const LineFormat unique = by_first_field(true);
  const std::vector<std::string> records{"a 1", "a 2", "a 3", "b 1", "a 4", "c 1", "c 1", "c 2", "d 1", ""};
  const std::vector<std::string> kept{"a 1", "b 1", "a 4", "c 1", "d 1", ""};
  for (const std::size_t buffer : {std::size_t{4}, std::size_t{256} << 10}) {
    std::string out;
    io::StringSink sink(out);
    RecordWriter w(sink, '\n', &unique, buffer);
    w.write_raw("a header\n");
    for (const auto& r : records) w.write(r);
    w.finish();
    EXPECT_EQ(out, "a header\n" + joined(kept)) << buffer;
    EXPECT_EQ(w.records(), kept.size());
    EXPECT_EQ(w.bytes(), out.size());

    std::string all;
    io::StringSink all_sink(all);
    RecordWriter keep_all(all_sink, '\n', nullptr, buffer);
    for (const auto& r : records) keep_all.write(r);
    keep_all.finish();
    EXPECT_EQ(all, joined(records));
    EXPECT_EQ(keep_all.records(), records.size());
  }
}

// keep_samples: the first record of at most kMaxSampleBytes at or past every
// `stride` bytes, its offset counted from `base` plus the writer's bytes when
// sampling began; records dropped by -u are not sampled.
TEST(RecordWriter, KeepsTheFirstRecordAtOrPastEveryStride) {
  std::mt19937 rng(2);
  std::vector<std::string> records;
  for (int i = 0; i < 2000; ++i) {
    const unsigned kind = rng() % 50;
    const std::size_t n = kind == 0   ? RecordWriter::kMaxSampleBytes + 1 + rng() % 100
                          : kind == 1 ? RecordWriter::kMaxSampleBytes
                                      : rng() % 120;
    records.push_back(std::string(n, static_cast<char>('a' + rng() % 26)));
  }
  // A run of records too long to sample: the first short one after them is.
  records.insert(records.begin() + 700, 5, std::string(RecordWriter::kMaxSampleBytes + 7, 'L'));
  for (const std::uint64_t stride : {std::uint64_t{1}, std::uint64_t{100}, std::uint64_t{4096},
                                     std::uint64_t{50000}, std::uint64_t{1} << 40})
    for (const std::uint64_t base : {std::uint64_t{0}, std::uint64_t{12345}})
      for (const std::size_t buffer : {std::size_t{64}, std::size_t{256} << 10}) {
        SCOPED_TRACE("stride " + std::to_string(stride) + " base " + std::to_string(base) + " buffer " +
                     std::to_string(buffer));
        std::string out;
        io::StringSink sink(out);
        RecordWriter w(sink, '\n', nullptr, buffer);
        std::vector<RunSample> samples;
        w.keep_samples(stride, base, samples);
        for (const auto& r : records) w.write(r);
        w.finish();
        ASSERT_EQ(out, joined(records));
        EXPECT_FALSE(samples.empty());
        expect_samples(samples, out, '\n', stride, base, /*one_writer=*/true);
      }

  // Sampling begun after a header and some records: offsets count them too.
  std::string out;
  io::StringSink sink(out);
  RecordWriter w(sink, '\n', nullptr);
  w.write_raw("header\n");
  w.write("before");
  std::vector<RunSample> samples;
  w.keep_samples(10, 1000, samples);
  for (const char* r : {"first", "x", "y", "zzzzzzzzzz", "after"}) w.write(r);
  w.finish();
  ASSERT_EQ(out, "header\nbefore\nfirst\nx\ny\nzzzzzzzzzz\nafter\n");
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].offset, 1000u + 14);
  EXPECT_EQ(samples[0].record, "first");
  EXPECT_EQ(samples[1].offset, 1000u + 24);  // the first record at or past 10 bytes on
  EXPECT_EQ(samples[1].record, "zzzzzzzzzz");
  EXPECT_EQ(samples[2].offset, 1000u + 35);
  EXPECT_EQ(samples[2].record, "after");

  // Under -u the survivors are sampled, at their offsets in the output.
  const LineFormat unique = by_first_field(true);
  std::string uout;
  io::StringSink usink(uout);
  RecordWriter u(usink, '\n', &unique);
  std::vector<RunSample> usamples;
  u.keep_samples(4, 0, usamples);
  for (const char* r : {"a 1", "a 2", "a 3", "b 1", "b 2", "c 1", "d 1"}) u.write(r);
  u.finish();
  ASSERT_EQ(uout, "a 1\nb 1\nc 1\nd 1\n");
  expect_samples(usamples, uout, '\n', 4, 0, /*one_writer=*/true);
  EXPECT_EQ(usamples.size(), 4u);
}

// claim/commit: bytes the caller gathers into the writer's buffer are written
// in order with the records around them, a claim that does not fit flushes
// first, and commit counts the bytes and records given.
TEST(RecordWriter, ClaimedRoomIsCommittedInOrder) {
  std::string out;
  io::StringSink sink(out);
  RecordWriter w(sink, '\n', nullptr, 64);
  w.write("first");
  std::string want = "first\n";
  const std::string batch = "aaaa\nbbbb\n";
  char* room = w.claim(batch.size());
  std::copy(batch.begin(), batch.end(), room);
  w.commit(batch.size(), 2);
  want += batch;
  EXPECT_TRUE(out.empty());
  // The whole buffer: what is buffered goes to the sink first.
  const std::string full = std::string(w.capacity() - 1, 'c') + "\n";
  room = w.claim(full.size());
  EXPECT_EQ(out, want);
  std::copy(full.begin(), full.end(), room);
  w.commit(full.size(), 1);
  want += full;
  w.write("last");
  want += "last\n";
  w.finish();
  EXPECT_EQ(out, want);
  EXPECT_EQ(w.records(), 5u);
  EXPECT_EQ(w.bytes(), want.size());
}


}  // namespace
}  // namespace corank::text
