// Text records that corank reads in ways of its own, through the whole
// distributed sort over ranks as threads: --multiline records (refused where
// ranks or inputs would cut them apart), yearless timestamps dated by the
// inputs' modification times, blank JSON lines skipped, rows whose number of
// fields differs from the first's anywhere in the input, and the counts of
// key values that did not read, summed over the ranks.
#include <sys/stat.h>
#include <utime.h>

#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "corank/cli/unread_keys.hpp"
#include "corank/mpi/distributed_sort.hpp"
#include "fake_communicator.hpp"
#include "test_files.hpp"
#include "test_request.hpp"

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;
using testing::FakeWorld;
using testing::read_file;
using testing::TestDir;
using testing::write_file;

SortRequest text_request(const TestDir& dir, std::vector<std::string> inputs) {
  SortRequest r = testing::scratch_sort(dir, std::move(inputs), 1, std::uint64_t{4} << 20);
  r.output = dir / "out/sorted";
  fs::create_directories(dir / "out");
  return r;
}

struct Outcome {
  std::vector<int> status;
  std::string error;   // rank 0's
  std::string output;  // "" where the sort failed
};

Outcome run_ranks(int ranks, const DistributedRequest& request) {
  Outcome o;
  o.status.assign(static_cast<std::size_t>(ranks), -1);
  fs::remove(request.sort.output);
  FakeWorld world(ranks);
  world.run([&](Communicator& c) {
    std::string error;
    o.status[static_cast<std::size_t>(c.rank())] = distributed_sort(c, request, &error);
    if (c.rank() == 0) o.error = error;
  });
  if (o.status[0] == 0) o.output = read_file(request.sort.output);
  return o;
}

Outcome run_ranks(int ranks, const SortRequest& r) {
  DistributedRequest d;
  d.sort = r;
  return run_ranks(ranks, d);
}

// corank::sort's output of `r` (to DIR/single).
std::string single(const TestDir& dir, SortRequest r) {
  r.output = dir / "single";
  sort(r);
  return read_file(r.output);
}

std::vector<int> all(int ranks, int status) { return std::vector<int>(static_cast<std::size_t>(ranks), status); }

// ---- --multiline ----------------------------------------------------------

// Records of several lines: one rank and one input sort as corank does; more
// ranks, or more inputs holding records, are refused (exit 2, one line).
TEST(MpiTextRecords, MultilineRefusedWhereRecordsWouldBeCutApart) {
  TestDir dir;
  std::string log;
  for (int i = 0; i < 3000; ++i)
    log += "2026-01-01T00:" + std::to_string(10 + (i * 7919) % 50) + ":" + std::to_string(10 + i % 50) + "Z r" +
           std::to_string(i) + "\n  at frame " + std::to_string(i) + "\n  at caller\n";
  write_file(dir / "a.log", log);
  write_file(dir / "b.log", "  orphan\n2026-01-01T00:00:00Z first\n  at b1\n");
  write_file(dir / "empty.log", "");
  SortRequest r = text_request(dir, {dir / "a.log", dir / "empty.log"});
  r.multiline = true;
  const Outcome one = run_ranks(1, r);
  ASSERT_EQ(one.status, all(1, 0)) << one.error;
  EXPECT_TRUE(one.output == single(dir, r)) << "one rank, one input: the output differs from corank::sort's";
  for (int ranks = 2; ranks <= 3; ++ranks) {
    const Outcome o = run_ranks(ranks, r);
    EXPECT_EQ(o.status, all(ranks, 2));
    EXPECT_EQ(o.error, "--multiline is not distributed (one rank and one input only): sort multi-line records with corank");
    EXPECT_FALSE(fs::exists(r.output));
  }
  r.inputs = {dir / "a.log", dir / "b.log"};
  const Outcome two = run_ranks(1, r);
  EXPECT_EQ(two.status, all(1, 2));
  EXPECT_NE(two.error.find("--multiline is not distributed"), std::string::npos) << two.error;
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));
}


// ---- yearless timestamps ----------------------------------------------------

