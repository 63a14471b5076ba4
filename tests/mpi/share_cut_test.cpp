// Shares of the inputs: contiguous, covering everything, each cut at a record
// start as the single-process reader finds them (line starts; CSV row starts,
// however quoted newlines fall; pgtext row starts, however backslashes escape
// newlines), also when the CSV cut runs over the ranks as threads.
#include "corank/mpi/share_cut.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "corank/text/csv_format.hpp"
#include "corank/text/pgtext_format.hpp"
#include "fake_communicator.hpp"
#include "test_files.hpp"

namespace corank::mpi {
namespace {

using testing::FakeWorld;
using testing::TestDir;
using testing::write_file;

// Record starts as offsets in the concatenation: each file read alone from
// its start, rows by CsvFormat (or lines), the end included.
std::set<std::uint64_t> record_starts(const std::vector<std::string>& files, bool csv) {
  text::CsvOptions o;
  text::CsvFormat f(o);
  std::set<std::uint64_t> starts;
  std::uint64_t base = 0;
  for (const auto& s : files) {
    starts.insert(base);
    if (csv) {
      for (std::size_t at = 0, n; at < s.size() && (n = f.record_length(s.data() + at, s.data() + s.size())) != 0;)
        starts.insert(base + (at += n));
    } else {
      for (std::size_t at = 0; (at = s.find('\n', at)) != std::string::npos;) starts.insert(base + ++at);
    }
    base += s.size();
  }
  starts.insert(base);
  return starts;
}

std::string random_csv(std::mt19937& rng, int rows) {
  const char* fields[] = {"a", "\"q,uoted\"", "\"multi\nline\"", "\"\"\"\"", "", "\"x\n\n\"", "long-field-text"};
  std::string s;
  for (int i = 0; i < rows; ++i) {
    s += std::to_string(i) + "," + fields[rng() % 7] + "," + fields[rng() % 7];
    if (i + 1 < rows || rng() % 2) s += '\n';
  }
  return s;
}

// Row starts of PostgreSQL COPY text, as PgTextFormat finds them.
std::set<std::uint64_t> pgtext_row_starts(const std::vector<std::string>& files) {
  text::PgTextFormat f{text::PgTextOptions{}};
  std::set<std::uint64_t> starts;
  std::uint64_t base = 0;
  for (const auto& s : files) {
    starts.insert(base);
    for (std::size_t at = 0, n; at < s.size() && (n = f.record_length(s.data() + at, s.data() + s.size())) != 0;)
      starts.insert(base + (at += n));
    base += s.size();
  }
  starts.insert(base);
  return starts;
}

// Rows whose newlines are often escaped, by runs of backslashes of every
// parity, some longer than one read back (256 bytes).
std::string random_pgtext(std::mt19937& rng, int rows) {
  std::string s;
  for (int i = 0; i < rows; ++i) {
    s += std::to_string(i) + "\t";
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
      const unsigned pick = static_cast<unsigned>(rng() % 6);
      const std::size_t run = pick == 5 ? 300 + rng() % 2 : rng() % 4;
      s += std::string(pick == 0 ? 0 : run, '\\') + (pick < 3 ? "\n" : "x");
    }
    if (i + 1 < rows || rng() % 2) s += '\n';
  }
  return s;
}

void expect_cover(const std::vector<Share>& shares, std::uint64_t total, const std::set<std::uint64_t>& starts) {
  std::uint64_t at = 0;
  for (const Share& s : shares) {
    EXPECT_EQ(s.begin, at);
    EXPECT_LE(s.begin, s.end);
    EXPECT_TRUE(starts.count(s.begin)) << "share starts at " << s.begin << ", no record start";
    at = s.end;
  }
  EXPECT_EQ(at, total);
}

TEST(MpiShareCut, LinesCutAtLineStarts) {
  TestDir dir;
  std::mt19937 rng(3);
  std::vector<std::string> files;
  for (int f = 0; f < 3; ++f) {
    std::string s;
    for (int i = 0; i < 200; ++i) s += std::string(rng() % 40, 'x') + (i == 199 && f == 1 ? "" : "\n");
    files.push_back(s);
    write_file(dir / std::to_string(f), s);
  }
  Inputs in({dir / "0", dir / "1", dir / "2"});
  const auto starts = record_starts(files, false);
  for (unsigned n : {1u, 2u, 3u, 5u, 16u}) {
    std::vector<Share> shares;
    for (unsigned r = 0; r < n; ++r) shares.push_back(line_share(in, r, n, '\n'));
    expect_cover(shares, in.total(), starts);
  }
}

TEST(MpiShareCut, PgTextCutAtRowStarts) {
  TestDir dir;
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> files = {random_pgtext(rng, 1 + static_cast<int>(rng() % 40)), "",
                                      random_pgtext(rng, 1 + static_cast<int>(rng() % 40))};
    for (std::size_t f = 0; f < files.size(); ++f) write_file(dir / std::to_string(f), files[f]);
    Inputs in({dir / "0", dir / "1", dir / "2"});
    const auto starts = pgtext_row_starts(files);
    for (unsigned n : {1u, 2u, 3u, 7u, 40u}) {
      std::vector<Share> shares;
      for (unsigned r = 0; r < n; ++r) shares.push_back(line_share(in, r, n, '\n', /*escapes=*/true));
      expect_cover(shares, in.total(), starts);
    }
    // The row that holds each byte, as sampling finds it, and that row read whole.
    for (std::uint64_t x = 0; x < in.total(); x += 1 + rng() % 37) {
      const std::uint64_t at = line_start_at_or_before(in, x, '\n', true);
      EXPECT_TRUE(starts.count(at)) << x;
      const std::uint64_t next = *starts.upper_bound(at);
      const std::string row = record_at(in, at, 0, '\n', true);
      EXPECT_LE(at, x);
      EXPECT_GT(next, x);
      EXPECT_TRUE(row.size() + 1 == next - at || at + row.size() == next) << at;  // its newline, or a file's unterminated end
    }
  }
}

TEST(MpiShareCut, CsvCutAtRowStartsByComposedMaps) {
  TestDir dir;
  std::mt19937 rng(8);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> files = {random_csv(rng, 1 + static_cast<int>(rng() % 60)), "",
                                      random_csv(rng, 1 + static_cast<int>(rng() % 60))};
    for (std::size_t f = 0; f < files.size(); ++f) write_file(dir / std::to_string(f), files[f]);
    Inputs in({dir / "0", dir / "1", dir / "2"});
    const auto starts = record_starts(files, true);
    for (unsigned n : {1u, 2u, 3u, 7u}) {
      std::vector<CsvScanner::Map> maps;
      for (unsigned r = 0; r < n; ++r) maps.push_back(csv_range_map(in, r, n, ','));
      std::vector<Share> shares;
      for (unsigned r = 0; r < n; ++r) shares.push_back(csv_share(in, maps, r, ','));
      expect_cover(shares, in.total(), starts);
    }
  }
}

TEST(MpiShareCut, CsvCutOverRanksAsThreads) {
  TestDir dir;
  std::mt19937 rng(4);
  const std::string csv = random_csv(rng, 500);
  write_file(dir / "in.csv", csv);
  Inputs in({dir / "in.csv"});
  std::vector<Share> shares(4);
  FakeWorld world(4);
  world.run([&](Communicator& c) { shares[static_cast<std::size_t>(c.rank())] = cut_csv_share(c, in, ','); });
  expect_cover(shares, in.total(), record_starts({csv}, true));
}

}  // namespace
}  // namespace corank::mpi
