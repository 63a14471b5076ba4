// The command line as GNU sort reads it, checked against the GNU sort on this
// machine: every abbreviation of GNU's long options means what it means there,
// corank's own options take the prefixes GNU leaves free, and operands after
// "--" are sorted; inputs and output are checked before sorting, in GNU's
// words. And --stats with -c and -C.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cli_test_util.hpp"
#include "corank/cli/args.hpp"

namespace {

namespace fs = std::filesystem;
using corank::test::corank_bin;
using corank::test::read_file;
using corank::test::Result;
using corank::test::run_shell;
using corank::test::write_file;

// GNU sort 9.4's long options (coreutils src/sort.c, long_options[]; 9.1's are
// the same) and whether each takes an argument: 0 none, 1 required, 2 optional.
struct GnuOption {
  std::string_view name;
  int has_arg;
};
constexpr GnuOption kGnuSortLongOptions[] = {
    {"ignore-leading-blanks", 0}, {"check", 2}, {"compress-program", 1}, {"debug", 0}, {"dictionary-order", 0},
    {"ignore-case", 0}, {"files0-from", 1}, {"general-numeric-sort", 0}, {"ignore-nonprinting", 0}, {"key", 1},
    {"merge", 0}, {"month-sort", 0}, {"numeric-sort", 0}, {"human-numeric-sort", 0}, {"version-sort", 0},
    {"random-sort", 0}, {"random-source", 1}, {"sort", 1}, {"output", 1}, {"reverse", 0}, {"stable", 0},
    {"batch-size", 1}, {"buffer-size", 1}, {"field-separator", 1}, {"temporary-directory", 1}, {"unique", 0},
    {"zero-terminated", 0}, {"parallel", 1}, {"help", 0}, {"version", 0}};

// The prefixes of GNU's options that GNU resolves: those of one option only,
// and each full name.
std::vector<std::pair<std::string, GnuOption>> gnu_abbreviations() {
  std::vector<std::pair<std::string, GnuOption>> out;
  for (const GnuOption& o : kGnuSortLongOptions)
    for (std::size_t n = 1; n <= o.name.size(); ++n) {
      const std::string_view prefix = o.name.substr(0, n);
      int owners = 0;
      for (const GnuOption& other : kGnuSortLongOptions) owners += other.name.starts_with(prefix);
      if (owners == 1 || n == o.name.size()) out.emplace_back(std::string(prefix), o);
    }
  return out;
}

// Commands run in the test's directory, so that file names are short.
class Options : public corank::test::CorankTest {
protected:
  Result gnu(const std::string& args) { return in_dir("LC_ALL=C sort " + args, "gnu.err"); }
  Result run(const std::string& args) { return in_dir(fs::absolute(corank_bin()).string() + " " + args, "corank.err"); }

  // GNU's stderr as corank words it: its name for sort's.
  static std::string as_corank(std::string text) {
    auto replace_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    };
    replace_all("Try 'sort --help'", "Try 'corank --help'");
    replace_all("\nsort: ", "\ncorank: ");
    if (text.starts_with("sort: ")) text.replace(0, 4, "corank");
    return text;
  }

  Result in_dir(const std::string& cmd, const char* err) { return run_shell("cd " + dir_.string() + " && " + cmd, dir_ / err); }
};

