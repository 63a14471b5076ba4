// write_merged and share_start (merged_chunk_writer.hpp): a chunk left as
// sorted slices (sort_into_slices) and merged straight into a file gives the
// bytes of the records sorted whole by std::sort under the full order
// (EntryLess), on any number of threads, with runs of equal prefixes that
// cross the threads' shares; and no share begins inside such a run.
#include "corank/text/merged_chunk_writer.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/pile_sort.hpp"

namespace corank::text {
namespace {

namespace fs = std::filesystem;

LineFormat format_of(std::vector<std::string> keys, bool stable) {
  std::vector<KeyField> k;
  for (const auto& d : keys) k.push_back(parse_keydef(d));
  return LineFormat(resolve_ordering(k, KeyField{}, kNoTab, stable, false, '\n'));
}

// Lines like a log's: files one after another, each in order but for a few
// late lines, most of whose heads are longer than a prefix (so that their
// prefixes tie), with copies.
std::string log_like(std::mt19937& rng, std::size_t files, std::size_t each) {
  std::string bytes;
  for (std::size_t f = 0; f < files; ++f) {
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < each; ++i) {
      const unsigned second = static_cast<unsigned>(i / 50 + (rng() % 16 == 0 ? rng() % 40 : 0));
      char head[64];
      std::snprintf(head, sizeof head, "2026-11-25T%02u:%02u:%02u host-%zu service-with-a-long-name:", second / 3600 % 24,
                    second / 60 % 60, second % 60, f % 3);
      std::string line = head;
      if (i > 0 && rng() % 6 == 0) line = lines.back();  // a copy
      else line += " event " + std::to_string(rng() % 7) + (rng() % 2 ? " x" : "");
      lines.push_back(line);
    }
    for (const auto& l : lines) bytes += l + "\n";
  }
  return bytes;
}

Chunk chunk_of(const std::string& bytes, const TextFormat& format) {
  Chunk c;
  c.mapped = bytes.data();
  c.used = bytes.size();
  for (std::uint64_t at = 0; at < bytes.size();) {
    const std::uint64_t end = bytes.find('\n', at);
    const std::string_view text(bytes.data() + at, end - at);
    c.records.push_back(RecordEntry(format.prefix(text), at, end - at, c.long_records));
    at = end + 1;
  }
  return c;
}

std::string sorted_whole(const Chunk& chunk, const TextFormat& format) {
  std::vector<RecordEntry> v(chunk.records.begin(), chunk.records.end());
  std::sort(v.begin(), v.end(), EntryLess{&format, &chunk});
  std::string out;
  for (const RecordEntry& e : v) out.append(chunk.record(e)).push_back('\n');
  return out;
}

class MergedChunkWriter : public ::testing::Test {
protected:
  void TearDown() override { fs::remove(path_); }
  std::string write(const Chunk& chunk, std::span<const std::uint64_t> slices, const TextFormat& format,
                    unsigned threads) {
    io::FileDesc fd(::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    const io::FileRange range(fd.get(), 0, path_.string());
    const std::uint64_t bytes = write_merged(ChunkWriting{format, threads}, chunk, slices,
                                             EntryLess{&format, &chunk}, range, io::IoOptions{});
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    EXPECT_EQ(bytes, s.str().size());
    return s.str();
  }
  const fs::path path_ = fs::temp_directory_path() / ("corank-merged-" + std::to_string(::getpid()));
};

TEST_F(MergedChunkWriter, SlicesMergedIntoAFileAreTheWholeSort) {
  std::mt19937 rng(20261129);
  const std::vector<LineFormat> formats = {format_of({}, false), format_of({"1,1"}, true), format_of({"2,3"}, false)};
  for (std::size_t f = 0; f < formats.size(); ++f)
    for (const std::size_t each : {0u, 1u, 3000u, 30000u}) {
      const std::string bytes = log_like(rng, 7, each);
      const std::string want = sorted_whole(chunk_of(bytes, formats[f]), formats[f]);
      for (const unsigned threads : {1u, 2u, 3u, 8u}) {  // 30000 lines a file: three shares, taken by 1-3 threads
        SCOPED_TRACE("format " + std::to_string(f) + ", " + std::to_string(each) + " lines a file, " +
                     std::to_string(threads) + " threads");
        Chunk chunk = chunk_of(bytes, formats[f]);
        io::HugeVector<RecordEntry> scratch;
        const std::vector<std::uint64_t> slices = sort_into_slices(chunk.records, scratch, PrefixLess{}, threads);
        EXPECT_TRUE(write(chunk, slices, formats[f], threads) == want);
      }
    }
}

TEST_F(MergedChunkWriter, RandomLinesInSortedSlicesToo) {
  std::mt19937 rng(20261130);
  std::string bytes;
  for (std::size_t i = 0; i < 200000; ++i) {
    std::string line(static_cast<std::size_t>(rng() % 40), 'a');
    for (auto& c : line) c = static_cast<char>('a' + rng() % 3);  // few letters: long shared heads
    bytes += line + "\n";
  }
  const LineFormat format = format_of({}, false);
  Chunk chunk = chunk_of(bytes, format);
  const std::string want = sorted_whole(chunk, format);
  io::HugeVector<RecordEntry> scratch;
  const std::vector<std::uint64_t> slices = sort_into_slices(chunk.records, scratch, PrefixLess{}, 3);
  EXPECT_TRUE(write(chunk, slices, format, 3) == want);
}

TEST(MergedChunkShares, NoShareBeginsInsideARunOfEqualPrefixes) {
  std::mt19937 rng(20261131);
  std::vector<std::vector<RecordEntry>> piles(5);
  for (std::size_t p = 0; p < piles.size(); ++p) {
    for (std::size_t i = 0; i < 3000; ++i) {
      RecordEntry e{};
      e.prefix.w[0] = rng() % 200;  // about 75 records a prefix
      e.offset = i * piles.size() + p;
      piles[p].push_back(e);
    }
    std::sort(piles[p].begin(), piles[p].end(), PrefixLess{});
  }
  std::vector<std::span<const RecordEntry>> slices(piles.begin(), piles.end());
  std::vector<std::uint64_t> before(slices.size(), 0);
  for (std::uint64_t rank = 0; rank <= 15000; rank += 250) {
    const std::vector<std::uint64_t> cut = share_start(slices, rank);
    std::uint64_t below = 0;
    for (std::size_t i = 0; i < slices.size(); ++i) {
      below += cut[i];
      EXPECT_GE(cut[i], before[i]) << "rank " << rank;  // shares follow one another
      for (std::size_t j = 0; j < slices.size(); ++j)
        if (cut[i] > 0 && cut[j] < slices[j].size())
          EXPECT_TRUE(slices[i][cut[i] - 1].prefix < slices[j][cut[j]].prefix) << "rank " << rank;
    }
    EXPECT_LE(below, rank);
    EXPECT_GT(below + 400, rank);  // a run is shorter than that
    before = cut;
  }
}

}  // namespace
}  // namespace corank::text
