// End-to-end tests of `corank --format jsonl`: events logged in many time
// zones sorted by a time key (in memory and through spilled runs) against the
// instants they were generated from, NULL placement, and malformed lines
// (one line on stderr naming file and line, exit 2, no output).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::write_file;

class Jsonl : public corank::test::CorankTest {};

struct Event {
  std::int64_t ms;  // the instant, UTC milliseconds; INT64_MAX: no time (NULL)
  int user;
  std::string line;
};

// ISO 8601 in a zone `off` minutes east of UTC, or epoch milliseconds.
std::string timestamp(std::int64_t ms, int off, bool epoch) {
  if (epoch) return std::to_string(ms);
  const std::int64_t local = ms / 1000 + off * 60;
  const std::int64_t day = local / 86400 - 20736;  // 2026-10-10 is day 20736
  const std::int64_t sec = local % 86400;
  char buf[64];
  std::snprintf(buf, sizeof buf, "\"2026-10-%02dT%02d:%02d:%02d.%03d%c%02d:%02d\"", static_cast<int>(10 + day),
                static_cast<int>(sec / 3600), static_cast<int>(sec / 60 % 60), static_cast<int>(sec % 60),
                static_cast<int>(ms % 1000), off < 0 ? '-' : '+', std::abs(off) / 60, std::abs(off) % 60);
  return buf;
}

std::vector<Event> events(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Event> v;
  for (int i = 0; i < n; ++i) {
    const std::int64_t ms = 1791640536000 + static_cast<std::int64_t>(rng() % 200'000'000);
    const int off = (static_cast<int>(rng() % 49) - 24) * 30;
    const int user = static_cast<int>(rng() % 40);
    const int shape = static_cast<int>(rng() % 20);
    std::string fields = R"("user":{"id":)" + std::to_string(user) + R"(},"msg":"GET /)" + std::to_string(i) +
                         R"( \"x\"")";
    Event e{ms, user, ""};
    if (shape == 0) {
      e.ms = INT64_MAX;  // no ts field
      e.line = "{" + fields + "}";
    } else if (shape == 1) {
      e.ms = INT64_MAX;
      e.line = R"({"ts":null,)" + fields + "}";
    } else {
      e.line = R"({"ts":)" + timestamp(ms, off, shape % 3 == 0) + "," + fields + "}";
    }
    v.push_back(e);
  }
  return v;
}

std::string text_of(const std::vector<Event>& v) {
  std::string s;
  for (const auto& e : v) s += e.line + "\n";
  return s;
}