// The first line of what parse_args says of `args` (corank's argv after the
// program's name): getopt's own, or its error's as the program prints it.
std::string parse_error(const std::vector<std::string>& args) {
  std::vector<std::string> storage{"corank"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::FILE* captured = std::tmpfile();
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(::fileno(captured), STDERR_FILENO);
  std::string message;
  try {
    (void)corank::cli::parse_args(static_cast<int>(argv.size()) - 1, argv.data());
  } catch (const std::exception& e) {
    if (*e.what()) message = "corank: " + std::string(e.what()) + "\n";
  }
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::rewind(captured);
  std::string getopt_said;
  for (int c; (c = std::fgetc(captured)) != EOF;) getopt_said.push_back(static_cast<char>(c));
  std::fclose(captured);
  const std::string said = getopt_said + message;
  return said.substr(0, said.find('\n') + 1);
}

// Each abbreviation names its option in the message of a misuse: an argument
// given to an option that takes none, none given to one that needs it, a bad
// value for --check. GNU's message names the option in full, so the two
// programs agree only where they read the same option. GNU sort runs every
// probe in one shell; corank's parser runs in this process.
TEST_F(Options, GnusAbbreviationsNameGnusOptions) {
  const auto abbreviations = gnu_abbreviations();
  ASSERT_GT(abbreviations.size(), 200u);
  std::vector<std::vector<std::string>> probes;
  std::string script;
  for (const auto& [prefix, option] : abbreviations) {
    probes.push_back(option.has_arg == 0   ? std::vector<std::string>{"in", "--" + prefix + "=x"}
                     : option.has_arg == 1 ? std::vector<std::string>{"in", "--" + prefix}
                                           : std::vector<std::string>{"--" + prefix + "=bogus", "in"});
    script += "LC_ALL=C sort";
    for (const std::string& a : probes.back()) script += " " + a;
    script += " </dev/null 2>&1; echo @@\n";
  }
  write_file(path("in"), "b\na\n");
  write_file(path("probes.sh"), script);
  ASSERT_EQ(in_dir("bash probes.sh > gnu.out", "gnu.err").status, 0);
  const std::string gnu_said = read_file(path("gnu.out"));
  std::size_t at = 0;
  for (const auto& probe : probes) {
    const std::size_t end = gnu_said.find("@@\n", at);
    ASSERT_NE(end, std::string::npos) << "GNU sort answered fewer probes";
    const std::string said = gnu_said.substr(at, end - at);
    const std::string want = as_corank(said.substr(0, said.find('\n') + 1));
    at = end + 3;
    SCOPED_TRACE(probe[0] + " " + probe[1]);
    ASSERT_TRUE(want.starts_with("corank: ")) << want;
    EXPECT_EQ(parse_error(probe), want);
  }
}

// The abbreviations of coreutils' tests/sort/sort.pl and of the reports, at
// work: the output is GNU's.
TEST_F(Options, GnusAbbreviationsSortAsGnuSorts) {
  std::string sevens;
  for (int i = 0; i < 11; ++i) sevens += "7\n";
  write_file(path("sevens"), sevens + "1\n");
  write_file(path("fields"), "b,10 x\na,9 y\nc,10 x\na,9 y\n");
  for (const std::string args : {"--p=1 -S32b -u sevens", "-u -k2,2 --p=1 -S32b fields", "--nu -t, -k2 fields",
                                  "--st -t, -k2,2 fields", "--t=tmp -S32b --co=gzip fields", "--rev --uni fields",
                                  "--ke=2 --field=, fields", "--so=n -t, -k2 fields", "--z sevens"}) {
    SCOPED_TRACE(args);
    const Result g = gnu("-T tmp " + args + " > want");
    ASSERT_EQ(g.status, 0) << g.err;
    const Result r = run("-T tmp " + args + " > got");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("got")), read_file(path("want")));
  }
  // An option's argument is never read as an abbreviation: -o --p names a file.
  ASSERT_EQ(gnu("-o --p sevens").status, 0);
  fs::rename(path("--p"), path("want"));
  ASSERT_EQ(run("-o --p sevens").status, 0);
  EXPECT_EQ(read_file(path("--p")), read_file(path("want")));
  // --de and --he: GNU's --debug and --help.
  Result r = run("--de -k1,1 sevens > got");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read_file(path("got")).find("7\n_\n"), std::string::npos);
  r = run("--he > got");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(path("got")).starts_with("Usage: corank")) << read_file(path("got"));
}

