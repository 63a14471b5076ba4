#include "corank/text/jsonl_format.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {
namespace {

namespace fs = std::filesystem;

JsonlFormat format(std::vector<std::string> keys, NullOrder nulls = NullOrder::Last, const char* global = "") {
  JsonlOptions o;
  o.keys = std::move(keys);
  o.nulls = nulls;
  apply_ordering_letters(global, o.global, BlankSide::Both);
  return JsonlFormat(o);
}

TEST(JsonlFormat, TimeKeysCompareInstantsOfStringsAndEpochNumbers) {
  const JsonlFormat f = format({"ts:time"});
  EXPECT_LT(f.compare(R"({"ts":"2026-10-10T15:00:00+02:00","m":"b"})", R"({"m":"a","ts":"2026-10-10T13:30:00Z"})"), 0);
  EXPECT_EQ(f.compare(R"({"ts":1791640536})", R"({"ts":"2026-10-10T13:55:36Z"})"), 0);
  EXPECT_EQ(f.compare(R"({"ts":1791640536000})", R"({"ts":1791640536})"), 0);  // milliseconds
  EXPECT_LT(f.compare(R"({"ts":"soon"})", R"({"ts":0})"), 0);                  // unparsable first
  EXPECT_GT(f.compare(R"({"other":1})", R"({"ts":"soon"})"), 0);               // missing: NULL, last
  EXPECT_GT(f.compare(R"({"ts":null})", R"({"ts":"2026-10-10"})"), 0);
  EXPECT_TRUE(f.prefix(R"({"ts":"2026-10-10T15:00:00+02:00"})") < f.prefix(R"({"ts":"2026-10-10T13:30:00Z"})"));
}

TEST(JsonlFormat, NestedPathsNumbersAndNulls) {
  const JsonlFormat f = format({"user.id:n", "items.0"});
  EXPECT_GT(f.compare(R"({"user":{"id":1e3}})", R"({"user":{"id":999}})"), 0);
  EXPECT_LT(f.compare(R"({"user":{"id":12345678901234567890}})", R"({"user":{"id":12345678901234567891}})"), 0);
  EXPECT_LT(f.compare(R"({"user":{"id":"5"}})", R"({"user":{"id":6}})"), 0);  // a string's text, read as a number
  EXPECT_LT(f.compare(R"({"user":{"id":1},"items":["a"]})", R"({"user":{"id":1},"items":["b"]})"), 0);
  EXPECT_LT(f.compare(R"({"user":{"id":1},"items":["a"]})", R"({"user":{"id":1},"items":[]})"), 0);
  EXPECT_GT(f.compare(R"({"user":{}})", R"({"user":{"id":-1}})"), 0);
  EXPECT_LT(format({"user.id:n"}, NullOrder::First).compare(R"({"user":null})", R"({"user":{"id":-1}})"), 0);
  EXPECT_GT(format({"user.id:n:desc"}).compare(R"({"user":null})", R"({"user":{"id":-1}})"), 0);
  // A key's own place, typed or not, over the format's.
  EXPECT_LT(format({"user.id:n:desc:nulls_first"}).compare(R"({"user":null})", R"({"user":{"id":-1}})"), 0);
  EXPECT_LT(format({"user:nulls_first"}).compare(R"({})", R"({"user":"x"})"), 0);
  EXPECT_TRUE(format({"user:nulls_first"}).prefix(R"({})") < format({"user:nulls_first"}).prefix(R"({"user":"x"})"));
  EXPECT_GT(format({"user:nulls_last"}, NullOrder::First).compare(R"({})", R"({"user":"x"})"), 0);
  EXPECT_EQ(format({"a~b.c/d"}).compare(R"({"a~b":{"c/d":"x"}})", R"({"a~b":{"c/d":"x"},"z":1})"), 0);
  EXPECT_THROW(format({"a..b"}), UsageError);
  EXPECT_THROW(format({"a:bogus"}), UsageError);
}

TEST(JsonlFormat, UntypedKeysOrderByJsonKindsThenValues) {
  const JsonlFormat f = format({"v"});
  const std::vector<std::string> ordered = {
      R"({"v":"A"})",      R"({"v":"b"})",   R"({"v":-1e400})", R"({"v":-1})",    R"({"v":0.5})",
      R"({"v":5E-1})",     R"({"v":2})",     R"({"v":false})",  R"({"v":true})",  R"({"v":[1,2]})",
      R"({"v":{"a":1}})", R"({"v":null})", R"({})"};
  const std::vector<std::string>& v = ordered;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) {
      SCOPED_TRACE(v[i] + " vs " + v[j]);
      const bool same = i == j || (i == 4 && j == 5) || (i == 5 && j == 4) || (i >= 11 && j >= 11);
      const int want = same ? 0 : i < j ? -1 : 1;
      EXPECT_EQ(f.compare(v[i], v[j]), want);
      if (want < 0) EXPECT_FALSE(f.prefix(v[j]) < f.prefix(v[i]));
    }
  EXPECT_EQ(f.compare(R"({"v":"\u0041"})", R"({"v":"A"})"), 0);  // strings by their unescaped bytes
  EXPECT_LT(format({"v:desc"}).compare(R"({"v":2})", R"({"v":"x"})"), 0);
  // Without keys: whole lines as bytes.
  EXPECT_LT(format({}).compare(R"({"b":1})", R"({"c":0})"), 0);
}