// Sets the modification time of `path` to noon UTC of YEAR-MM-01.
void date_file(const std::string& path, int year, int month) {
  struct tm t {};
  t.tm_year = year - 1900;
  t.tm_mon = month - 1;
  t.tm_mday = 1;
  t.tm_hour = 12;
  const time_t when = ::timegm(&t);
  const struct utimbuf times {when, when};
  ASSERT_EQ(::utime(path.c_str(), &times), 0);
}

// Syslog lines (no year) and ISO 8601 lines of 2021 and 2023, alternating;
// `tag` names the ISO lines.
std::string syslog_and_iso(int n, const std::string& tag) {
  std::string log;
  for (int i = 0; i < n; ++i) {
    const int d = 1 + i % 28, h = i % 24;
    log += (i % 2 ? "Mar " : "Sep ") + std::string(d < 10 ? " " : "") + std::to_string(d) + " " + (h < 10 ? "0" : "") +
           std::to_string(h) + ":00:00 h app: s" + std::to_string(i) + "\n";
    log += (i % 3 ? "2021" : "2023") + std::string("-06-01T00:00:") + (i % 60 < 10 ? "0" : "") + std::to_string(i % 60) +
           "Z " + tag + std::to_string(i) + "\n";
  }
  return log;
}

// Syslog's timestamps have no year: they take it from the input's
// modification time, as corank's do, not from the pieces the ranks received
// (whose time is now); inputs dated differently are refused.
TEST(MpiTextRecords, YearlessTimestampsDatedByTheInputs) {
  TestDir dir;
  const std::string log = syslog_and_iso(2000, "iso");
  write_file(dir / "y.log", log);
  date_file(dir / "y.log", 2022, 7);  // March 2022, September 2021: between the ISO years
  SortRequest r = text_request(dir, {dir / "y.log"});
  r.keys = {"T"};
  const std::string want = single(dir, r);
  for (int ranks = 1; ranks <= 3; ++ranks) {
    const Outcome o = run_ranks(ranks, r);
    ASSERT_EQ(o.status, all(ranks, 0)) << o.error;
    EXPECT_TRUE(o.output == want) << ranks << " ranks: the output differs from corank::sort's";
  }
  // Several inputs of one reference: the same.
  write_file(dir / "y2.log", log.substr(0, log.size() / 3));
  write_file(dir / "iso.log", "2022-01-01T00:00:00Z mid\n2024-01-01T00:00:00Z late\n");
  date_file(dir / "y2.log", 2022, 7);
  date_file(dir / "iso.log", 2025, 1);
  r.inputs = {dir / "y.log", dir / "y2.log"};
  const std::string want2 = single(dir, r);
  const Outcome o = run_ranks(2, r);
  ASSERT_EQ(o.status, all(2, 0)) << o.error;
  EXPECT_TRUE(o.output == want2) << "several inputs: the output differs from corank::sort's";
  // Yearless inputs of different references: refused, naming both (one
  // whose timestamps carry years joins either).
  r.inputs = {dir / "iso.log", dir / "y.log", dir / "y2.log"};
  date_file(dir / "y2.log", 2020, 2);
  for (int ranks = 1; ranks <= 2; ++ranks) {
    const Outcome refused = run_ranks(ranks, r);
    EXPECT_EQ(refused.status, all(ranks, 2));
    EXPECT_EQ(refused.error, "inputs whose yearless timestamps take their year from different modification times ('" +
                                 dir / "y.log" + "': 2022-07, '" + dir / "y2.log" +
                                 "': 2020-02): corank-mpi dates every input alike; give --time-year");
  }
}


