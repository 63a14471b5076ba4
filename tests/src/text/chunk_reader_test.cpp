// ChunkReader and RecordReader: records never split across chunks or files,
// the missing final terminator is supplied, records larger than a chunk grow
// it, and the chunk budget counts the per-record overhead.
#include "corank/text/chunk_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "corank/text/multiline_format.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {
namespace {

namespace fs = std::filesystem;

LineFormat lines() { return LineFormat(resolve_ordering({}, KeyField{}, kNoTab, false, false, '\n')); }

class ChunkReaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-chunk-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  // Every record of every chunk, in order, and the number of chunks.
  std::vector<std::string> read_all(std::vector<std::string> paths, TextFormat& format, std::uint64_t budget,
                                    int* chunks = nullptr, unsigned threads = 1,
                                    std::vector<std::size_t>* chunk_sizes = nullptr) {
    ChunkReader reader(std::move(paths), format, io::IoOptions{}, threads, map_at_most_);
    Chunk chunk;
    std::vector<std::string> out;
    int n = 0;
    while (reader.fill(chunk, budget)) {
      ++n;
      if (chunk_sizes) chunk_sizes->push_back(chunk.records.size());
      for (const auto& e : chunk.records) {
        out.emplace_back(chunk.record(e));
        EXPECT_EQ(chunk.data()[e.offset + chunk.length(e)], format.terminator());
        EXPECT_TRUE(e.prefix == format.prefix(chunk.record(e)));
      }
    }
    EXPECT_TRUE(reader.done());
    if (chunks) *chunks = n;
    heads_ = reader.heads();
    return out;
  }
  fs::path dir_;
  std::string heads_;  // the last read_all's ChunkReader::heads
  std::uint64_t map_at_most_ = UINT64_MAX;  // 0: every input is read
};

TEST_F(ChunkReaderTest, RecordsStayWholeAcrossChunksAndFiles) {
  auto fmt = lines();
  std::string text;
  std::vector<std::string> want;
  for (int i = 0; i < 500; ++i) {
    want.push_back(std::string(static_cast<std::size_t>(i % 37), static_cast<char>('a' + i % 26)));
    text += want.back() + "\n";
  }
  const std::string a = file("a", text), b = file("b", "x\ny"), c = file("c", ""), d = file("d", "\n");
  want.insert(want.end(), {"x", "y", ""});
  for (std::uint64_t budget : {std::uint64_t{200}, std::uint64_t{4096}, std::uint64_t{1} << 20}) {
    int chunks = 0;
    EXPECT_EQ(read_all({a, b, c, d}, fmt, budget, &chunks), want) << budget;
    if (budget == 200) EXPECT_GT(chunks, 50);
    if (budget == (std::uint64_t{1} << 20)) EXPECT_EQ(chunks, 1);
  }
}

// With more than two threads, plain lines are split by all of them in large
// pieces: the same records, the same chunk boundaries, the same prefixes.
TEST_F(ChunkReaderTest, ParallelSplitMatchesTheSequentialOne) {
  auto fmt = lines();
  std::string a_text, b_text;
  for (int i = 0; i < 120000; ++i) {
    const std::size_t len = i % 1000 == 7 ? 150000 : static_cast<std::size_t>((i * 7919) % 61);
    (i < 80000 ? a_text : b_text) += std::string(len, static_cast<char>('a' + i % 26)) + "\n";
  }
  b_text.pop_back();  // no final newline
  const std::string a = file("a", a_text), b = file("b", b_text), c = file("c", "\n\nz");
  for (std::uint64_t budget : {std::uint64_t{3} << 20, std::uint64_t{5} << 20, std::uint64_t{256} << 20}) {
    std::vector<std::size_t> want_sizes;
    const auto want = read_all({a, b, c}, fmt, budget, nullptr, 1, &want_sizes);
    for (unsigned threads : {3u, 4u, 7u}) {
      std::vector<std::size_t> sizes;
      EXPECT_EQ(read_all({a, b, c}, fmt, budget, nullptr, threads, &sizes), want) << budget << " " << threads;
      EXPECT_EQ(sizes, want_sizes) << budget << " " << threads;
    }
    if (budget == (std::uint64_t{3} << 20)) EXPECT_GT(want_sizes.size(), 3u);
  }
}

