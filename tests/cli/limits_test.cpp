// The limits a sort keeps (README: -S, ulimit -n, ulimit -v), end to end on a
// few MB with tiny budgets: peak resident memory (wait4's ru_maxrss) within
// 1.1 x -S plus what the program holds sorting nothing, for text and binary
// records, under a low open-file limit too (it shapes merges, never memory);
// a sort and -m over many files within a low open-file limit, and one that
// cannot be done saying which limit is too low; a sort within an
// address-space limit, and memory exhausted under one naming it; a -S beyond
// the machine.
// Outputs are checked against GNU sort (text) or a memcmp sort (gensort).
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "../asan_build.hpp"

namespace corank::test {
namespace {

constexpr long long kMiB = 1 << 20;

struct Limits {
  rlim_t open_files = RLIM_INFINITY;  // RLIMIT_NOFILE, soft and hard
  rlim_t address_space = RLIM_INFINITY;  // RLIMIT_AS
};

struct Outcome {
  int status = -1;
  long long peak = 0;  // bytes
  std::string err;
};

class Limit : public CorankTest {
protected:
  // Runs corank with `args` (no shell) under `limits`, with only standard
  // input, output and error open (a limit on descriptors then means what it
  // says), stderr into a file.
  Outcome run_limited(const std::vector<std::string>& args, const Limits& limits = {}) {
    // A child's ru_maxrss counts what it held before exec, a copy of this
    // process: the memory of the data written and freed goes back first.
    ::malloc_trim(0);
    std::vector<std::string> copy = args;
    std::string bin = corank_bin();
    std::vector<char*> argv{bin.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string err = path("stderr");
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (e < 0 || ::dup2(e, 2) < 0) ::_exit(126);
      for (int fd = 3; fd < 4096; ++fd) ::close(fd);
      if (limits.open_files != RLIM_INFINITY) {
        const rlimit l{limits.open_files, limits.open_files};
        if (::setrlimit(RLIMIT_NOFILE, &l) != 0) ::_exit(126);
      }
      if (limits.address_space != RLIM_INFINITY) {
        const rlimit l{limits.address_space, limits.address_space};
        if (::setrlimit(RLIMIT_AS, &l) != 0) ::_exit(126);
      }
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    Outcome o;
    int status = 0;
    struct rusage ru {};
    if (::wait4(pid, &status, 0, &ru) != pid) return o;
    o.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    o.peak = static_cast<long long>(ru.ru_maxrss) * 1024;
    o.err = read_file(err);
    return o;
  }

  // -S B -T tmp -o out, then `rest`.
  std::vector<std::string> sort_args(const std::string& budget, std::vector<std::string> rest) {
    std::vector<std::string> a{"-S", budget, "-T", path("tmp"), "-o", path("out")};
    a.insert(a.end(), rest.begin(), rest.end());
    return a;
  }

  // What the program holds sorting (almost) nothing with the same options:
  // its code, libraries, stacks and engines.
  long long own_memory(const std::vector<std::string>& format_args, const std::string& budget, const std::string& tiny) {
    std::vector<std::string> rest = format_args;
    rest.push_back(tiny);
    const Outcome o = run_limited(sort_args(budget, rest));
    EXPECT_EQ(o.status, 0) << o.err;
    return o.peak;
  }

  // Random log lines, ~88 bytes each.
  void write_log_lines(const std::string& name, std::size_t lines, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::string text;
    text.reserve(lines * 96);
    char line[160];
    for (std::size_t i = 0; i < lines; ++i) {
      const int n = std::snprintf(line, sizeof line,
                                  "2026-11-%02uT%02u:%02u:%02u.%06uZ INFO web-%03u GET /api/v1/users/%u status=%u took=%ums\n",
                                  static_cast<unsigned>(rng() % 28 + 1), static_cast<unsigned>(rng() % 24),
                                  static_cast<unsigned>(rng() % 60), static_cast<unsigned>(rng() % 60),
                                  static_cast<unsigned>(rng() % 1000000), static_cast<unsigned>(rng() % 40),
                                  static_cast<unsigned>(rng() % 100000), static_cast<unsigned>(200 + rng() % 4 * 100),
                                  static_cast<unsigned>(rng() % 3000));
      text.append(line, static_cast<std::size_t>(n));
    }
    write_file(path(name), text);
  }

  // n gensort-like records (10-byte random key, 90 bytes of payload naming
  // the record), and their stable order by key.
  void write_gensort(const std::string& name, std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> recs(n * 100);
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char* r = &recs[i * 100];
      for (int b = 0; b < 10; ++b) r[b] = static_cast<unsigned char>(rng() % 64);  // ties abound
      std::snprintf(reinterpret_cast<char*>(r + 10), 90, "%089zu", i);
    }
    write_file(path(name), recs.data(), recs.size());
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return std::memcmp(&recs[a * 100], &recs[b * 100], 10) < 0; });
    std::vector<unsigned char> want;
    want.reserve(recs.size());
    for (std::size_t i : order) want.insert(want.end(), &recs[i * 100], &recs[i * 100] + 100);
    write_file(path(name + ".want"), want.data(), want.size());
  }