// The formats --time looks for are the inputs', found in their first lines,
// not a piece's: under --time-year 2019 the syslog lines come first, and the
// piece of the rank that sorts them begins with them, without an ISO line.
TEST(MpiTextRecords, TimeFormatsAreTheInputsNotThePieces) {
  TestDir dir;
  write_file(dir / "a.log", syslog_and_iso(2000, "iso"));
  write_file(dir / "b.log", syslog_and_iso(700, "other"));
  SortRequest r = text_request(dir, {dir / "a.log", dir / "b.log"});
  r.keys = {"T"};
  r.time_year = 2019;
  const std::string want = single(dir, r);
  ASSERT_TRUE(want.starts_with("Mar  2 01:00:00 h app: s1\n")) << want.substr(0, 200);
  for (int ranks = 1; ranks <= 3; ++ranks) {
    const Outcome o = run_ranks(ranks, r);
    ASSERT_EQ(o.status, all(ranks, 0)) << o.error;
    EXPECT_TRUE(o.output == want) << ranks << " ranks: the output differs from corank::sort's";
  }
  // A file of ISO 8601 lines alone, one of which quotes a syslog line:
  // corank reads it by ISO 8601 only, and the ranks, reading every input by
  // one set of formats, cannot: refused.
  std::string iso;
  for (int i = 0; i < 200; ++i) iso += "2024-06-01T00:00:" + std::to_string(10 + i % 50) + "Z c" + std::to_string(i) + "\n";
  write_file(dir / "c.log", iso + "Dec 30 23:00:00 relay: 2024-06-10T10:00:00Z quoted\n");
  r.inputs = {dir / "a.log", dir / "c.log"};
  for (int ranks = 1; ranks <= 2; ++ranks) {
    const Outcome o = run_ranks(ranks, r);
    EXPECT_EQ(o.status, all(ranks, 2));
    EXPECT_EQ(o.error, "inputs in different time formats ('" + dir / "a.log" + "': iso8601, syslog, '" + dir / "c.log" +
                           "': iso8601): corank-mpi reads every input by one set of formats; give --time-format, or "
                           "sort with corank");
  }
}


// ---- JSON lines ---------------------------------------------------------------

// Blank lines (and lines of blanks only) between JSON texts are skipped, as
// jq and corank skip them: the same bytes as corank's, checked (--verify).
TEST(MpiTextRecords, BlankJsonLinesSkipped) {
  TestDir dir;
  std::string json;
  for (int i = 0; i < 20000; ++i) {
    json += "{\"a\":" + std::to_string((i * 7919) % 5000) + ",\"i\":" + std::to_string(i) + "}\n";
    if (i % 97 == 0) json += "\n";
    if (i % 89 == 0) json += " \t\r\n";
  }
  write_file(dir / "b.jsonl", "\n" + json + "\n");
  write_file(dir / "c.jsonl", "{\"a\":2}\n\n{\"a\":1}\n  ");
  SortRequest r = text_request(dir, {dir / "b.jsonl", dir / "c.jsonl"});
  r.format = "jsonl";
  r.keys = {"a:n"};
  const std::string want = single(dir, r);
  for (int ranks = 1; ranks <= 3; ++ranks) {
    DistributedRequest d;
    d.sort = r;
    d.sort.verify = true;
    const Outcome o = run_ranks(ranks, d);
    ASSERT_EQ(o.status, all(ranks, 0)) << o.error;
    EXPECT_TRUE(o.output == want) << ranks << " ranks: the output differs from corank::sort's";
  }
}


// ---- line endings ----------------------------------------------------------------

// A CRLF file's last record without a line ending gets CR LF, as corank
// supplies it (the ending of the file's first record), in every format.
TEST(MpiTextRecords, CrlfFilesLastRecordWithoutAnEndingGetsCrLf) {
  TestDir dir;
  std::string lines, csv = "a,b\r\n", json;
  for (int i = 0; i < 3000; ++i) {
    const std::string n = std::to_string((i * 7919) % 3001);
    lines += "line " + n + "\r\n";
    csv += n + ",\"x\r\ny\"\r\n";
    json += "{\"k\": " + n + "}\r\n";
  }
  for (std::string* s : {&lines, &csv, &json}) s->resize(s->size() - 2);  // the last record's CR LF
  write_file(dir / "a.txt", lines);
  write_file(dir / "b.txt", "z\nlast of b");  // an LF file: LF
  write_file(dir / "a.csv", csv);
  write_file(dir / "a.jsonl", json);
  std::vector<SortRequest> cases;
  cases.push_back(text_request(dir, {dir / "a.txt", dir / "b.txt"}));
  cases.push_back(text_request(dir, {dir / "a.csv"}));
  cases.back().format = "csv", cases.back().header = true, cases.back().keys = {"a:n"};
  cases.push_back(text_request(dir, {dir / "a.jsonl"}));
  cases.back().format = "jsonl", cases.back().keys = {"k:n"};
  for (const SortRequest& r : cases) {
    const std::string want = single(dir, r);
    for (int ranks = 1; ranks <= 3; ++ranks) {
      const Outcome o = run_ranks(ranks, r);
      ASSERT_EQ(o.status, all(ranks, 0)) << o.error;
      EXPECT_TRUE(o.output == want) << r.format << ", " << ranks << " ranks: the output differs from corank::sort's";
    }
  }
}