// Inputs already in memory, each ending with its terminator, are split where
// they lie: each chunk is a window of their mapping, across files, with the
// records and the prefixes that reading them gives (and for one file, its
// chunk boundaries).
TEST_F(ChunkReaderTest, InputsInMemoryAreSplitWhereTheyLie) {
  auto fmt = lines();
  std::string text;
  for (int i = 0; i < 100000; ++i)
    text += std::string(i % 25000 == 11 ? 700000 : i % 5000 == 3 ? 70000 : static_cast<std::size_t>((i * 31) % 53),
                        static_cast<char>('a' + i % 26)) + "\n";
  // b: CR LF endings, and a size that is no multiple of a page
  const std::string a = file("a", text), empty = file("e", ""), b = file("b", "b2\r\nb1\r\n\r\n");
  for (const auto& inputs : std::vector<std::vector<std::string>>{{a}, {a, empty, b, a}, {empty, b, b, empty}})
    for (std::uint64_t budget : {std::uint64_t{1} << 20, std::uint64_t{3} << 20, std::uint64_t{256} << 20}) {
      for (unsigned threads : {1u, 4u}) {
        std::vector<std::size_t> want_sizes, sizes;
        map_at_most_ = 0;
        const auto want = read_all(inputs, fmt, budget, nullptr, threads, &want_sizes);
        map_at_most_ = UINT64_MAX;
        EXPECT_EQ(read_all(inputs, fmt, budget, nullptr, threads, &sizes), want)
            << inputs.size() << " " << budget << " " << threads;
        // Across files, the zeros that fill each file's last page count toward
        // the budget: a chunk there may end a page's worth of records earlier.
        if (inputs.size() == 1) EXPECT_EQ(sizes, want_sizes) << budget << " " << threads;
        EXPECT_LE(sizes.size(), want_sizes.size() + 1) << inputs.size() << " " << budget << " " << threads;
      }
    }
  auto first_chunk = [&](std::vector<std::string> paths) {
    ChunkReader reader(std::move(paths), fmt, io::IoOptions{}, 1);
    Chunk chunk;
    EXPECT_TRUE(reader.fill(chunk, 256 << 20));
    return std::pair{chunk.mapped != nullptr, chunk.records.size()};
  };
  EXPECT_EQ(first_chunk({a}), std::pair(true, std::size_t{100000}));
  EXPECT_EQ(first_chunk({b, empty, a, b}), std::pair(true, std::size_t{100006}));  // one window of all four
  const std::string n = file("n", "x\ny");  // its last record's terminator is supplied: all are read
  EXPECT_EQ(first_chunk({n}), std::pair(false, std::size_t{2}));
  EXPECT_EQ(first_chunk({a, n}), std::pair(false, std::size_t{100002}));
}

