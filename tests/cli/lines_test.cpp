// Differential tests of `corank --format lines` against GNU sort in the C
// locale: random inputs under a matrix of options, with the memory budget of a
// one-chunk in-memory sort and budgets tiny enough to spill many runs and
// merge them in several passes; outputs must be byte-identical. Plus -c/-C,
// -m, -z, -o onto an input, and the error paths (the command line's:
// lines_command_line_test.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lines_test_util.hpp"

namespace {

using namespace corank::test::lines;

const char* const kOptionMatrix[] = {
    "",          "-r",          "-n",           "-nr",          "-g",           "-gr",
    "-h",        "-hr",         "-M",           "-Mr",          "-V",           "-Vr",
    "-f",        "-d",          "-i",           "-b",           "-fd",          "-fi",
    "-u",        "-ur",         "-nu",          "-fu",          "-s",           "-sr",
    "-sn",       "-k2",         "-k2,2",        "-k2,2n",       "-k2n,2 -k1,1r", "-k3,3g -k1,1",
    "-k2,2h",    "-k2,2M -k3",  "-k2,2V",       "-k1.2,1.4",    "-k2.2b,2.3",   "-b -k2,2",
    "-k2b,2",    "-k2,2b",      "-k1,1 -k2,2nr", "-k2,2n -u",   "-k2,2 -s",     "-k2,2 -su",
    "-s -r -k2,2n", "-k2,2f -u", "-k2,2d",      "-k2,2i",       "-k3.2,3.5n",   "-k2.3",
    "-k1.5",     "-k5,5 -k4,4n", "-k2,1",       "-r -k2,2",     "-r -k2b,2",    "-n -k2,2",
    "-t, -k2,2", "-t, -k2,2n -k1,1", "-t: -k2 -s", "-t, -k3,3g -u", "-t, -k1.2,1.3", "-t ' ' -k2,2",
    "-t ' ' -k3", "-k2,2 -k1,1 -k3,3r -s", "--sort=numeric -k2", "-bnk2", "-dfr", "-k2,2.0",
    "-t \"$(printf '\\t')\" -k2,2n", "-k2.5b,3.2nr", "-bt, -k2", "-k1,1 -k1,1r", "-g -k2", "-h -s",
    "-M -u", "-V -u", "-fu -k2,2", "-i -u", "-d -s -r", "-k2,2g -s -r", "-t, -k2,2h -k1,1V",
    // GNU's other forms: obsolete +POS keys, long-option prefixes, clustered
    // letters, -f before numeric orderings, --batch-size.
    "+1", "+1 -2", "+0.2 -1.3n", "+1n -2 +0r", "--rev --num", "--sort=num -k2", "-nrk2", "-fh", "-k2,2fh",
    "-fn -k2", "-fM", "-fg -s", "--batch-size=2", "--batch=3 -k2,2n", "--ignore-c --dict",
};

TEST_F(Lines, MatchesGnuSortUnderOptionMatrix) {
  LineGenerator gen(20261122);
  write_file(path("in"), gen.text(1500));
  for (const char* opts : kOptionMatrix) {
    SCOPED_TRACE(opts);
    expect_same(opts, path("in"));
  }
}

// --debug: the key marks under every output line must be GNU's, byte for
// byte, in memory and from spilled runs; so must the warnings about the keys.
TEST_F(Lines, DebugMarksAndWarningsMatchGnu) {
  LineGenerator gen(20261123);
  write_file(path("in"), gen.text(300));
  std::vector<std::string> option_sets(std::begin(kOptionMatrix), std::end(kOptionMatrix));
  for (const char* more : {"-k1.3,1.1", "-k2,1 -k1,1", "-t. -k1n", "-t- -k1n", "-t+ -k1g", "-t. -k1,1n", "-n -k1,1f",
                           "-r -k1,1n", "-rs -k1,1n", "-f -d -k2,2", "-k1.2b,1.3", "-k1,1.2", "-M -k2,2b", "-m",
                           "-z", "-z -k2,2n", "-n -f -k1,1V", "-b -r -s -k2,2n"})
    option_sets.emplace_back(more);
  for (const std::string& opts : option_sets) {
    SCOPED_TRACE(opts);
    const std::string input = opts.rfind("-m", 0) == 0 ? path("sorted") : path("in");
    if (opts == "-m") ASSERT_EQ(gnu(path("in") + " > " + path("sorted")).status, 0);
    Result g = gnu("--debug " + opts + " " + input + " > " + path("want"));
    ASSERT_EQ(g.status, 0) << g.err;
    const std::string want = read_file(path("want"));
    std::string want_err = g.err;
    for (std::size_t at = 0; (at = want_err.find("sort: ", at)) != std::string::npos; at += 8)
      want_err.replace(at, 6, "corank: ");
    const char* const budgets[] = {"", "-S 4K --parallel 1", "-S 64K --parallel 3"};
    for (std::size_t b = 0; b < std::size(budgets); ++b) {
      if (!sweep_.takes(b, std::size(budgets))) continue;
      const char* budget = budgets[b];
      Result r = run("--debug " + opts + " " + budget + " -T " + path("tmp") + " " + input + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
      ASSERT_TRUE(read_file(path("got")) == want) << budget;
      if (reference_rules().debug_warnings_alike) EXPECT_EQ(r.err, want_err) << budget;
    }
    sweep_.next();
  }
}

TEST_F(Lines, DebugRefusesOutputFilesAndChecks) {
  write_file(path("in"), "b\na\n");
  for (const char* opts : {"-o out", "-o -", "-c", "-C", "--check=quiet"}) {
    SCOPED_TRACE(opts);
    Result g = gnu(std::string("--debug ") + opts + " " + path("in"));
    Result r = run(std::string("--debug ") + opts + " " + path("in"));
    EXPECT_EQ(g.status, 2);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "corank: " + g.err.substr(6));
  }
  EXPECT_FALSE(fs::exists("out"));
  for (const char* opts : {"--format u32", "--format gensort"}) {
    Result r = run(std::string("--debug ") + opts + " " + path("in"));
    EXPECT_EQ(r.status, 2) << opts;
    EXPECT_NE(r.err.find("--debug"), std::string::npos) << r.err;
  }
}

TEST_F(Lines, MatchesGnuSortOnSeveralFilesAndSeeds) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    LineGenerator gen(seed);
    write_file(path("a"), gen.text(700));
    write_file(path("b"), gen.text(300));
    write_file(path("c"), "");
    write_file(path("d"), gen.text(1));
    for (const char* opts : {"", "-n", "-k2,2n -k1,1", "-u -k1,1", "-s -t, -k2,2"}) {
      SCOPED_TRACE(std::string(opts) + " seed " + std::to_string(seed));
      expect_same(opts, path("a") + " " + path("c") + " " + path("b") + " " + path("d"));
    }
  }
}