TEST(JsonlFormat, PrefixIsConsistentWithTheComparison) {
  std::mt19937 rng(4);
  const char* values[] = {"1", "-2.5", "1e3", "1000", "\"x\"", "\"\\u00e9\"", "\"2026-10-10T13:55:36Z\"",
                          "\"2026-10-10T15:55:36+02:00\"", "1791640536", "true", "false", "null", "[1]", "{\"a\":[]}",
                          "\"\"", "\"2026-01-01\"", "0.000"};
  std::vector<std::string> lines;
  for (int i = 0; i < 200; ++i) {
    std::string s = "{";
    if (rng() % 5) s += std::string("\"k\":") + values[rng() % std::size(values)];
    s += "}";
    lines.push_back(s);
  }
  for (const char* key : {"k", "k:desc", "k:n", "k:time", "k:date:desc", "k:decimal", "k:f", "k:desc:nulls_first",
                          "k:float:nulls_last"})
    for (NullOrder nulls : {NullOrder::Last, NullOrder::First}) {
      const JsonlFormat f = format({key}, nulls);
      for (const auto& a : lines)
        for (const auto& b : lines) {
          const int ab = f.compare(a, b);
          ASSERT_EQ(ab, -f.compare(b, a)) << key << " " << a << " " << b;
          if (ab < 0) ASSERT_FALSE(f.prefix(b) < f.prefix(a)) << key << " " << a << " < " << b;
        }
    }
}

TEST(JsonlFormat, MalformedLinesAreErrorsWithTheirLine) {
  const JsonlFormat f = format({"a"});
  EXPECT_NO_THROW(f.check_record(R"( {"a": [1, {"b": null}]} )", "in.jsonl", 1));
  for (const char* bad : {R"({"a":1)", R"([1,2])", "5", "", R"({"a":1} x)", R"({"a":tru})", "{'a':1}"}) {
    SCOPED_TRACE(bad);
    try {
      f.check_record(bad, "in.jsonl", 7);
      FAIL();
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("in.jsonl:7: invalid JSON: ", 0), 0u) << e.what();
    }
  }
}