// Multi-line records (a line without a timestamp belongs to the record
// before it) split on several threads, which test each line for a timestamp
// at once: the records one thread splits, read or mapped; a file's text
// before its first timestamp is its head, no record.
TEST_F(ChunkReaderTest, MultiLineRecordsSplitOnAllThreadsAsOnOne) {
  MultilineFormat fmt(resolve_ordering({}, KeyField{}, kNoTab, false, false, '\n'),
                      std::make_shared<const TimeRules>());
  std::string a_text = "banner without a time\n  and its second line\n", b_text;
  for (int i = 0; i < 60000; ++i) {
    std::string& t = i % 3 ? a_text : b_text;
    t += "2026-11-25T10:" + std::to_string(10 + i % 50) + ":00Z event " + std::to_string(i) + "\n";
    for (int j = 0; j < (i * 7) % 4; ++j) t += "\tat com.example.Frame" + std::to_string(j) + "(Frame.java:" + std::to_string(i) + ")\n";
  }
  const std::string a = file("a", a_text), b = file("b", b_text);
  for (std::uint64_t budget : {std::uint64_t{1} << 20, std::uint64_t{3} << 20, std::uint64_t{256} << 20}) {
    map_at_most_ = 0;
    std::vector<std::size_t> want_sizes;
    const auto want = read_all({a, b}, fmt, budget, nullptr, 1, &want_sizes);
    // The banner is a's head, apart from the records (ChunkReader::heads).
    EXPECT_EQ(heads_, "banner without a time\n  and its second line\n");
    EXPECT_TRUE(want.front().starts_with("2026-11-25T10:11:00Z event 1\n\tat com.example.Frame0"));
    for (const std::uint64_t map_at_most : {std::uint64_t{0}, UINT64_MAX})
      for (unsigned threads : {2u, 4u}) {
        map_at_most_ = map_at_most;
        std::vector<std::size_t> sizes;
        EXPECT_EQ(read_all({a, b}, fmt, budget, nullptr, threads, &sizes), want)
            << budget << " " << threads << " " << map_at_most;
        EXPECT_EQ(heads_, "banner without a time\n  and its second line\n");
        EXPECT_LE(sizes.size(), want_sizes.size() + 1) << budget << " " << threads << " " << map_at_most;
      }
  }
}

TEST_F(ChunkReaderTest, ARecordLargerThanTheBudgetGrowsTheChunk) {
  auto fmt = lines();
  const std::string big(100000, 'q');
  const std::string a = file("a", "s\n" + big + "\nt");
  EXPECT_EQ(read_all({a}, fmt, 1000), (std::vector<std::string>{"s", big, "t"}));
}

TEST_F(ChunkReaderTest, RecordReaderStreamsTheSameRecords) {
  auto fmt = lines();
  std::string text = "one\n\ntwo\n" + std::string(5000, 'z') + "\nlast";
  std::size_t pos = 0;
  RecordReader r(
      [&](char* dst, std::size_t n) {
        const std::size_t k = std::min(n, text.size() - pos);
        std::memcpy(dst, text.data() + pos, k);
        pos += k;
        return k;
      },
      "mem", fmt, 64);
  std::vector<std::string> got;
  for (std::string_view rec; r.next(rec);) got.emplace_back(rec);
  EXPECT_EQ(got, (std::vector<std::string>{"one", "", "two", std::string(5000, 'z'), "last"}));
}

// A file's last record without its terminator gets CR before it where the
// file's first record ends in CR LF (line_endings.hpp): the first record
// decides, found by the sequential split or by several threads.
TEST_F(ChunkReaderTest, ALastRecordGetsTheLineEndingOfItsFilesFirst) {
  auto fmt = lines();
  std::string big = "first\r\n";  // then LF rows, more than a parallel split's least
  for (int i = 0; i < 200000; ++i) big += "row" + std::to_string(i) + "\n";
  big += "end";
  const std::vector<std::string> files = {file("crlf", "a\r\nb"), file("lf", "c\nd"), file("big", big),
                                          file("lf-first", "e\nf\r\ng"), file("cr-tail", "h\r\ni\r"),
                                          file("alone", "j")};
  for (unsigned threads : {1u, 3u}) {
    const auto got = read_all(files, fmt, std::uint64_t{64} << 20, nullptr, threads);
    ASSERT_EQ(got.size(), 200012u);
    EXPECT_EQ(got[1], "b\r") << threads;
    EXPECT_EQ(got[3], "d") << threads;
    EXPECT_EQ(got[200005], "end\r") << threads;
    EXPECT_EQ(std::vector<std::string>(got.end() - 6, got.end()),
              (std::vector<std::string>{"e", "f\r", "g", "h\r", "i\r", "j"})) << threads;
  }
  auto streamed = [&](const std::string& text) {
    std::size_t pos = 0;
    RecordReader r(
        [&](char* dst, std::size_t n) {
          const std::size_t k = std::min(n, text.size() - pos);
          std::memcpy(dst, text.data() + pos, k);
          pos += k;
          return k;
        },
        "mem", fmt, 64);
    std::vector<std::string> out;
    for (std::string_view rec; r.next(rec);) out.emplace_back(rec);
    return out;
  };
  EXPECT_EQ(streamed("a\r\nb\nc"), (std::vector<std::string>{"a\r", "b", "c\r"}));
  EXPECT_EQ(streamed("a\nb\r\nc"), (std::vector<std::string>{"a", "b\r", "c"}));
}