// corank's own options take a prefix that GNU leaves free, or their full name;
// one that abbreviates two of them gets getopt's message.
TEST_F(Options, OwnOptionsTakeThePrefixesGnuLeavesFree) {
  write_file(path("in"), "b\na\n");
  Result r = run("--stat stats.json --prog --compress-t=gz -o out in");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(read_file(path("stats.json")).find("\"records_in\": 2"), std::string::npos);
  EXPECT_NE(r.err.find("100%"), std::string::npos) << r.err;  // the progress line
  EXPECT_EQ(read_file(path("out")), "a\nb\n");
  EXPECT_EQ(run("--stats=stats2.json in > out").status, 0);
  EXPECT_TRUE(fs::exists(path("stats2.json")));
  const std::pair<const char*, const char*> ambiguous[] = {
      {"--no-", "'--no-fsync' '--no-progress'"},
      {"--nul=x", "'--null' '--nulls'"},
      {"--s=x", "'--sort' '--stable' '--stats'"},
      {"--ver", "'--verbose' '--verify' '--version' '--version-sort'"},
  };
  for (const auto& [arg, possibilities] : ambiguous) {
    r = run(std::string(arg) + " in");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "corank: option '" + std::string(arg) + "' is ambiguous; possibilities: " + possibilities +
                         "\nTry 'corank --help' for more information.\n");
  }
}

// A program's own options (corank-mpi's) are parsed with corank's: in order
// among them, by prefix, with the argument attached or apart; what they are
// given comes back for the program, corank's own are read as ever.
TEST(OwnOptions, ParsedBesideCoranksAndHandedBack) {
  enum : int { kFlag = corank::cli::kOwnOptionCodes, kHow };
  const option own[] = {{"flag-files", no_argument, nullptr, kFlag}, {"how", required_argument, nullptr, kHow}};
  std::vector<std::string> storage{"prog", "--ho", "always", "-n", "--flag", "in", "--how=parts", "-o", "out"};
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto inv = corank::cli::parse_args(static_cast<int>(argv.size()) - 1, argv.data(), "prog", false, own);
  const std::vector<std::pair<int, std::string>> want{{kHow, "always"}, {kFlag, ""}, {kHow, "parts"}};
  EXPECT_EQ(inv.own_options, want);
  EXPECT_EQ(inv.request.inputs, std::vector<std::string>{"in"});
  EXPECT_EQ(inv.request.output, "out");
  EXPECT_EQ(inv.request.ordering, "n");
  // Without them, corank's parser knows none of them.
  EXPECT_EQ(parse_error({"--how=x", "in"}), "corank: unrecognized option '--how=x'\n");
}

// Everything after "--" is an operand, even "-" or what looks like an option.
TEST_F(Options, OperandsAfterDoubleDashAreSorted) {
  write_file(path("in"), "b\na\n");
  write_file(path("-n"), "10\n9\n");
  for (const std::string args : {"-- in", "-r -- in -n", "-n -- -n - in", "-- -"}) {
    SCOPED_TRACE(args);
    const Result g = gnu(args + " < in > want");
    ASSERT_EQ(g.status, 0) << g.err;
    const Result r = run(args + " < in > got");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_file(path("got")), read_file(path("want")));
  }
}

// As GNU sort does, every input is found readable and the output possible
// before anything is sorted; the messages are GNU's. Nothing is created.
TEST_F(Options, InputsAndOutputAreCheckedFirst) {
  write_file(path("in"), "b\na\n");
  for (const std::string args : {"no-file", "-o no-file no-file", "-o no/such/file in", "-o '' in", "in no-file -o out",
                                 "''", "-o in/x in", "-c no-file", "in -o out ''", "--files0-from=", "--files0-from= in",
                                 "-R --random-source= in"}) {
    SCOPED_TRACE(args);
    const Result g = gnu(args + " < in > /dev/null");
    const Result r = run(args + " < in > /dev/null");
    EXPECT_EQ(g.status, 2);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, as_corank(g.err));
    EXPECT_FALSE(fs::exists(path("out")));
    EXPECT_FALSE(fs::exists(path("no-file")));
  }
}