// Enough records that the chunk sort runs on several threads (slices merged
// through the k-way co-rank), in memory and with runs of many records.
TEST_F(Lines, ThreadedChunkSortMatchesGnu) {
  LineGenerator gen(99);
  std::string text;
  // Over 1 MiB, so that with more than two threads the input is split into
  // records by all of them, in RAM (--parallel 8) and in chunks (-S 9M).
  for (int i = 0; i < 150000; ++i) text += gen.field() + " " + gen.field() + "\n";
  write_file(path("in"), text);
  for (const char* opts : {"", "-k2,2n", "-u -k1,1", "-s -k1,1f"}) {
    Result g = gnu(std::string(opts) + " " + path("in") + " > " + path("want"));
    ASSERT_EQ(g.status, 0);
    // To a named file with several threads, each thread writes its own part of it.
    const std::vector<std::string> extras = {"--parallel 2", "--parallel 3 -S 300K", "--parallel 8",
                                             "--parallel 4 -S 9M", "--parallel 8 -o " + path("got"),
                                             "--parallel 5 --no-fsync -o " + path("got")};
    for (const std::string& extra : extras) {
      SCOPED_TRACE(std::string(opts) + " " + extra);
      const std::string to = extra.find(" -o ") == std::string::npos ? " > " + path("got") : "";
      Result r = run(std::string(opts) + " " + extra + " -T " + path("tmp") + " " + path("in") + to);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
    }
  }
}