// ---- key values that did not read ----------------------------------------------

// corank's closing line about NULL, missing and unread key values: the same
// counts summed over the ranks' sorts as one sort finds.
TEST(MpiTextRecords, UnreadKeyValuesSummedOverTheRanks) {
  TestDir dir;
  std::string csv = "id,ts,score\n";
  for (int i = 0; i < 20000; ++i)
    csv += std::to_string(i) + "," + (i % 13 == 0 ? "soon" : "2026-01-01T00:00:" + std::to_string(10 + i % 50) + "Z") +
           "," + (i % 7 == 0 ? "" : std::to_string((i * 7919) % 1000)) + "\n";
  write_file(dir / "t.csv", csv);
  SortRequest r = text_request(dir, {dir / "t.csv"});
  r.format = "csv";
  r.header = true;
  r.keys = {"score:n", "ts:time"};
  SortRequest one = r;
  one.output = dir / "single";
  const std::string want = cli::unread_keys_line(sort(one), r);
  ASSERT_NE(want.find("20,000 rows"), std::string::npos) << want;
  for (int ranks = 1; ranks <= 3; ++ranks) {
    DistributedRequest d;
    d.sort = r;
    SortStats totals;
    d.totals = &totals;
    const Outcome o = run_ranks(ranks, d);
    ASSERT_EQ(o.status, all(ranks, 0)) << o.error;
    EXPECT_EQ(cli::unread_keys_line(totals, r), want) << ranks << " ranks";
  }
}


// ---- rows of fields ------------------------------------------------------------

// Every row has as many fields as the header (or, without one, the first row
// of the first input), wherever in the input it lies: a row that differs is
// corank's error, naming the input file and its line, on every rank count.
TEST(MpiTextRecords, RowsOfOtherFieldCountsRefusedAnywhere) {
  TestDir dir;
  std::string csv = "a,b,c\n";
  for (int i = 1000; i < 10000; ++i) csv += "z,x" + std::to_string(i) + "\n";  // every row 2 fields
  write_file(dir / "inc.csv", csv);
  std::string good = "a,b,c\n";
  for (int i = 0; i < 9000; ++i) good += "z,x" + std::to_string(i) + ",y\n";
  write_file(dir / "late.csv", good + "z,late\n" + good.substr(6));
  for (const bool header : {false, true})
    for (const std::string& file : {dir / "inc.csv", dir / "late.csv"}) {
      SortRequest r = text_request(dir, {file});
      r.format = "csv";
      r.header = header;
      r.unique = true;
      r.keys = {"1"};
      SortRequest one = r;
      one.output = dir / "single";
      std::string want;
      try {
        sort(one);
      } catch (const std::exception& e) {
        want = e.what();
      }
      ASSERT_FALSE(want.empty()) << file << " is sorted by corank";
      for (int ranks = 1; ranks <= 3; ++ranks) {
        const Outcome o = run_ranks(ranks, r);
        EXPECT_EQ(o.status, all(ranks, 2)) << file << ", " << ranks << " ranks";
        // The lowest failing rank speaks: rank 0, or the one whose share holds the row.
        const std::size_t colon = o.error.rfind(": ", o.error.find(file));
        EXPECT_EQ(colon == std::string::npos ? o.error : o.error.substr(o.error.find(file)), want) << ranks << " ranks";
        EXPECT_FALSE(fs::exists(r.output));
      }
    }
}

}  // namespace
}  // namespace corank::mpi