// File names in messages are quoted as GNU quotes them (quotef: spaces,
// shell characters, a colon, a leading # or ~, bytes that are not printable
// characters of LC_CTYPE), in the C locale and in UTF-8, for a missing input,
// an output in a missing directory, a directory given as input, and a -T
// directory that is missing (always quoted there, as GNU's quoteaf does).
TEST_F(Options, FileNamesInMessagesAreQuotedAsGnusAre) {
  write_file(path("in"), "b\na\n");
  std::string lines;  // more than -S 1k holds: both sorts make a temporary file
  for (int i = 0; i < 4000; ++i) lines += std::to_string(i * 7919 % 4001) + "\n";
  write_file(path("big"), lines);
  const std::vector<std::string> names = {"plain", "a b", "it's", "it's $x", "''", "a\tb", "a\nb", "\xc3\xa9",
                                          "\xc3\xa9:", "\xff", "\x7f", "~x", "x~", "#a", "a#", "a=b", "{", "{}",
                                          "a:b", "a\\b", "?", "[x", "x]", "@x", "a%+,-./_]z"};
  int i = 0;
  for (const std::string& name : names) {
    const std::string file = "name" + std::to_string(i++);
    write_file(path(file), name);
    ASSERT_EQ(in_dir("mkdir -p dirs/\"$(cat " + file + ")\"", "mkdir.err").status, 0);
    for (const std::string locale : {"C", "C.UTF-8"}) {
      SCOPED_TRACE(file + " " + locale);
      const std::string name_of = "\"$(cat " + file + ")\"";
      std::vector<std::string> cases = {"-- " + name_of + " < in", "-o no/such/" + name_of + " in"};
      if (locale != "C") {  // the same quoting as the two above, in one locale
        cases.push_back("-- dirs/" + name_of);
        cases.push_back("-S 1k -T no/such/" + name_of + " big");
      }
      for (const std::string& args : cases) {
        const Result g = in_dir("LC_ALL=" + locale + " sort " + args + " > /dev/null", "gnu.err");
        const Result r = in_dir("LC_ALL=" + locale + " " + fs::absolute(corank_bin()).string() + " " + args + " > /dev/null",
                                "corank.err");
        EXPECT_EQ(g.status, 2);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, as_corank(g.err));
      }
    }
  }
}

// POSIXLY_CORRECT and _POSIX2_VERSION as GNU sort reads them: after the first
// operand every element is an operand, but an -o where the obsolete forms are
// read (not under -c); the obsolete keys +POS1 [-POS2] are read unless the
// edition is one of 2001 to before 2008, where a -POS2 turns them on unless
// POSIXLY_CORRECT is set. The same output, messages and status as GNU's.
TEST_F(Options, PosixlyCorrectAndTheEditionAreReadAsGnuReadsThem) {
  write_file(path("in"), "b 2\na 1\nc 0\n");
  for (const std::string env : {"", "POSIXLY_CORRECT=1", "_POSIX2_VERSION=200112", "_POSIX2_VERSION=199209",
                                "POSIXLY_CORRECT=1 _POSIX2_VERSION=200112", "_POSIX2_VERSION=x"}) {
    for (const std::string args : {"in -r", "-r in", "+1 in", "+1 -2 in", "in +1", "in -o out", "in -oout", "in -o",
                                   "-c in -o out", "in -- -r", "-r -- in -n", "+1", "in -k2", "in --rev"}) {
      SCOPED_TRACE("[" + env + "] " + args);
      const Result g = in_dir("env " + env + " sort " + args + " < in > gnu.out", "gnu.err");
      const std::string gnu_out = read_file(path("gnu.out")), gnu_file = fs::exists(path("out")) ? read_file(path("out")) : "-";
      fs::remove(path("out"));
      const Result r = in_dir("env " + env + " " + fs::absolute(corank_bin()).string() + " " + args + " < in > corank.out",
                              "corank.err");
      EXPECT_EQ(r.status, g.status);
      EXPECT_EQ(r.err, as_corank(g.err));
      EXPECT_EQ(read_file(path("corank.out")), gnu_out);
      EXPECT_EQ(fs::exists(path("out")) ? read_file(path("out")) : "-", gnu_file);
      fs::remove(path("out"));
    }
  }
}

