// End-to-end tests of the row checks (text/row_check.hpp): a row with more or
// fewer fields than the header (or first row), a JSON line that is no object,
// and a later input whose header differs are errors naming file and physical
// line, with nothing written; under --rejects FILE such rows go to FILE
// unchanged and are counted, in memory, with spilled runs, on several
// threads, under -m. The references are Python's csv module
// (rows_reference.py) and jq, never corank's own parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::write_file;

class Rejects : public corank::test::CorankTest {
protected:
  // rows_reference.py over `files`: the expected output and rejects in
  // path("want") and path("want-bad"); returns its report (first bad row, counts).
  std::string reference(char delim, bool header, const std::vector<std::string>& files) {
    std::string cmd = std::string("python3 ") + CORANK_ROWS_REFERENCE + " '" + std::string(1, delim) + "' " +
                      (header ? "1 " : "0 ") + path("want") + " " + path("want-bad");
    for (const auto& f : files) cmd += " " + f;
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[4096];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
      EXPECT_EQ(::pclose(p), 0) << cmd;
    }
    return out;
  }
};

// Rows of an id and two more fields, some quoted with delimiters, quotes and
// newlines inside; about one in `bad_every` has a field more or less. Ids
// ascend from `first_id` by `step` where `sorted`, else come shuffled.
std::string random_rows(std::mt19937& rng, int rows, char delim, bool header, bool crlf, int bad_every, bool sorted,
                        int first_id = 0, int step = 1) {
  static const char* const kValues[] = {"a", "b c", "x\"y", "say \"hi\"", "multi\nline", "", "q,r", "t\tu", "z"};
  std::vector<int> ids(static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) ids[static_cast<std::size_t>(i)] = first_id + i * step;
  if (!sorted) std::shuffle(ids.begin(), ids.end(), rng);
  const std::string end = crlf ? "\r\n" : "\n";
  auto field = [&](const std::string& v) {
    const bool must = v.find_first_of(std::string("\"\n") + delim) != std::string::npos;
    if (!must && rng() % 3) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string s = header ? std::string("id") + delim + "name" + delim + "note" + end : "";
  for (int id : ids) {
    int fields = 3;
    if (bad_every && rng() % static_cast<unsigned>(bad_every) == 0) fields = rng() % 2 ? 2 : 4;
    s += std::to_string(id);
    for (int f = 1; f < fields; ++f) s += std::string(1, delim) + field(kValues[rng() % 9]);
    s += end;
  }
  return s;
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_F(Rejects, ARowWithOtherFieldsIsAnErrorNamingFileAndLine) {
  // Physical lines (Python's csv reader): the header 1, rows 2, 4 (two lines), 5.
  write_file(path("in"), "id,name,note\n1,\"two\nlines\",x\n2,b,c,extra\n3,c,d\n");
  for (const char* how : {"", "-S 1K --parallel 1", "--parallel 4", "-m", "-c"}) {
    SCOPED_TRACE(how);
    std::string err;
    const std::string out = std::string(how) == "-c" ? "" : " -o " + path("out");
    EXPECT_EQ(corank(std::string("--format csv --header --key id:n ") + how + out + " " + path("in"), &err), 2);
    EXPECT_EQ(err, "corank: " + path("in") + ":4: 4 fields, where the header of " + path("in") + " has 3\n");
    EXPECT_FALSE(fs::exists(path("out")));
  }
  // Without a header the first row sets the number; TSV and COPY's text format alike.
  write_file(path("tsv"), "1\ta\n2\n3\tc\n");
  for (const char* format : {"tsv", "pgtext"}) {
    std::string err;
    EXPECT_EQ(corank(std::string("--format ") + format + " -o " + path("out") + " " + path("tsv"), &err), 2);
    EXPECT_EQ(err, "corank: " + path("tsv") + ":2: 1 field, where the first row (" + path("tsv") + ":1) has 2\n");
  }
  // pgtext: an escaped delimiter is data, not a field's end.
  write_file(path("txt"), "1\ta\\\tb\n2\tc\n");
  ASSERT_EQ(corank("--format pgtext -o " + path("out") + " " + path("txt")), 0);
}

TEST_F(Rejects, ALaterInputsHeaderMustBeTheFirsts) {
  write_file(path("a"), "id,name\n2,b\n");
  write_file(path("b"), "id,title\n1,a\n");
  write_file(path("empty"), "");
  write_file(path("same"), "\xEF\xBB\xBF\"id\",name\r\n0,z\r\n");  // the same columns, as a spreadsheet writes them
  for (const char* how : {"", "-m"}) {
    SCOPED_TRACE(how);
    fs::remove(path("out"));
    std::string err;
    EXPECT_EQ(corank(std::string("--format csv --header --key id:n ") + how + " -o " + path("out") + " " + path("a") +
                     " " + path("empty") + " " + path("b"), &err), 2);
    EXPECT_EQ(err, "corank: " + path("b") + ":1: its header differs from that of " + path("a") +
                       ": column 2 is 'title', not 'name'\n");
    EXPECT_FALSE(fs::exists(path("out")));
    ASSERT_EQ(corank(std::string("--format csv --header --key id:n ") + how + " -o " + path("out") + " " + path("a") +
                     " " + path("empty") + " " + path("same"), &err), 0) << err;
  }
  EXPECT_EQ(read_file(path("out")), "id,name\n0,z\r\n2,b\n");
}

// Under --rejects every row is in the output or in the rejects, unchanged,
// whatever the memory, the threads and the number of inputs.
TEST_F(Rejects, EveryRowGoesToTheOutputOrTheRejects) {
  std::mt19937 rng(31);
  for (char delim : {',', '\t'}) {
    for (bool header : {true, false}) {
      const std::vector<std::string> files = {path("a"), path("b"), path("c")};
      write_file(files[0], random_rows(rng, 700, delim, header, false, 9, false));
      write_file(files[1], random_rows(rng, 300, delim, header, true, 5, false, 700));
      std::string c = random_rows(rng, 200, delim, header, true, 7, false, 1000);
      c.resize(c.size() - 2);  // its last row without its CR LF
      write_file(files[2], c);
      const std::string report = reference(delim, header, files);
      std::istringstream r(report);
      std::string first, bad, total;
      std::getline(r, first);
      r >> bad >> total;
      ASSERT_GT(std::stoi(bad), 50);
      for (const char* how : {"", "-S 16K --parallel 1", "-S 64K --parallel 4", "--parallel 3"}) {
        SCOPED_TRACE(std::string(how) + (delim == ',' ? " csv" : " tsv") + (header ? " header" : ""));
        std::string err;
        const std::string args = std::string(delim == ',' ? "--format csv " : "--format tsv ") +
                                 (header ? "--header " : "") + "--key 1:n --rejects " + path("bad") + " " + how +
                                 " -T " + path("tmp") + " --stats " + path("stats") + " -o " + path("out") + " " +
                                 files[0] + " " + files[1] + " " + files[2];
        ASSERT_EQ(corank(args, &err), 0) << err;
        EXPECT_TRUE(read_file(path("out")) == read_file(path("want")));
        EXPECT_TRUE(read_file(path("bad")) == read_file(path("want-bad")));
        EXPECT_EQ(err.substr(0, err.find(" fields")), "corank: " + bad + " of " +
                                                          (total.size() > 3 ? total.insert(total.size() - 3, ",") : total) +
                                                          " rows went to " + path("bad") + "; the first: " +
                                                          first.substr(0, first.find(" fields")));
        EXPECT_NE(read_file(path("stats")).find("\"rejected_records\": " + bad), std::string::npos);
        EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
        total.erase(std::remove(total.begin(), total.end(), ','), total.end());
      }
    }
  }
  // -m of sorted inputs: the rejects come in the merge's order, the same rows.
  write_file(path("a"), random_rows(rng, 400, ',', true, false, 6, true, 0, 2));
  write_file(path("b"), random_rows(rng, 400, ',', true, true, 6, true, 1, 2));
  reference(',', true, {path("a"), path("b")});
  for (const char* how : {"", "--batch-size 2 -S 16K"}) {
    SCOPED_TRACE(how);
    std::string err;
    ASSERT_EQ(corank(std::string("-m --format csv --header --key 1:n --rejects ") + path("bad") + " " + how + " -o " +
                     path("out") + " " + path("a") + " " + path("b"), &err), 0) << err;
    EXPECT_TRUE(read_file(path("out")) == read_file(path("want")));
    EXPECT_EQ(sorted_lines(read_file(path("bad"))), sorted_lines(read_file(path("want-bad"))));
  }
}

// JSON lines: a blank line is skipped, as jq skips it; a line that is no JSON
// object (a half-written last line too) is an error naming file and line, or
// a reject. jq says which lines are objects.
TEST_F(Rejects, JsonLinesBlankSkippedBadRejected) {
  const std::string text = "{\"id\":3}\n\n  \t\r\n{\"id\":1,\"x\":[1]}\n[1,2]\n{\"id\":2}\r\n\"s\"\n{\"id\":0,\"half";
  write_file(path("in"), text);
  std::string err;
  EXPECT_EQ(corank("--format jsonl --key id:n -o " + path("out") + " " + path("in"), &err), 2);
  EXPECT_EQ(err.substr(0, err.find(": invalid JSON")), "corank: " + path("in") + ":5");
  EXPECT_FALSE(fs::exists(path("out")));
  ASSERT_EQ(corank("--format jsonl --key id:n --rejects " + path("bad") + " -o " + path("out") + " " + path("in"), &err),
            0);
  EXPECT_EQ(err.substr(0, err.find(": invalid JSON")),
            "corank: 3 of 6 rows went to " + path("bad") + "; the first: " + path("in") + ":5");
  // jq's view, line by line: the objects (compact, by id) and the rest.
  const std::string jq = "jq -R -c 'if test(\"^[ \\t\\r]*$\") then empty else (try (fromjson | if type == \"object\" "
                         "then . else error end) catch \"BAD\") end' " + path("in");
  const corank::test::Result objects = corank::test::run_shell(jq + " | grep -v '^\"BAD\"' | jq -s -c 'sort_by(.id)[]' > " +
                                                                  path("want"), dir_ / "jq.err");
  ASSERT_EQ(objects.status, 0) << objects.err;
  const corank::test::Result compact =
      corank::test::run_shell("jq -c . " + path("out") + " > " + path("got"), dir_ / "jq.err");
  ASSERT_EQ(compact.status, 0) << compact.err;
  EXPECT_EQ(read_file(path("got")), read_file(path("want")));
  EXPECT_EQ(read_file(path("bad")), "[1,2]\n\"s\"\n{\"id\":0,\"half\n");
  // -m and -c read the same way.
  write_file(path("sorted"), "{\"id\":1}\n\n{\"id\":2}\n");
  ASSERT_EQ(corank("-c --format jsonl --key id:n " + path("sorted")), 0);
  ASSERT_EQ(corank("-m --format jsonl --key id:n -o " + path("out") + " " + path("sorted") + " " + path("sorted")), 0);
  EXPECT_EQ(read_file(path("out")), "{\"id\":1}\n{\"id\":1}\n{\"id\":2}\n{\"id\":2}\n");
}

// The rejects file appears only with a successful sort: a failure after some
// rows were rejected leaves an older one as it was. It cannot be the output,
// and -c and binary formats take none.
TEST_F(Rejects, TheRejectsFileIsCommittedWithTheOutput) {
  write_file(path("a"), "id,v\n1,a,x\n2,b\n");
  write_file(path("b"), "id,v\n3,\"open\n");
  write_file(path("bad"), "old\n");
  std::string err;
  EXPECT_EQ(corank("--format csv --header --rejects " + path("bad") + " -o " + path("out") + " " + path("a") + " " +
                   path("b"), &err), 2);
  EXPECT_EQ(err, "corank: " + path("b") + ":2: unterminated quoted field\n");
  EXPECT_EQ(read_file(path("bad")), "old\n");
  EXPECT_FALSE(fs::exists(path("out")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 5);  // a, b, bad, tmp, corank.err
  ASSERT_EQ(corank("--format csv --header --rejects " + path("bad") + " -o " + path("out") + " " + path("a"), &err), 0);
  EXPECT_EQ(read_file(path("bad")), "1,a,x\n");
  EXPECT_EQ(read_file(path("out")), "id,v\n2,b\n");
  // No rejects: an empty file replaces the older one.
  ASSERT_EQ(corank("--format csv --rejects " + path("bad") + " -o " + path("out") + " " + path("out"), &err), 0);
  EXPECT_EQ(read_file(path("bad")), "");
  EXPECT_EQ(err, "");
  EXPECT_EQ(corank("--format csv --rejects " + path("out") + " -o " + path("out") + " " + path("a"), &err), 2);
  EXPECT_EQ(err.rfind("corank: --rejects names the output", 0), 0u) << err;
  EXPECT_EQ(corank("-c --format csv --rejects " + path("bad") + " " + path("a"), &err), 2);
  EXPECT_EQ(corank("--format u32 --rejects " + path("bad") + " " + path("a"), &err), 2);
  EXPECT_EQ(err.rfind("corank: option --rejects applies to text formats", 0), 0u) << err;
}

}  // namespace
