// Adaptive run formation (text/run_window.hpp): inputs sorted, nearly sorted
// (each record displaced by less than, about as much as, and much more than
// the window), reverse-sorted, random and all equal, as lines, CSV and JSON
// lines, under a tiny -S. Outputs must equal an independent reference (GNU
// sort in the C locale; for CSV and JSON lines a stable sort of the generated
// keys) and corank's in-memory sort byte for byte; --stats must show one run
// and nothing spilled where the displacement is below the window, and
// today's runs for random and reverse-sorted input. With CORANK_NEARLY_GPU=1
// (tools/gpu-pipeline-tests.sh on a CUDA machine) every sort runs with
// --gpu=on, its chunks sorted on the GPU, and --stats must say so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kRecordOverhead = 60;

using corank::test::read_file;
using corank::test::write_file;

enum class Shape { sorted, below, at, above, reverse, random, equal };

const char* name_of(Shape s) {
  switch (s) {
    case Shape::sorted: return "sorted";
    case Shape::below: return "displaced below the window";
    case Shape::at: return "displaced about the window";
    case Shape::above: return "displaced far beyond the window";
    case Shape::reverse: return "reverse-sorted";
    case Shape::random: return "random";
    case Shape::equal: return "all equal";
  }
  return "";
}

// The input order of n records whose sorted order is 0..n-1: record i read
// at about i + U[0, d) (ties in input order), reversed, shuffled or as is.
std::vector<std::uint64_t> input_order(Shape shape, std::uint64_t n, std::uint64_t d, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (shape == Shape::reverse) std::reverse(order.begin(), order.end());
  if (shape == Shape::random) std::shuffle(order.begin(), order.end(), rng);
  if (shape == Shape::below || shape == Shape::at || shape == Shape::above) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> at(n);
    for (std::uint64_t i = 0; i < n; ++i) at[i] = {i + rng() % d, i};
    std::stable_sort(at.begin(), at.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (std::uint64_t i = 0; i < n; ++i) order[i] = at[i].second;
  }
  return order;
}

struct Stats {
  std::uint64_t runs = 0, spilled_runs = 0, side_records = 0;
  bool one_pass = false;
  bool streamed = false;  // -v said the chunks streamed into the output
};

std::uint64_t json_number(const std::string& s, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(s, m, std::regex("\"" + key + "\": ([0-9]+)"))) return UINT64_MAX;
  return std::stoull(m[1]);
}

bool on_gpu() {
  const char* v = std::getenv("CORANK_NEARLY_GPU");
  return v && std::string(v) == "1";
}

class NearlySorted : public corank::test::CorankTest {
protected:
  // Sorts `in` with `args` under `budget` into "out", and returns its --stats.
  Stats sort(const std::string& args, const std::string& budget, const std::string& in = "in",
             const std::string& out = "out") {
    std::string err;
    EXPECT_EQ(corank(args + gpu_arg() + " -v " + budget + " -T " + path("tmp") + " --stats " + path("stats.json") +
                         " -o " + path(out) + " " + path(in),
                     &err),
              0)
        << err;
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    const std::string s = read_file(path("stats.json"));
    if (on_gpu()) EXPECT_NE(s.find("\"backend\": \"gpu\""), std::string::npos) << s;
    return Stats{json_number(s, "runs"), json_number(s, "spilled_runs"), json_number(s, "side_records"),
                 s.find("\"one_pass\": true") != std::string::npos,
                 err.find("streaming one run into the output") != std::string::npos};
  }

  // The window's size under `budget`, as -v says, in records of `record_bytes`
  // (a window holds a record's bytes and its entries: ChunkReader's
  // kRecordOverhead, an entry and a half of 40 bytes).
  std::uint64_t window_records(const std::string& args, const std::string& budget, std::uint64_t record_bytes) {
    std::string err;
    EXPECT_EQ(corank(args + gpu_arg() + " -v " + budget + " -o " + path("probe.out") + " " + path("in"), &err), 0)
        << err;
    std::smatch m;
    if (!std::regex_search(err, m, std::regex("a window of ([0-9]+) bytes"))) {
      ADD_FAILURE() << "no window in: " << err;
      return 1;
    }
    return std::max<std::uint64_t>(1, std::stoull(m[1]) / (record_bytes + kRecordOverhead));
  }

  static std::string gpu_arg() { return on_gpu() ? " --gpu=on" : ""; }