// Input formats of their own (a sort of inputs with time rules of their
// own): each record gets its prefix by its input's format, whichever chunk
// it shares with the other input's records, split by one thread or several.
TEST_F(ChunkReaderTest, EachInputsRecordsGetPrefixesByItsOwnFormat) {
  auto plain = lines();
  KeyField reverse;
  reverse.reverse = true;
  LineFormat reversed(resolve_ordering({}, reverse, kNoTab, false, false, '\n'));
  std::string a_text, b_text;
  for (int i = 0; i < 30000; ++i) (i % 3 ? a_text : b_text) += "record " + std::to_string(i * 7919 % 10007) + "\n";
  const std::string a = file("a", a_text), b = file("b", b_text);
  for (const std::uint64_t map_at_most : {std::uint64_t{0}, UINT64_MAX})  // read, and mapped
  for (unsigned threads : {1u, 3u})
    for (std::uint64_t budget : {std::uint64_t{64} << 10, std::uint64_t{16} << 20}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, budget " + std::to_string(budget) + ", map at most " +
                   std::to_string(map_at_most));
      ChunkReader reader({a, b, a}, plain, io::IoOptions{}, threads, map_at_most);
      reader.set_input_formats({&plain, &reversed, &plain});
      Chunk chunk;
      std::size_t records = 0, mixed = 0;
      while (reader.fill(chunk, budget)) {
        bool saw[2] = {false, false};
        for (const auto& e : chunk.records) {
          // Input b's records are the ones the files' order puts at [n_a, n_a + n_b).
          const std::size_t i = records++;
          const bool in_b = i >= 20000 && i < 30000;
          saw[in_b] = true;
          EXPECT_TRUE(e.prefix == (in_b ? reversed : plain).prefix(chunk.record(e))) << i;
        }
        mixed += saw[0] && saw[1];
      }
      EXPECT_EQ(records, 50000u);
      if (budget > (1 << 20)) EXPECT_EQ(mixed, 1u);  // one chunk holds both inputs
    }
}

// A sort whose inputs have formats of their own is one chunk, or nothing:
// an input larger than a chunk throws NotOneChunk before any output exists.
TEST_F(ChunkReaderTest, ASortWithInputFormatsIsOneChunkOrNothing) {
  auto fmt = lines();
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919 % 20011) + "\n";
  const std::string a = file("a", text), b = file("b", text);
  TextSortOptions o;
  o.inputs = {a, b};
  o.output = (dir_ / "out").string();
  o.temp_dirs = {dir_.string()};
  o.input_formats = {&fmt, &fmt};
  o.memory_budget = std::uint64_t{64} << 20;
  sort_text(o, fmt);
  std::ifstream f(o.output);
  std::string line, last;
  std::size_t n = 0;
  for (; std::getline(f, line); ++n) EXPECT_LE(last, line), last = line;
  EXPECT_EQ(n, 40000u);
  fs::remove(o.output);
  o.memory_budget = std::uint64_t{1} << 20;
  EXPECT_THROW(sort_text(o, fmt), NotOneChunk);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) (void)entry, ++files;
  EXPECT_EQ(files, 2u);  // the inputs alone: no output, no temporary file
}

}  // namespace
}  // namespace corank::text