// -R's key takes -R: --debug finds no option ignored, as GNU's does not;
// without -R an empty --random-source names no file that is read.
TEST_F(Options, RandomSortsDebugWarningsAreGnus) {
  write_file(path("in"), "b\na\n");
  for (const std::string args : {"--debug -R in", "--debug -R -k1,1 in"}) {
    SCOPED_TRACE(args);
    const Result g = gnu(args + " > /dev/null");
    const Result r = run(args + " > /dev/null");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, as_corank(g.err));
  }
  const Result r = run("--random-source= in > got");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(path("got")), "a\nb\n");
}

// --help and --version that cannot be written exit 2 with GNU's message.
TEST_F(Options, HelpAndVersionThatCannotBeWrittenAreErrors) {
  for (const std::string args : {"--help > /dev/full", "--version > /dev/full", "--help >&-", "--version >&-"}) {
    SCOPED_TRACE(args);
    EXPECT_EQ(gnu(args).status, 2);
    const Result r = run(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.err.starts_with("corank: write error")) << r.err;
  }
}

// -c and -C write the check's statistics: sorted or not, and where the first
// disorder is (GNU's own diagnostic for text lines).
TEST_F(Options, CheckWritesItsStatistics) {
  write_file(path("sorted"), "a\nb\nb\n");
  write_file(path("unsorted"), "a\nc\nb\nd\n");
  Result r = run("-c --stats stats.json sorted");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string s = read_file(path("stats.json"));
  EXPECT_NE(s.find("\"mode\": \"check\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"sorted\": true"), std::string::npos) << s;
  EXPECT_NE(s.find("\"disorder\": null"), std::string::npos) << s;
  EXPECT_NE(s.find("\"inputs\": [\"sorted\"]"), std::string::npos) << s;
  EXPECT_NE(s.find("\"seconds\": {\"total\":"), std::string::npos) << s;
  const Result g = gnu("-c unsorted");
  ASSERT_EQ(g.status, 1);
  ASSERT_TRUE(g.err.starts_with("sort: unsorted:3: disorder: b\n")) << g.err;
  for (const char* check : {"-c", "-C", "--check=quiet"}) {
    SCOPED_TRACE(check);
    r = run(std::string(check) + " --stats - unsorted > stats.json");
    EXPECT_EQ(r.status, 1) << r.err;
    s = read_file(path("stats.json"));
    EXPECT_NE(s.find("\"sorted\": false"), std::string::npos) << s;
    EXPECT_NE(s.find("\"disorder\": {\"record_number\":3,\"diagnostic\":\"unsorted:3: disorder: b\"}"),
              std::string::npos)
        << s;
  }
  // -u: equal neighbours are disorder, the third line here.
  r = run("-cu --stats stats.json sorted");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(read_file(path("stats.json")).find("\"record_number\":3,"), std::string::npos);
  // Binary records: the 1-based number of the first one smaller than the one before.
  const std::uint32_t words[] = {1, 5, 9, 7, 8};
  write_file(path("words"), words, sizeof words);
  r = run("-c --format u32 --stats stats.json words");
  EXPECT_EQ(r.status, 1);
  s = read_file(path("stats.json"));
  EXPECT_NE(s.find("\"record_number\":4,"), std::string::npos) << s;
  EXPECT_NE(s.find("\"format\":\"u32\""), std::string::npos) << s;
}

}  // namespace