  // GNU sort's output for `gnu_args` (shell syntax) into `name`.
  void gnu_sort(const std::string& gnu_args, const std::string& name) {
    ASSERT_EQ(std::system(("LC_ALL=C sort " + gnu_args + " > " + path(name)).c_str()), 0);
  }

  bool tmp_is_empty() const { return fs::is_empty(dir_ / "tmp"); }
};

// Peak RSS within 1.1 x -S plus the constant README states: what the program
// holds sorting nothing, and kSpillingOwn for the threads, rings and stacks
// that a sort that spills starts besides.
constexpr long long kSpillingOwn = kMiB;
void expect_within(long long peak, long long own, long long budget, const std::string& what) {
  EXPECT_GT(peak, 0) << what;
  EXPECT_LE(peak, budget + budget / 10 + own + kSpillingOwn)
      << what << ": peak " << peak << " bytes, own " << own << ", -S " << budget;
}

TEST_F(Limit, TextStaysWithinTheBudget) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "under AddressSanitizer its shadow memory and quarantine are resident too";
#endif
  // 21 MB of lines against budgets of 1 and 3 MiB: thousands of runs, whose
  // samples, and the input's mapping, once grew with the input (17 MB at -S 1M).
  write_log_lines("in", 240000, 5);
  write_file(path("tiny"), "b\na\n");
  gnu_sort(path("in"), "want");
  for (const std::string budget : {"1M", "3M"}) {
    const long long own = own_memory({"--parallel", "2"}, budget, path("tiny"));
    const Outcome o = run_limited(sort_args(budget, {"--parallel", "2", path("in")}));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(read_file(path("out")), read_file(path("want"))) << budget;
    expect_within(o.peak, own, std::stoll(budget) * kMiB, "text at -S " + budget);
    // Sorted, the lines stream into the output past a window that -S holds too.
    const Outcome s = run_limited(sort_args(budget, {"--parallel", "2", "-v", path("want")}));
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_NE(s.err.find("streaming one run"), std::string::npos) << s.err;
    EXPECT_EQ(read_file(path("out")), read_file(path("want"))) << budget;
    expect_within(s.peak, own, std::stoll(budget) * kMiB, "sorted text at -S " + budget);
  }
}

// A shell glob of logs: every input is opened at the start (so that an
// unreadable one fails before any output exists), but only the one being read
// holds read-ahead buffers. 40 files once held theirs all at once, 2.6 x -S.
TEST_F(Limit, ManyInputFilesStayWithinTheBudget) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "under AddressSanitizer its shadow memory and quarantine are resident too";
#endif
  std::vector<std::string> args{"--parallel", "2"};
  std::string globbed;
  for (unsigned f = 0; f < 40; ++f) {
    const std::string name = "in" + std::to_string(100 + f);
    write_log_lines(name, 6000, 50 + f);
    args.push_back(path(name));
    globbed += " " + path(name);
  }
  write_file(path("tiny"), "b\na\n");
  gnu_sort(globbed, "want");
  const std::string budget = "3M";
  const long long own = own_memory({"--parallel", "2"}, budget, path("tiny"));
  const Outcome o = run_limited(sort_args(budget, args));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(read_file(path("out")), read_file(path("want")));
  expect_within(o.peak, own, 3 * kMiB, "40 inputs at -S 3M");
  EXPECT_TRUE(tmp_is_empty());
}