// A line longer than a thread's part of a piece split by several threads:
// that part holds no record start (it was once a "vector::reserve" error).
// Read, and mapped where the input is in memory.
TEST_F(Lines, LinesLongerThanAThreadsPartOfAPiece) {
  std::string text;
  for (int i = 0; i < 60000; ++i)
    text += (i % 20000 == 11 ? std::string(700000, static_cast<char>('a' + i % 3)) : std::to_string(i * 7919 % 10007)) + "\n";
  write_file(path("in"), text);
  Result g = gnu(path("in") + " > " + path("want"));
  ASSERT_EQ(g.status, 0);
  for (const char* extra : {"--parallel 4", "--parallel 4 -S 6M", "--parallel 7 -S 20M"}) {
    for (const std::string& input : {path("in"), "- < " + path("in")}) {  // mapped, and read from standard input
      SCOPED_TRACE(std::string(extra) + " " + input);
      Result r = run(std::string(extra) + " -T " + path("tmp") + " " + input + " > " + path("got"));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
    }
  }
}

// --compress-temp: runs spilled and merged in several passes as zstd or gzip
// streams give the same output, and leave no temporary file. A codec is a
// byte stream under the records, whatever the keys: each codec runs with two
// option sets and each option set with two codecs.
TEST_F(Lines, CompressedSpilledRunsMatchGnu) {
  LineGenerator gen(31);
  write_file(path("in"), gen.text(3000));
  const char* const codecs[] = {"--compress-temp", "--compress-temp=gzip", "--compress-program=zstd",
                                "--compress-temp=xz", "--compress-program=/usr/bin/pbzip2"};
  const char* const option_sets[] = {"", "-k2,2n -k1,1", "-u -k1,1", "-s -t, -k2,2", "-z"};
  static_assert(std::size(codecs) == std::size(option_sets));
  for (std::size_t c = 0; c < std::size(codecs); ++c) {
    const char* codec = codecs[c];
    for (std::size_t o : {c, (c + 1) % std::size(option_sets)}) {
      const char* opts = option_sets[o];
      SCOPED_TRACE(std::string(codec) + " " + opts);
      ASSERT_EQ(gnu(std::string(opts) + " " + path("in") + " > " + path("want")).status, 0);
      const char* const budgets[] = {"-S 4K --parallel 1", "-S 300K --parallel 3"};
      for (std::size_t b = 0; b < std::size(budgets); ++b) {
        if (!sweep_.takes(b, std::size(budgets))) continue;
        const char* budget = budgets[b];
        Result r = run(std::string(codec) + " " + opts + " " + budget + " -v -T " + path("tmp") + " " + path("in") +
                          " > " + path("got"));
        ASSERT_EQ(r.status, 0) << budget << ": " << r.err;
        EXPECT_NE(r.err.find("spilled"), std::string::npos) << budget << ": " << r.err;
        EXPECT_TRUE(read_file(path("got")) == read_file(path("want"))) << budget;
        EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
      }
      sweep_.next();
    }
  }
}

// Each spilled run holds a descriptor. Under a limit of 64 open files (soft
// and hard, so corank cannot raise it) -S 4K cuts this input into hundreds of
// chunks: the runs are merged into fewer whenever they reach what the process
// may hold, and the output is GNU sort's.
TEST_F(Lines, TinyBudgetUnderALowOpenFileLimit) {
  LineGenerator gen(12);
  std::string text;
  for (int i = 0; i < 20000; ++i) text += gen.field() + " " + gen.field() + "\n";
  write_file(path("in"), text);
  ASSERT_EQ(gnu("-k2,2 " + path("in") + " > " + path("want")).status, 0);
  for (const char* threads : {"--parallel 1", "--parallel 3"}) {
    Result r = run_shell(under_open_file_limit(64, corank_bin() + " -k2,2 -S 4K " + threads + " -v -T " +
                                                       path("tmp") + " -o " + path("out") + " " + path("in")),
                         dir_ / "corank.err");
    ASSERT_EQ(r.status, 0) << threads << ": " << r.err;
    EXPECT_NE(r.err.find("spilled"), std::string::npos) << r.err;
    EXPECT_TRUE(read_file(path("out")) == read_file(path("want"))) << threads;
    EXPECT_TRUE(fs::is_empty(path("tmp")));
  }
}