  // What each shape must give: the reference and the in-memory sort's bytes,
  // and for the shapes within the window one run, nothing spilled.
  void expect_sorted(Shape shape, const Stats& st, const std::string& want, const std::string& args) {
    SCOPED_TRACE(name_of(shape));
    const std::string got = read_file(path("out"));
    EXPECT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want);
    sort(args, "-S 64M", "in", "memory");
    EXPECT_TRUE(read_file(path("memory")) == got);
    if (shape == Shape::sorted || shape == Shape::below || shape == Shape::equal) {
      EXPECT_EQ(st.runs, 1u);
      EXPECT_EQ(st.spilled_runs, 0u);
      EXPECT_EQ(st.side_records, 0u);
      EXPECT_TRUE(st.one_pass);
    }
    if (shape == Shape::reverse || shape == Shape::random) {
      EXPECT_GT(st.spilled_runs, 2u);  // today's runs, one per chunk
      EXPECT_FALSE(st.streamed);  // found out from the first chunk, before anything went to the output
      EXPECT_FALSE(st.one_pass);
    }
    if (shape == Shape::above) EXPECT_FALSE(st.one_pass);
  }
};

constexpr std::uint64_t kRecords = 16000;
constexpr std::uint64_t kLineBytes = 24;
const char* const kBudget = "-S 256K";

std::string line(std::uint64_t key, std::uint64_t i, std::mt19937& rng) {
  char buf[64];
  // Two records a key (so -s and -u matter), a random tail (so the last-resort
  // comparison does).
  std::snprintf(buf, sizeof buf, "%08llu|%c%c%c%c%c|%06llu\n", static_cast<unsigned long long>(key / 2),
                'a' + static_cast<char>(rng() % 26), 'a' + static_cast<char>(rng() % 26),
                'a' + static_cast<char>(rng() % 26), 'a' + static_cast<char>(rng() % 26),
                'a' + static_cast<char>(rng() % 26), static_cast<unsigned long long>(i % 1000000));
  return buf;
}

std::string lines_in(Shape shape, std::uint64_t d, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text;
  std::uint64_t i = 0;
  if (shape == Shape::equal) {  // equal as whole lines, not only by key
    const std::string same = line(0, 0, rng);
    for (; i < kRecords; ++i) text += same;
    return text;
  }
  for (const std::uint64_t k : input_order(shape, kRecords, d, seed)) text += line(k, i++, rng);
  return text;
}

TEST_F(NearlySorted, LinesMatchGnuSortAndTheInMemorySort) {
  write_file(path("in"), lines_in(Shape::sorted, 1, 1));
  const std::uint64_t window = window_records("", kBudget, kLineBytes);
  ASSERT_LT(window * 8, kRecords) << "the budget's window should be small beside the input";
  // corank's options, and GNU sort's for the same order.
  for (const auto& [args, gnu_args] : std::vector<std::pair<std::string, std::string>>{
           {"", ""},
           {"-s -t'|' -k1,1", "-s -t'|' -k1,1"},
           {"-u -t'|' -k1,1", "-u -t'|' -k1,1"},
           {"-r", "-r"},
           {"--compress-temp", ""}}) {
    for (const Shape shape : {Shape::sorted, Shape::below, Shape::at, Shape::above, Shape::reverse, Shape::random,
                              Shape::equal}) {
      SCOPED_TRACE(args);
      const std::uint64_t d = shape == Shape::below ? window / 4 : shape == Shape::at ? window : 8 * window;
      std::string text = lines_in(shape, std::max<std::uint64_t>(d, 1), 7);
      if (args == "-r") {  // reverse order of the same shapes
        std::vector<std::string> ls;
        for (std::size_t p = 0, q; p < text.size(); p = q + 1) ls.push_back(text.substr(p, (q = text.find('\n', p)) - p + 1));
        std::reverse(ls.begin(), ls.end());
        text = std::accumulate(ls.begin(), ls.end(), std::string());
      }
      write_file(path("in"), text);
      corank::test::Result g =
          corank::test::run_shell("LC_ALL=C sort " + gnu_args + " " + path("in") + " > " + path("want"), dir_ / "gnu.err");
      ASSERT_EQ(g.status, 0) << g.err;
      const Stats st = sort(args, kBudget);
      expect_sorted(shape, st, read_file(path("want")), args);
    }
  }
}

// CSV rows (a header, a quoted field with the separator) and JSON lines by a
// numeric key, two rows a key: the reference is a stable sort of the rows by
// the generated keys, and corank sorts these formats stably.
std::vector<std::pair<std::uint64_t, std::string>> rows(Shape shape, std::uint64_t d, bool json) {
  std::vector<std::pair<std::uint64_t, std::string>> r;
  std::uint64_t i = 0;
  for (const std::uint64_t k : input_order(shape, kRecords, std::max<std::uint64_t>(d, 1), 11)) {
    const std::uint64_t key = shape == Shape::equal ? 0 : k / 2;
    const std::string tail = std::to_string(i++ * 7919 % 100003);
    r.emplace_back(key, json ? "{\"ts\": " + std::to_string(key) + ", \"msg\": \"m " + tail + "\"}\n"
                             : std::to_string(key) + ",\"a, " + tail + "\"\n");
  }
  return r;
}

