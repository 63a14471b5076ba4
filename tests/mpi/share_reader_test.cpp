// A share read chunk by chunk: every record once, at its position, records
// longer than a chunk whole, files' headers dropped, a bad record reported
// with its file and line as the single-process reader reports it.
#include "corank/mpi/share_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/csv_format.hpp"
#include "test_files.hpp"

namespace corank::mpi {
namespace {

using testing::TestDir;
using testing::write_file;

// (record, position) of every record of [begin, end).
std::vector<std::pair<std::string, std::uint64_t>> read_all(ShareReader& reader) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  std::vector<ShareRecord> records;
  while (reader.next(records))
    for (const auto& r : records) out.emplace_back(std::string(r.data, r.size), r.position);
  return out;
}

// CSV rows with a header in every file, checked as the exchange reads them.
TextReading checked_csv(const text::TextFormat& format) {
  TextReading reading;
  reading.format = &format;
  reading.rows_by_format = true;
  reading.skip_headers = true;
  reading.check = true;
  return reading;
}

TEST(MpiShareReader, LinesAcrossFilesAndLongerThanAChunk) {
  TestDir dir;
  write_file(dir / "a", "one\ntwo\nthree-is-long\n");
  write_file(dir / "b", "x\nlast-unterminated");
  Inputs in({dir / "a", dir / "b"});
  for (std::uint64_t chunk : {1, 3, 7, 1000}) {
    ShareReader reader(in, 0, in.total(), 0, '\n', chunk);
    const auto got = read_all(reader);
    const std::vector<std::pair<std::string, std::uint64_t>> want = {
        {"one", 0}, {"two", 4}, {"three-is-long", 8}, {"x", 22}, {"last-unterminated", 24}};
    EXPECT_EQ(got, want) << "chunk " << chunk;
  }
  // A share that starts and ends at line starts inside the files.
  ShareReader middle(in, 4, 24, 0, '\n', 5);
  const auto got = read_all(middle);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got.front().first, "two");
  EXPECT_EQ(got.back().first, "x");
}

TEST(MpiShareReader, CsvRowsWithQuotedNewlinesAndHeadersDropped) {
  TestDir dir;
  write_file(dir / "a.csv", "id,name\n1,\"x\ny\"\n2,b\n");
  write_file(dir / "b.csv", "id,name\n3,\"c\"\"d\"");
  Inputs in({dir / "a.csv", dir / "b.csv"});
  text::CsvFormat format{text::CsvOptions{}};
  const TextReading reading = checked_csv(format);
  ShareReader reader(in, 0, in.total(), 0, '\n', 4, reading);
  const auto got = read_all(reader);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, "1,\"x\ny\"");
  EXPECT_EQ(got[1].first, "2,b");
  EXPECT_EQ(got[2].first, "3,\"c\"\"d\"");
  EXPECT_EQ(got[2].second, in.begin[1] + 8);
}

TEST(MpiShareReader, UnterminatedQuoteNamesFileAndLine) {
  TestDir dir;
  write_file(dir / "bad.csv", "id,name\n1,a\n2,\"oops\n3,c\n");
  Inputs in({dir / "bad.csv"});
  text::CsvFormat format{text::CsvOptions{}};
  const TextReading reading = checked_csv(format);
  ShareReader reader(in, 0, in.total(), 0, '\n', 1 << 20, reading);
  std::vector<ShareRecord> records;
  try {
    while (reader.next(records)) {
    }
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir / "bad.csv" + ":3: unterminated quoted field");
  }
}

TEST(MpiShareReader, FixedSizeBlocksOfWholeRecords) {
  TestDir dir;
  std::string data;
  for (int i = 0; i < 100; ++i) data += std::string(10, static_cast<char>('a' + i % 26));
  write_file(dir / "r", data);
  Inputs in({dir / "r"});
  ShareReader reader(in, 200, 900, 10, '\n', 64);  // 64 bytes: blocks of 6 records
  const char* block;
  std::uint64_t bytes, at, expect = 200;
  std::string seen;
  while (reader.next_block(block, bytes, at)) {
    EXPECT_EQ(at, expect);
    EXPECT_EQ(bytes % 10, 0u);
    EXPECT_LE(bytes, 60u);
    seen.append(block, bytes);
    expect += bytes;
  }
  EXPECT_EQ(seen, data.substr(200, 700));
}

}  // namespace
}  // namespace corank::mpi