TEST_F(Lines, ZeroTerminated) {
  LineGenerator gen(7);
  std::string text;
  for (int i = 0; i < 800; ++i) text += gen.line() + (gen.pick(5) == 0 ? "\nx" : "") + '\0';
  write_file(path("in"), text + "tail-without-nul");
  for (const char* opts : {"-z", "-zr", "-z -k2,2n", "-z -u -k1,1", "-z -t, -k2"}) {
    SCOPED_TRACE(opts);
    expect_same(opts, path("in"));
  }
}

TEST_F(Lines, EmptyInputsAndEmptyLines) {
  write_file(path("empty"), "");
  expect_same("", path("empty"));
  write_file(path("blank"), "\n\n\n");
  expect_same("-u", path("blank"));
  write_file(path("nonl"), "b\na");
  expect_same("", path("nonl") + " " + path("nonl"));
}

TEST_F(Lines, StandardInputAndOutputFileMayBeAnInput) {
  LineGenerator gen(11);
  write_file(path("in"), gen.text(2000));
  ASSERT_EQ(gnu("-k2,2n " + path("in") + " > " + path("want")).status, 0);
  Result r = run("-k2,2n -S 8K -T " + path("tmp") + " < " + path("in") + " > " + path("got"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
  r = run("-k2,2n -o " + path("in") + " " + path("in"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("in")) == read_file(path("want")));
}

TEST_F(Lines, CheckReportsTheFirstDisorderLikeGnu) {
  write_file(path("sorted"), "a\nb\nb\nc\n");
  write_file(path("unsorted"), "a\nc\nb\nd\n");
  for (const char* opts : {"-c", "-C", "-c -u", "-C -u", "-c -r", "--check=quiet", "-c -k1,1n"}) {
    for (const char* file : {"sorted", "unsorted"}) {
      SCOPED_TRACE(std::string(opts) + " " + file);
      Result g = gnu(std::string(opts) + " " + path(file));
      Result r = run(std::string(opts) + " " + path(file));
      EXPECT_EQ(r.status, g.status);
      std::string want = g.err;
      if (want.rfind("sort: ", 0) == 0) want = "corank: " + want.substr(6);
      EXPECT_EQ(r.err, want);
    }
  }
}

TEST_F(Lines, MergeOfSortedInputsMatchesGnu) {
  LineGenerator gen(5);
  for (const char* opts : {"", "-n", "-k2,2 -s", "-u", "-r"}) {
    SCOPED_TRACE(opts);
    for (const char* f : {"a", "b", "c"}) {
      write_file(path(std::string(f) + ".raw"), gen.text(400));
      ASSERT_EQ(gnu(std::string(opts) + " " + path(std::string(f) + ".raw") + " > " + path(f)).status, 0);
    }
    expect_same(std::string("-m ") + opts, path("a") + " " + path("b") + " " + path("c"));
  }
}

// -m's inputs that can be read once, named by their paths: a pipe as
// /dev/stdin, a FIFO (whose writer is gone once read), in one batch or two.
TEST_F(Lines, MergeReadsPipesNamedByTheirPaths) {
  write_file(path("b"), "b\nd\n");
  for (const char* batch : {"", "--batch-size=2 "}) {
    SCOPED_TRACE(batch);
    Result r = run_shell("printf 'a\\nc\\n' | " + corank_bin() + " -m " + batch + "/dev/stdin " + path("b") + " " +
                             path("b") + " > " + path("got"),
                         dir_ / "corank.err");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("got")), "a\nb\nb\nc\nd\nd\n");
    fs::remove(path("fifo"));
    r = run_shell("mkfifo " + path("fifo") + " && (printf 'a\\nc\\n' > " + path("fifo") + " &) && timeout 60 " +
                      corank_bin() + " -m " + batch + path("fifo") + " " + path("b") + " " + path("b") + " > " + path("got"),
                  dir_ / "corank.err");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("got")), "a\nb\nb\nc\nd\nd\n");
  }
}