TEST_F(Limit, GensortStaysWithinTheBudget) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "under AddressSanitizer its shadow memory and quarantine are resident too";
#endif
  // 10 MB at 1 and 3 MiB: the runs' sparse index, and the engines' blocks of
  // a sink per run, once grew with the runs (24 MB at -S 1M).
  write_gensort("in", 100000, 7);
  write_gensort("tiny", 10, 8);
  for (const std::string budget : {"1M", "3M"}) {
    const long long own = own_memory({"--format", "gensort", "--parallel", "2"}, budget, path("tiny"));
    const Outcome o = run_limited(sort_args(budget, {"--format", "gensort", "--parallel", "2", path("in")}));
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(read_file(path("out")), read_file(path("in.want"))) << budget;
    expect_within(o.peak, own, std::stoll(budget) * kMiB, "gensort at -S " + budget);
  }
}

TEST_F(Limit, ALowOpenFileLimitShapesMergesNotMemory) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (UBSan's vptr check probes memory "
                  "through a pipe), which so low a limit takes away";
#endif
  // 12 descriptors: standard input, output and error, the input, the output,
  // and what is left for runs. Runs are merged early instead of growing past
  // -S (a limit of 32 once took runs of 1/16 of the input each).
  write_log_lines("in", 120000, 9);
  write_gensort("g", 60000, 10);
  write_file(path("tiny"), "b\na\n");
  write_gensort("gtiny", 10, 8);
  gnu_sort(path("in"), "want");
  const Limits low{.open_files = 12};
  struct Case {
    std::vector<std::string> args;
    std::string tiny, want;
  };
  for (const Case& c : {Case{{"--parallel", "2"}, "tiny", "want"},
                        Case{{"--format", "gensort", "--parallel", "2"}, "gtiny", "g.want"}}) {
    std::vector<std::string> args = c.args;
    args.push_back(path(c.want == "want" ? "in" : "g"));
    const Outcome o = run_limited(sort_args("2M", args), low);
    ASSERT_EQ(o.status, 0) << c.args[0] << ": " << o.err;
    EXPECT_EQ(read_file(path("out")), read_file(path(c.want))) << c.args[0];
    EXPECT_TRUE(tmp_is_empty());
#ifndef CORANK_TEST_ASAN
    std::vector<std::string> tiny = c.args;
    tiny.push_back(path(c.tiny));
    const Outcome own = run_limited(sort_args("2M", tiny), low);
    ASSERT_EQ(own.status, 0) << own.err;
    expect_within(o.peak, own.peak, 2 * kMiB, c.args[0] + " under ulimit -n 12");
#endif
  }
}

TEST_F(Limit, TooFewDescriptorsNameTheLimit) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (UBSan's vptr check probes memory "
                  "through a pipe), which so low a limit takes away";
#endif
  // Standard input, output and error, the input and the output: nothing left
  // for the runs a spilling sort holds.
  write_log_lines("in", 40000, 11);
  const Outcome o = run_limited(sort_args("1M", {path("in")}), Limits{.open_files = 5});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("ulimit -n"), std::string::npos) << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_FALSE(fs::exists(path("out")));
  EXPECT_TRUE(tmp_is_empty());
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".out.corank"), std::string::npos) << e.path();
}

