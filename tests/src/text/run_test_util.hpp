#pragma once
// What the tests of RecordWriter (record_writer_test.cpp) and of the mergers
// of spilled text runs (run_merge_test.cpp) share: a format whose ties are
// distinct records (-k1,1 -s), so that any tie broken out of run order shows;
// records joined into bytes and found again; sorted runs of records that tie
// often; the stable merge every merger must produce; and the promises of a
// run's samples.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "corank/io/positional_file.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/text_format.hpp"

namespace corank::text::run_test {


// Lines ordered by their first blank-separated field alone (-k1,1 -s): records
// with the same key tie. `unique` adds -u.
inline LineFormat by_first_field(bool unique = false) {
  return LineFormat(resolve_ordering({parse_keydef("1,1")}, KeyField{}, kNoTab, /*stable=*/true, unique, '\n'));
}

// Each record followed by the terminator.
inline std::string joined(const std::vector<std::string>& records, char terminator = '\n') {
  std::string out;
  for (const auto& r : records) out += r + terminator;
  return out;
}

// The runs' records concatenated in run order and stably sorted: the merge
// every merger must produce.
inline std::vector<std::string> stable_merge(const std::vector<std::vector<std::string>>& runs, const TextFormat& format) {
  std::vector<std::string> all;
  for (const auto& run : runs) all.insert(all.end(), run.begin(), run.end());
  std::stable_sort(all.begin(), all.end(),
                   [&](const std::string& a, const std::string& b) { return format.compare(a, b) < 0; });
  return all;
}

// Sorted runs of the given sizes of records "kKEY rRUN.I PAD": keys drawn from
// `keys` values, so that runs tie often (all records tie at keys == 1); the
// payload names the record, padded to up to `max_pad` bytes; one record in
// `long_every` (0: none) is padded past RecordWriter::kMaxSampleBytes and any
// reader buffer the tests use.
inline std::vector<std::vector<std::string>> make_runs(std::mt19937& rng, const std::vector<std::size_t>& sizes,
                                                unsigned keys, const TextFormat& format, std::size_t max_pad = 60,
                                                unsigned long_every = 0) {
  std::vector<std::vector<std::string>> runs(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    for (std::size_t i = 0; i < sizes[r]; ++i) {
      std::string rec = "k" + std::to_string(rng() % keys) + " r" + std::to_string(r) + "." + std::to_string(i) + " ";
      const std::size_t pad = long_every && rng() % long_every == 0
                                  ? RecordWriter::kMaxSampleBytes + 1 + rng() % 6000
                                  : rng() % (max_pad + 1);
      rec.append(pad, static_cast<char>('a' + rng() % 26));
      runs[r].push_back(std::move(rec));
    }
    std::stable_sort(runs[r].begin(), runs[r].end(),
                     [&](const std::string& a, const std::string& b) { return format.compare(a, b) < 0; });
  }
  return runs;
}

inline std::uint64_t file_size(int fd) {
  struct stat st {};
  EXPECT_EQ(::fstat(fd, &st), 0);
  return static_cast<std::uint64_t>(st.st_size);
}

inline std::string read_at(int fd, std::uint64_t offset, std::uint64_t n) {
  std::string s(static_cast<std::size_t>(n), '\0');
  s.resize(io::pread_full(fd, s.data(), s.size(), offset, "test file"));
  return s;
}

// The records of `bytes` (each ended by `terminator`) with their offsets.
struct Placed {
  std::uint64_t offset;
  std::string_view record;
};
inline std::vector<Placed> records_of(std::string_view bytes, char terminator) {
  std::vector<Placed> out;
  for (std::size_t p = 0; p < bytes.size();) {
    const std::size_t end = bytes.find(terminator, p);
    EXPECT_NE(end, std::string_view::npos) << "unterminated record at " << p;
    if (end == std::string_view::npos) break;
    out.push_back({p, bytes.substr(p, end - p)});
    p = end + 1;
  }
  return out;
}

// What keep_samples promises of `samples` kept over `bytes`, the output of
// writers whose offsets count from `base`: every sample is the record (of at
// most kMaxSampleBytes) that starts at its offset, in increasing order, and
// every record of at most kMaxSampleBytes starts less than `stride` bytes past
// the last sample at or before it, or is one. Where one writer wrote all of
// `bytes` (`one_writer`), the samples are exactly the first records at or past
// every stride bytes.
inline void expect_samples(const std::vector<RunSample>& samples, std::string_view bytes, char terminator,
                    std::uint64_t stride, std::uint64_t base = 0, bool one_writer = false) {
  const std::vector<Placed> recs = records_of(bytes, terminator);
  std::size_t at = 0;  // the record that samples[s] names
  for (std::size_t s = 0; s < samples.size(); ++s) {
    ASSERT_GE(samples[s].offset, base) << s;
    if (s > 0) ASSERT_GT(samples[s].offset, samples[s - 1].offset) << s;
    while (at < recs.size() && base + recs[at].offset < samples[s].offset) ++at;
    ASSERT_LT(at, recs.size()) << "sample " << s << " past the end";
    ASSERT_EQ(base + recs[at].offset, samples[s].offset) << "sample " << s << " is not at a record's start";
    EXPECT_EQ(samples[s].record, recs[at].record) << "sample " << s;
    EXPECT_LE(samples[s].record.size(), RecordWriter::kMaxSampleBytes) << s;
  }
  std::size_t s = 0;
  std::uint64_t next = 0;  // where the one writer takes its next sample
  std::vector<RunSample> want;
  for (const Placed& r : recs) {
    const std::uint64_t offset = base + r.offset;
    const bool small = r.record.size() <= RecordWriter::kMaxSampleBytes;
    if (one_writer && small && r.offset >= next) {
      want.push_back({offset, std::string(r.record)});
      next = r.offset + stride;
    }
    while (s < samples.size() && samples[s].offset <= offset) ++s;
    if (!small) continue;
    ASSERT_GT(s, 0u) << "no sample at or before the record at " << offset;
    const std::uint64_t last = samples[s - 1].offset;
    EXPECT_TRUE(last == offset || offset - last < stride)
        << "the record at " << offset << " is " << offset - last << " bytes past the last sample (stride " << stride
        << ")";
  }
  if (one_writer) {
    ASSERT_EQ(samples.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(samples[i].offset, want[i].offset) << i;
      EXPECT_EQ(samples[i].record, want[i].record) << i;
    }
  }
}

}  // namespace corank::text::run_test