TEST_F(NearlySorted, CsvAndJsonLinesMatchAStableSortAndTheInMemorySort) {
  for (const bool json : {false, true}) {
    const std::string args = json ? "--format jsonl --key ts:n" : "--format csv --header --key id:n";
    const std::string header = json ? "" : "id,text\n";
    auto text_of = [&](const std::vector<std::pair<std::uint64_t, std::string>>& rs) {
      std::string t = header;
      for (const auto& r : rs) t += r.second;
      return t;
    };
    write_file(path("in"), text_of(rows(Shape::sorted, 1, json)));
    const std::uint64_t window = window_records(args, kBudget, 18);
    for (const Shape shape : {Shape::sorted, Shape::below, Shape::at, Shape::above, Shape::reverse, Shape::random,
                              Shape::equal}) {
      SCOPED_TRACE(args);
      const std::uint64_t d = shape == Shape::below ? window / 4 : shape == Shape::at ? window : 8 * window;
      auto rs = rows(shape, d, json);
      write_file(path("in"), text_of(rs));
      std::stable_sort(rs.begin(), rs.end(), [](auto& a, auto& b) { return a.first < b.first; });
      const Stats st = sort(args, kBudget);
      expect_sorted(shape, st, text_of(rs), args);
    }
  }
}

// The output's run read back and merged with side runs, where the output is
// compressed and where it replaces its own input.
TEST_F(NearlySorted, SideRunsMergeIntoACompressedOutputAndOverTheInput) {
  write_file(path("in"), lines_in(Shape::sorted, 1, 3));
  const std::uint64_t window = window_records("", kBudget, kLineBytes);
  write_file(path("in"), lines_in(Shape::at, 3 * window, 3));
  ASSERT_EQ(corank::test::run_shell("LC_ALL=C sort " + path("in") + " > " + path("want"), dir_ / "gnu.err").status,
            0);
  const Stats st = sort("", kBudget, "in", "out.gz");
  EXPECT_GT(st.side_records, 0u);
  ASSERT_EQ(corank::test::run_shell("gzip -dc " + path("out.gz") + " > " + path("out"), dir_ / "gz.err").status, 0);
  EXPECT_TRUE(read_file(path("out")) == read_file(path("want")));
  sort("", kBudget, "in", "in");
  EXPECT_TRUE(read_file(path("in")) == read_file(path("want")));
}

// Bursts of records far later than the window (a host's backlog) among many
// within it: side runs, merged with the output's run (read back from the
// output's file, with its samples) in key ranges on all threads.
TEST_F(NearlySorted, SideRunsMergeWithTheOutputsRunOnAllThreads) {
  const std::string budget = "-S 16M --parallel 3";  // 3 threads need 4 MiB of it
  constexpr std::uint64_t n = 600000;
  std::mt19937 tails(5);
  std::string text;
  for (std::uint64_t i = 0; i < n; ++i) text += line(i, i, tails);
  write_file(path("in"), text);
  const std::uint64_t window = window_records("", budget, kLineBytes);
  std::mt19937_64 rng(5);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> at(n);
  for (std::uint64_t i = 0; i < n; ++i) at[i] = {i + (i % 20000 / 1000 == 5 ? 40 * window : rng() % (window / 4 + 1)), i};
  std::stable_sort(at.begin(), at.end(), [](auto& a, auto& b) { return a.first < b.first; });
  text.clear();
  for (std::uint64_t i = 0; i < n; ++i) text += line(at[i].second, i, tails);
  write_file(path("in"), text);
  ASSERT_EQ(corank::test::run_shell("LC_ALL=C sort " + path("in") + " > " + path("want"), dir_ / "gnu.err").status,
            0);
  std::string err;
  ASSERT_EQ(corank("-v " + budget + " -T " + path("tmp") + " --stats " + path("stats.json") + " -o " + path("out") +
                       " " + path("in"),
                   &err),
            0)
      << err;
  EXPECT_NE(err.find("streaming one run"), std::string::npos) << err;
  EXPECT_NE(err.find("in key ranges"), std::string::npos) << err;
  EXPECT_GT(json_number(read_file(path("stats.json")), "side_records"), 0u);
  EXPECT_TRUE(read_file(path("out")) == read_file(path("want")));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

}  // namespace