TEST_F(Jsonl, SortsByTimeKeysLikeTheReference) {
  const std::vector<Event> in = events(5000, 3);
  write_file(path("in"), text_of(in));
  struct Case {
    const char* args;
    bool by_user, nulls_first;
  };
  for (const Case& c : {Case{"--key ts:time", false, false}, Case{"--key ts:time --nulls first", false, true},
                        Case{"--key user.id:n --key ts:time", true, false}}) {
    std::vector<Event> want = in;
    std::stable_sort(want.begin(), want.end(), [&](const Event& a, const Event& b) {
      if (c.by_user && a.user != b.user) return a.user < b.user;
      const bool na = a.ms == INT64_MAX, nb = b.ms == INT64_MAX;
      if (na != nb) return c.nulls_first ? na : nb;
      return a.ms < b.ms;
    });
    for (const char* budget : {"", "-S 16K --parallel 1", "-S 64K --parallel 3"}) {
      SCOPED_TRACE(std::string(c.args) + " " + budget);
      std::string err;
      ASSERT_EQ(corank(std::string("--format jsonl ") + c.args + " " + budget + " -T " + path("tmp") + " -o " +
                           path("out") + " " + path("in"),
                       &err),
                0)
          << err;
      EXPECT_TRUE(read_file(path("out")) == text_of(want));
      EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    }
  }
  EXPECT_EQ(corank("-c --format jsonl --key ts:time " + path("in")), 1);
  ASSERT_EQ(corank("--format jsonl --key ts:time -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(corank("-c --format jsonl --key ts:time " + path("out")), 0);
}

// Missing fields and nulls, and timestamps that do not read, counted per key.
TEST_F(Jsonl, NullAndUnreadValuesCounted) {
  write_file(path("in"), R"({"ts":"2026-01-01T00:00:00Z","n":1})" "\n" R"({"ts":"soon","n":null})" "\n"
                         R"({"n":3})" "\n" R"({"ts":null})" "\n");
  std::string err;
  ASSERT_EQ(corank("--format jsonl --key ts:time --key n -o " + path("out") + " " + path("in"), &err), 0);
  EXPECT_EQ(err, "corank: of 4 records, 1 had no time in key 1 (ts) (sorted first), 2 had a NULL or missing value "
                 "in key 1 (ts) (sorted last), 2 had a NULL or missing value in key 2 (n) (sorted last); --debug "
                 "shows them\n");
  ASSERT_EQ(corank("--format jsonl --key n:n --nulls first -o " + path("out") + " " + path("in"), &err), 0);
  EXPECT_EQ(err, "corank: 2 of 4 records had a NULL or missing value in key 1 (n); they sort first; --debug shows them\n");
}

// Names that hold dots (ECS, OpenTelemetry: "log.level") are reached by
// ["log.level"] or log\.level, apart from the nested log.level; "." is the
// whole record, so that -u drops only exact duplicates.
TEST_F(Jsonl, DottedNamesAndTheWholeRecord) {
  const std::string a = R"({"log.level":"warn","log":{"level":"b"},"labels":{"app.io/name":"y"},"n":2})";
  const std::string b = R"({"log.level":"error","log":{"level":"c"},"labels":{"app.io/name":"x"},"n":1})";
  const std::string c = R"({"log.level":"info","log":{"level":"a"},"labels":{"app.io/name":"z"},"n":1})";
  write_file(path("in"), a + "\n" + b + "\n" + c + "\n" + b + "\n");
  auto sorted = [&](const std::string& keys) {
    std::string err;
    EXPECT_EQ(corank("--format jsonl " + keys + " -o " + path("out") + " " + path("in"), &err), 0) << keys << err;
    EXPECT_EQ(err, "") << keys;
    return read_file(path("out"));
  };
  const std::string by_dotted = b + "\n" + b + "\n" + c + "\n" + a + "\n";  // error, info, warn
  EXPECT_EQ(sorted(R"(--key '["log.level"]')"), by_dotted);
  EXPECT_EQ(sorted(R"(--key 'log\.level')"), by_dotted);
  EXPECT_EQ(sorted(R"(--key '["log.level"]:desc')"), a + "\n" + c + "\n" + b + "\n" + b + "\n");
  EXPECT_EQ(sorted("--key log.level"), c + "\n" + a + "\n" + b + "\n" + b + "\n");  // nested: a, b, c
  EXPECT_EQ(sorted(R"(--key 'labels["app.io/name"]')"), b + "\n" + b + "\n" + a + "\n" + c + "\n");
  EXPECT_EQ(sorted(R"(--key 'labels.app\.io/name')"), b + "\n" + b + "\n" + a + "\n" + c + "\n");
  // By n, then the whole record: -u keeps one of the two identical events.
  EXPECT_EQ(sorted("-u --key n:n --key ."), b + "\n" + c + "\n" + a + "\n");
  EXPECT_EQ(sorted("-u --key n:n"), b + "\n" + a + "\n");
  for (const char* bad : {R"('["log.level')", R"('["a"]b')", "'a..b'", "'.a'", R"('["x\"]')"}) {
    std::string err;
    EXPECT_EQ(corank(std::string("--format jsonl --key ") + bad + " " + path("in"), &err), 2) << bad;
    EXPECT_EQ(err.rfind("corank: invalid key ", 0), 0u) << err;
  }
}

TEST_F(Jsonl, MalformedLineIsAnErrorWithItsLine) {
  std::string text = text_of(events(2000, 4));
  text += "{\"ts\": 1, \"user\": {\"id\": 3}\n";  // line 2001: the object never closes
  text += text_of(events(50, 5));
  write_file(path("in"), text);
  for (const char* budget : {"", "-S 8K --parallel 1", "-S 8K --parallel 4"}) {
    SCOPED_TRACE(budget);
    std::string err;
    EXPECT_EQ(corank(std::string("--format jsonl --key ts:time ") + budget + " -T " + path("tmp") + " -o " +
                         path("out") + " " + path("in"),
                     &err),
              2);
    EXPECT_EQ(err.rfind("corank: " + path("in") + ":2001: invalid JSON: ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(fs::exists(path("out")));
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
  }
  write_file(path("array"), "{\"a\":1}\n[1,2]\n");
  std::string err;
  EXPECT_EQ(corank("--format jsonl " + path("array"), &err), 2);
  EXPECT_EQ(err, "corank: " + path("array") + ":2: invalid JSON: not an object\n");
}

// A UTF-8 byte order mark before a file's first object (a file written on
// Windows) is read past, as jq reads it; the line keeps it. As the reference,
// the order of the values jq reads: 1 before 2.
TEST_F(Jsonl, AByteOrderMarkBeforeTheFirstObject) {
  write_file(path("in"), "\xEF\xBB\xBF{\"t\":2,\"ts\":\"2026-01-01T00:00:02Z\"}\n{\"t\":1,\"ts\":\"2026-01-01T00:00:01Z\"}\n");
  for (const char* args : {"--format jsonl --key t:n", "--format jsonl --key ts:time", "--time"}) {
    std::string err;
    ASSERT_EQ(corank(std::string(args) + " -o " + path("out") + " " + path("in"), &err), 0) << args << ": " << err;
    EXPECT_EQ(read_file(path("out")), "{\"t\":1,\"ts\":\"2026-01-01T00:00:01Z\"}\n\xEF\xBB\xBF{\"t\":2,\"ts\":\"2026-01-01T00:00:02Z\"}\n")
        << args;
  }
}

TEST_F(Jsonl, WithoutKeysLinesCompareAsBytesAndOptionsAreChecked) {
  write_file(path("in"), "{\"b\":1}\n{\"a\":2}\n");
  ASSERT_EQ(corank("--format jsonl -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "{\"a\":2}\n{\"b\":1}\n");
  ASSERT_EQ(corank("--format jsonl -r -o " + path("out") + " " + path("in")), 0);
  EXPECT_EQ(read_file(path("out")), "{\"b\":1}\n{\"a\":2}\n");
  for (const char* bad : {"--null NULL", "--header", "-t ,", "-z", "--nulls middle", "--key a:when", "--key a..b",
                          "--time-year 0"}) {
    SCOPED_TRACE(bad);
    std::string err;
    EXPECT_EQ(corank(std::string("--format jsonl ") + bad + " " + path("in"), &err), 2);
    EXPECT_EQ(err.rfind("corank: ", 0), 0u) << err;
  }
}

// --debug: each line, then a line per key underlining its value as written
// (a string inside its quotes, an empty one by its quotes, an object or array
// whole), "^ no match for key" at a null and at the end of a line without
// the field, and GNU's warnings.
TEST_F(Jsonl, DebugMarksEachKeysValue) {
  write_file(path("in"),
             "{\"a\":\"x\",\"n\":5,\"o\":{\"p\":[1, 2]}}\n"
             "{\"a\":null,\"n\":-1.5e3}\n"
             "{\"n\":2, \"a\":\"\"}\n"
             "{\"a\":\"\\u00e9t\\\"e\",\"n\":true}\n");
  std::string err;
  ASSERT_EQ(corank("--format jsonl --debug -k a -k n:n -k o " + path("in") + " > " + path("out"), &err), 0);
  EXPECT_EQ(read_file(path("out")),
            "{\"n\":2, \"a\":\"\"}\n"
            "            __\n"
            "     _\n"
            "               ^ no match for key\n"
            "{\"a\":\"x\",\"n\":5,\"o\":{\"p\":[1, 2]}}\n"
            "      _\n"
            "             _\n"
            "                   ____________\n"
            "{\"a\":\"\\u00e9t\\\"e\",\"n\":true}\n"
            "      __________\n"
            "                      ____\n"
            "                           ^ no match for key\n"
            "{\"a\":null,\"n\":-1.5e3}\n"
            "     ^ no match for key\n"
            "              ______\n"
            "                     ^ no match for key\n");
  EXPECT_EQ(err,
            "corank: text ordering performed using simple byte comparison\n"
            "corank: note numbers use '.' as a decimal point in this locale\n");
  // Without keys lines compare as bytes: the whole line.
  write_file(path("two"), "{\"b\":1}\n{\"a\":2}\n");
  ASSERT_EQ(corank("--format jsonl --debug " + path("two") + " > " + path("out"), &err), 0);
  EXPECT_EQ(read_file(path("out")), "{\"a\":2}\n_______\n{\"b\":1}\n_______\n");
  EXPECT_EQ(err, "corank: text ordering performed using simple byte comparison\n");
}

}  // namespace
