// --multiline's heads: each file's text before its first timestamp comes
// first in the output, in the order of the inputs, whatever the order of the
// records and however the sort runs (one chunk; spilled runs merged in
// passes; -m of sorted inputs; inputs of different formats sorted apart and
// merged). A head's lines look like any record's continuation, so that a
// sorted run holding one would join it to the record before it when read
// back: no run holds one. The reference is the generator's: the instant each
// record was written at (all distinct), its trace after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

class MultilineHeads : public Lines {
protected:
  // Three files: a and b with heads, c without; c's records in syslog's
  // format (no year: --time-year 2026), so that its rules differ from the
  // others' where `syslog_c`.
  void write_inputs(bool syslog_c) {
    std::mt19937 rng(29);
    std::vector<int> seconds(1500);
    for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = static_cast<int>(i) * 7;
    std::shuffle(seconds.begin(), seconds.end(), rng);
    std::string files[3] = {heads_[0], heads_[1], ""};
    records_.clear();
    for (std::size_t i = 0; i < seconds.size(); ++i) {
      const int s = seconds[i];  // after 2026-03-01 00:00:00 UTC, within the day
      char stamp[32];
      if (syslog_c && i % 3 == 2)
        std::snprintf(stamp, sizeof stamp, "Mar  1 %02d:%02d:%02d host", s / 3600, s / 60 % 60, s % 60);
      else
        std::snprintf(stamp, sizeof stamp, "2026-03-01 %02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
      std::string rec = std::string(stamp) + " ERROR request " + std::to_string(i) + "\n";
      for (int k = static_cast<int>(rng() % 4); k > 0; --k)
        rec += "\tat com.example.Svc.call(Svc.java:" + std::to_string(rng() % 900) + ")\n";
      records_.emplace_back(s, rec);
      files[i % 3] += rec;
    }
    for (int f = 0; f < 3; ++f) write_file(path(std::string(1, static_cast<char>('a' + f))), files[f]);
  }

  // The heads in input order, then the records by instant (descending under -r).
  std::string want(bool reverse) {
    std::vector<std::pair<int, std::string>> sorted = records_;
    std::sort(sorted.begin(), sorted.end());
    if (reverse) std::reverse(sorted.begin(), sorted.end());
    std::string out = heads_[0] + heads_[1];
    for (const auto& r : sorted) out += r.second;
    return out;
  }

  std::string inputs() const { return " " + path("a") + " " + path("b") + " " + path("c"); }

  // A rotated file's first lines (the end of a record begun in the file
  // before), which sort after every record by their bytes; a banner that
  // names a number and a date, which a time key would read.
  const std::string heads_[2] = {"\tat com.example.Rotated.tail(Rotated.java:7)\nzzz end of the trace\n",
                                 "JVM args -Xmx 1795605301, license until 2026-12-20\n"};
  std::vector<std::pair<int, std::string>> records_;
};

TEST_F(MultilineHeads, ComeFirstInInputOrderThroughSpillsAndMerges) {
  for (const bool syslog_c : {false, true}) {
    write_inputs(syslog_c);
    for (const std::string order : {"", "-r"})
      for (const std::string budget : {"", "-S 16K --parallel 1 --batch-size 2", "-S 24K --parallel 3"}) {
        const std::string args = "--multiline --time-year 2026 " + order + " " + budget;
        SCOPED_TRACE(args + (syslog_c ? " (c in syslog's format)" : ""));
        const Result r = run(args + " -T " + path("tmp") + " --stats=" + path("stats") + " -o " + path("out") +
                             inputs());
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_TRUE(read_file(path("out")) == want(!order.empty()));
        const std::string stats = read_file(path("stats"));
        EXPECT_NE(stats.find("\"records_in\": " + std::to_string(records_.size() + 2) + ","), std::string::npos);
        EXPECT_NE(stats.find("\"records_out\": " + std::to_string(records_.size() + 2) + ","), std::string::npos);
        EXPECT_NE(stats.find("\"head_records\": 2,"), std::string::npos) << stats;
        EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
        if (!budget.empty()) EXPECT_EQ(stats.find("\"spilled_runs\": 0,"), std::string::npos) << stats;
      }
  }
}

// -m: each file sorted alone keeps its head first; merged, the heads come
// first in the inputs' order, in batches of two inputs too; -c skips a
// file's head, which is in order where it is.
TEST_F(MultilineHeads, MergeAndCheckReadHeadsApart) {
  write_inputs(false);
  std::string sorted;
  for (const char* f : {"a", "b", "c"}) {
    ASSERT_EQ(run("--multiline -o " + path(std::string("s") + f) + " " + path(f)).status, 0);
    sorted += " " + path(std::string("s") + f);
    EXPECT_EQ(run("--multiline -c " + path(std::string("s") + f)).status, 0) << f;
  }
  for (const std::string order : {"", "-r"}) {
    if (!order.empty())
      for (const char* f : {"a", "b", "c"})
        ASSERT_EQ(run("--multiline -r -o " + path(std::string("s") + f) + " " + path(f)).status, 0);
    for (const std::string batch : {"", "--batch-size 2"}) {
      SCOPED_TRACE(order + " " + batch);
      const Result r = run("--multiline -m " + order + " " + batch + " -T " + path("tmp") + " -o " + path("out") + sorted);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("out")) == want(!order.empty()));
      EXPECT_EQ(run("--multiline -c " + order + " " + path("out")).status, 0);
    }
  }
  // A head alone is a whole input: it comes out as it is.
  write_file(path("only"), heads_[1]);
  ASSERT_EQ(run("--multiline -r -S 16K -o " + path("out") + " " + path("only")).status, 0);
  EXPECT_EQ(read_file(path("out")), heads_[1]);
}

// A file's byte order mark before its first record, whose time is a bare
// epoch number (or a date alone), which starts a record only at the line's
// start: the mark is no text before it, so the record is no head and sorts by
// its time. 1709287205 is 2024-03-01 10:00:05 UTC, the latest.
TEST_F(MultilineHeads, AByteOrderMarkIsNoTextBeforeTheFirstTimestamp) {
  const std::string bom = "\xEF\xBB\xBF";
  write_file(path("a"), bom + "1709287205 a-first\n  more of a-first\n1709287201 a-second\n");
  write_file(path("b"), "1709287203 b-x\n1709287200 b-y\n");
  write_file(path("c"), bom + "2024-03-05 c-first\n2024-03-01 c-second\n");
  const Result r = run("--multiline --stats=" + path("stats") + " -o " + path("out") + " " + path("a") + " " + path("b"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("out")), "1709287200 b-y\n1709287201 a-second\n1709287203 b-x\n" + bom +
                                        "1709287205 a-first\n  more of a-first\n");
  EXPECT_NE(read_file(path("stats")).find("\"head_records\": 0,"), std::string::npos);
  EXPECT_EQ(run("--multiline -c " + path("a")).status, 1);
  ASSERT_EQ(run("--multiline -o " + path("out") + " " + path("c")).status, 0);
  EXPECT_EQ(read_file(path("out")), "2024-03-01 c-second\n" + bom + "2024-03-05 c-first\n");
}

}  // namespace