// Found by jsonl_fuzz: after the first key's read failed on a malformed
// record, On Demand's next read went through a null token (SEGV). The sort
// never compares unchecked records, but the format must not crash on them.
TEST(JsonlFormat, MalformedRecordsCompareWithoutCrashing) {
  const JsonlFormat f = format({"a:decimal:desc", "b.0:date"});
  const std::string bad = R"({"a"","""a":"x")";
  EXPECT_EQ(f.compare(bad, ""), -f.compare("", bad));
  EXPECT_EQ(f.compare(bad, bad), 0);
  // A missing first key, then a present second one, in a valid record.
  EXPECT_LT(format({"x", "b.0:date"}).compare(R"({"b":["2026-01-01"]})", R"({"b":["2026-01-02"]})"), 0);
}

class JsonlSort : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("corank-jsonl-" + std::to_string(::getpid()) + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) { std::ofstream(path(name), std::ios::binary) << text; }
  std::string read(const std::string& name) {
    std::ifstream f(path(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
  }
  TextSortOptions options(std::uint64_t budget, unsigned threads) {
    TextSortOptions o;
    o.inputs = {path("in")};
    o.output = path("out");
    o.memory_budget = budget;
    o.threads = threads;
    o.temp_dirs = {path("tmp")};
    o.gpu = GpuMode::Off;
    return o;
  }
  fs::path dir_;
};

// Events logged in many time zones, as ISO strings or epoch milliseconds,
// sorted in memory and through spilled runs: the output is in instant order.
TEST_F(JsonlSort, SortsByTimeInMemoryAndThroughRuns) {
  std::mt19937_64 rng(8);
  struct Event {
    std::int64_t ms;
    std::string line;
  };
  std::vector<Event> events;
  std::string text;
  for (int i = 0; i < 6000; ++i) {
    const std::int64_t ms = 1791640536000 + static_cast<std::int64_t>(rng() % 100'000'000);
    std::string ts;
    if (rng() % 2) {
      ts = std::to_string(ms);
    } else {
      const int off = (static_cast<int>(rng() % 25) - 12) * 60;  // whole hours, in minutes
      const std::int64_t local = ms / 1000 + off * 60;
      const std::int64_t day = local / 86400 - 20736;  // days since 2026-10-10 (day 20736)
      const std::int64_t sec = local % 86400;
      char buf[64];
      std::snprintf(buf, sizeof buf, "\"2026-10-%02dT%02d:%02d:%02d.%03d%c%02d:00\"", static_cast<int>(10 + day),
                    static_cast<int>(sec / 3600), static_cast<int>(sec / 60 % 60), static_cast<int>(sec % 60),
                    static_cast<int>(ms % 1000), off < 0 ? '-' : '+', std::abs(off) / 60);
      ts = buf;
    }
    std::string line = R"({"id":)" + std::to_string(i) + R"(,"ts":)" + ts + R"(,"msg":"event \")" + std::to_string(i) + R"(\""})";
    events.push_back({ms, line});
    text += line + "\n";
  }
  write("in", text);
  std::vector<Event> want = events;
  std::stable_sort(want.begin(), want.end(), [](const Event& a, const Event& b) { return a.ms < b.ms; });
  std::string expected;
  for (const auto& e : want) expected += e.line + "\n";
  for (auto [budget, threads] : {std::pair<std::uint64_t, unsigned>{0, 1}, {64 << 10, 1}, {64 << 10, 3}}) {
    SCOPED_TRACE(std::to_string(budget) + " " + std::to_string(threads));
    JsonlFormat f = format({"ts:time"});
    sort_text(options(budget, threads), f);
    EXPECT_TRUE(read("out") == expected);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
  }
}

TEST_F(JsonlSort, MalformedLineStopsTheSortBeforeAnyOutput) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += R"({"n":)" + std::to_string(i % 17) + "}\n";
  text += "{\"n\": 3,}\n";  // line 3001
  for (int i = 0; i < 100; ++i) text += R"({"n":1})" "\n";
  write("in", text);
  for (auto [budget, threads] : {std::pair<std::uint64_t, unsigned>{0, 1}, {16 << 10, 1}, {16 << 10, 4}}) {
    JsonlFormat f = format({"n:n"});
    try {
      sort_text(options(budget, threads), f);
      FAIL();
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path("in") + ":3001: invalid JSON: ", 0), 0u) << e.what();
    }
    EXPECT_FALSE(fs::exists(path("out")));
  }
  // Merged (-m) and checked (-c) inputs are read the same way.
  TextSortOptions merge = options(0, 1);
  merge.merge_only = true;
  JsonlFormat f = format({"n:n"});
  EXPECT_THROW(sort_text(merge, f), InputError);
  write("sorted", "{\"n\":1}\n{\"n\":2}\n{\"n\":2\n");
  try {
    check_text(path("sorted"), f, io::IoOptions{});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path("sorted") + ":3: invalid JSON: ", 0), 0u) << e.what();
  }
  write("in", "{\"n\":1}\n[2]");  // an unterminated last line is checked too
  EXPECT_THROW(sort_text(options(0, 1), f), InputError);
}

}  // namespace
}  // namespace corank::text