// More inputs than corank keeps open at once: the rest are reopened in turn.
TEST_F(Lines, ManyInputFiles) {
  LineGenerator gen(123);
  std::string list;
  for (int i = 0; i < 150; ++i) {
    const std::string name = "f" + std::to_string(i);
    write_file(path(name), gen.text(3 + gen.pick(5)));
    list += path(name) + '\0';
  }
  write_file(path("list"), list);
  Result r = run("-k2,2 --files0-from=" + path("list") + " -o " + path("got"));
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(gnu("-k2,2 --files0-from=" + path("list") + " -o " + path("want")).status, 0);
  EXPECT_TRUE(read_file(path("got")) == read_file(path("want")));
}

// -R: a shuffle that keeps equal keys together; --random-source fixes it.
TEST_F(Lines, RandomSortGroupsEqualKeysAndFollowsTheRandomSource) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += std::to_string(i) + " k" + std::to_string(i % 97) + "\n";
  write_file(path("in"), text);
  std::string seed1(64, 'a'), seed2(64, 'b');
  write_file(path("seed1"), seed1);
  write_file(path("seed2"), seed2);
  auto sorted_with = [&](const std::string& opts) {
    Result r = run(opts + " -T " + path("tmp") + " " + path("in") + " > " + path("out"));
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(path("out"));
  };
  const std::string a = sorted_with("-k2,2R --random-source=" + path("seed1"));
  EXPECT_EQ(sorted_with("-S 8K --parallel 2 -k2,2R --random-source=" + path("seed1")), a);  // spilled runs: the same order
  EXPECT_NE(sorted_with("-k2,2R --random-source=" + path("seed2")), a);
  EXPECT_NE(a, text);
  // A permutation of the input, each key's lines together, those in byte order
  // (the last-resort comparison).
  std::vector<std::string> lines, input;
  for (std::size_t s = 0, e; (e = a.find('\n', s)) != std::string::npos; s = e + 1) lines.push_back(a.substr(s, e - s));
  for (std::size_t s = 0, e; (e = text.find('\n', s)) != std::string::npos; s = e + 1) input.push_back(text.substr(s, e - s));
  std::vector<std::string> sorted_out = lines;
  std::sort(sorted_out.begin(), sorted_out.end());
  std::sort(input.begin(), input.end());
  EXPECT_EQ(sorted_out, input);
  std::set<std::string> finished;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string key = lines[i].substr(lines[i].find(' ') + 1);
    if (i > 0) {
      const std::string prev = lines[i - 1].substr(lines[i - 1].find(' ') + 1);
      if (prev != key) {
        EXPECT_TRUE(finished.insert(prev).second) << "key " << prev << " appears twice apart";
      } else {
        EXPECT_LT(lines[i - 1], lines[i]);
      }
    }
  }
  // An empty random source is an error.
  write_file(path("empty"), "");
  Result r = run("-R --random-source=" + path("empty") + " " + path("in") + " -o " + path("o2"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("end of file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("o2")));
}

// --stats - writes the document to standard output, with the request in it.
TEST_F(Lines, StatsOnStandardOutput) {
  write_file(path("in"), "b\na\n");
  Result r = run("--stats - -k1,1 -o " + path("out") + " " + path("in") + " > " + path("stats"));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string s = read_file(path("stats"));
  EXPECT_NE(s.find("\"corank_version\": "), std::string::npos) << s;
  EXPECT_NE(s.find("\"inputs\": [\"" + path("in") + "\"]"), std::string::npos) << s;
  EXPECT_NE(s.find("\"keys\":[\"1,1\"]"), std::string::npos) << s;
  EXPECT_NE(s.find("\"nulls\":\"last\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"records_in\": 2"), std::string::npos) << s;
  EXPECT_EQ(read_file(path("out")), "a\nb\n");
  EXPECT_FALSE(fs::exists(path("-")));
  r = run("--stats - " + path("in"));  // both on standard output: refused before sorting
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--stats -"), std::string::npos) << r.err;
}


}  // namespace