TEST_F(Limit, MergeOfManyFilesWithinTheOpenFileLimit) {
  // GNU sort's -m merges a batch of inputs into a temporary and goes on: 300
  // sorted files under a limit of 24, in batches as wide as the descriptors
  // allow or --batch-size says, -u across batches too.
  fs::create_directories(dir_ / "m");
  std::mt19937_64 rng(13);
  std::vector<std::string> files;
  for (int f = 0; f < 300; ++f) {
    std::vector<std::string> lines;
    for (int i = 0; i < 20; ++i) lines.push_back(std::to_string(rng() % 5000) + " f" + std::to_string(f));
    std::sort(lines.begin(), lines.end());
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    files.push_back((dir_ / "m" / ("f" + std::to_string(1000 + f))).string());
    write_file(files.back(), text);
  }
  const std::string glob = (dir_ / "m").string() + "/f*";
  gnu_sort("-m " + glob, "want");
  gnu_sort("-m -u -t' ' -k1,1 " + glob, "want.u");
  struct Case {
    std::vector<std::string> opts;
    std::string want;
  };
  for (const Case& c : {Case{{}, "want"}, Case{{"--batch-size=4"}, "want"},
                        Case{{"-u", "-t", " ", "-k1,1"}, "want.u"}}) {
    std::vector<std::string> args{"-m"};
    args.insert(args.end(), c.opts.begin(), c.opts.end());
    args.insert(args.end(), files.begin(), files.end());
    const Outcome o = run_limited(sort_args("1M", args), Limits{.open_files = 24});
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(read_file(path("out")), read_file(path(c.want))) << (c.opts.empty() ? "" : c.opts[0]);
    EXPECT_TRUE(tmp_is_empty());
  }
}

// -S beyond the machine's memory and swap (1000 TiB): the sort plans within
// what the machine has, as GNU sort's buffers shrink to what the system
// gives. A pipe, and a file whose last line has no newline (read, not
// mapped), once failed with "memory exhausted": a third of -S asked at once.
TEST_F(Limit, ABudgetBeyondTheMachineSortsWithinIt) {
  write_file(path("nonl"), std::string("b\nc\na"));
  std::string err;
  ASSERT_EQ(corank("-S 1000T -o " + path("out") + " " + path("nonl"), &err), 0) << err;
  EXPECT_EQ(read_file(path("out")), "a\nb\nc\n");
  ASSERT_EQ(corank("-S 1000T -o " + path("out2") + " < " + path("nonl"), &err), 0) << err;
  EXPECT_EQ(read_file(path("out2")), "a\nb\nc\n");
  ASSERT_EQ(corank("--format csv --header -k b -S 1000T -o " + path("out3") + " < " + path("nonl"), &err), 0) << err;
  EXPECT_EQ(read_file(path("out3")), "b\na\nc\n");
}

TEST_F(Limit, AddressSpaceLimit) {
#ifdef CORANK_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space";
#endif
  // Eight threads, whose malloc arenas and stacks reserved 64 and 8 MiB of
  // address space each, once failed a sort at -S 64M under a limit of 400
  // MiB; under such a limit arenas and stacks are capped, and 300 MiB hold
  // it. Under a limit that cannot hold the program and its budget the message
  // names the limit, not -S.
  write_log_lines("in", 120000, 17);
  gnu_sort(path("in"), "want");
  const Outcome ok = run_limited(sort_args("64M", {"--parallel", "8", path("in")}), Limits{.address_space = 300 * kMiB});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(read_file(path("out")), read_file(path("want")));
  const Outcome tight = run_limited(sort_args("64M", {"--parallel", "8", path("in")}), Limits{.address_space = 60 * kMiB});
  EXPECT_EQ(tight.status, 2);
  EXPECT_NE(tight.err.find("ulimit -v"), std::string::npos) << tight.err;
  EXPECT_EQ(tight.err.find("smaller -S"), std::string::npos) << tight.err;
  EXPECT_EQ(std::count(tight.err.begin(), tight.err.end(), '\n'), 1) << tight.err;
  EXPECT_TRUE(tmp_is_empty());
}

}  // namespace
}  // namespace corank::test
