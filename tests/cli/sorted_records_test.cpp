// Adaptive run formation for fixed-size records on the CPU (sorted_stream.hpp):
// gensort, u64 and fixed-size records with two keys, already sorted, all
// equal, sorted then not (the stream ends at a chunk that starts low: a
// random tail, a second sorted copy), nearly sorted, reverse-sorted and
// random, under a tiny -S, with -u, -r, compressed temporaries and one
// thread. Every output must equal an independent reference (a stable sort of
// the records by their key bytes, written here), and without options or with
// -u corank's in-memory sort, byte for byte; --stats must show one run written in one pass, nothing
// spilled, where the input is sorted, and -v must say nothing streamed where
// the first chunk is not. Records displaced below, at and above the window
// (a quarter of a chunk buffer) join the output's run or go to side runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace fs = std::filesystem;

namespace {

using corank::test::read_file;
using corank::test::write_file;

enum class Shape { sorted, equal, random_tail, sorted_twice, nearly, reverse, random };

const char* name_of(Shape s) {
  switch (s) {
    case Shape::sorted: return "sorted";
    case Shape::equal: return "all equal";
    case Shape::random_tail: return "sorted, then a random tail";
    case Shape::sorted_twice: return "sorted twice over";
    case Shape::nearly: return "nearly sorted";
    case Shape::reverse: return "reverse-sorted";
    case Shape::random: return "random";
  }
  return "";
}

// A record format: its size and its key bytes (offset, length, descending),
// compared as unsigned bytes, as corank's options for it say.
struct Format {
  std::string options;
  std::uint32_t size;
  std::vector<std::uint32_t> key_at, key_len;
  std::vector<bool> desc;
};

const Format kGensort{"--format gensort", 100, {0}, {10}, {false}};
const Format kFixed{"--format fixed:100 -k 10:4 -k 90:10:bytes:desc", 100, {10, 90}, {4, 10}, {false, true}};

// n records of `f` whose key order is their number's (big-endian in the key
// bytes; for u64, the little-endian value), the rest random.
std::vector<std::string> records(const Format& f, bool u64, std::uint64_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string r(u64 ? 8 : f.size, '\0');
    for (char& c : r) c = static_cast<char>(rng());
    const std::uint64_t k = i / 3;  // three records a key: -u and stability matter
    if (u64) {
      std::memcpy(r.data(), &k, 8);
    } else {
      for (std::size_t j = 0; j < f.key_at.size(); ++j) {
        const std::uint64_t v = f.desc[j] ? ~k : k;
        for (std::uint32_t b = 0; b < f.key_len[j]; ++b)
          r[f.key_at[j] + b] = static_cast<char>(b + 8 >= f.key_len[j] ? v >> (8 * (f.key_len[j] - 1 - b)) : 0);
      }
    }
    out[i] = std::move(r);
  }
  return out;
}

// The records in input order for `shape` (they are made in key order).
std::vector<std::string> in_order(Shape shape, std::vector<std::string> r, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t n = r.size();
  switch (shape) {
    case Shape::sorted: break;
    case Shape::equal: std::fill(r.begin(), r.end(), r[n / 2]); break;
    case Shape::random_tail: std::shuffle(r.begin() + static_cast<std::ptrdiff_t>(n * 3 / 4), r.end(), rng); break;
    case Shape::sorted_twice: {
      std::vector<std::string> twice(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(n / 2));
      twice.insert(twice.end(), r.begin(), r.begin() + static_cast<std::ptrdiff_t>(n - n / 2));
      r = std::move(twice);
      break;
    }
    case Shape::nearly:
      for (std::size_t i = 0; i + 1 < n; i += 1 + rng() % 50) std::swap(r[i], r[std::min(n - 1, i + rng() % 40)]);
      break;
    case Shape::reverse: std::reverse(r.begin(), r.end()); break;
    case Shape::random: std::shuffle(r.begin(), r.end(), rng); break;
  }
  return r;
}

// The reference: a stable sort by the key bytes (descending keys inverted),
// reversed under -r (still stable), the first of equal keys kept under -u.
std::string reference(const Format& f, bool u64, std::vector<std::string> r, bool reverse, bool unique) {
  auto key = [&](const std::string& x) {
    if (u64) {
      std::uint64_t v;
      std::memcpy(&v, x.data(), 8);
      std::string k(8, '\0');
      for (int b = 0; b < 8; ++b) k[b] = static_cast<char>(v >> (56 - 8 * b));
      return k;
    }
    std::string k;
    for (std::size_t j = 0; j < f.key_at.size(); ++j)
      for (std::uint32_t b = 0; b < f.key_len[j]; ++b) {
        const auto c = static_cast<unsigned char>(x[f.key_at[j] + b]);
        k += static_cast<char>(f.desc[j] ? 255 - c : c);
      }
    return k;
  };
  std::stable_sort(r.begin(), r.end(), [&](const std::string& a, const std::string& b) {
    const std::string ka = key(a), kb = key(b);
    return reverse ? kb < ka : ka < kb;
  });
  std::string out;
  std::string last;
  for (const auto& x : r) {
    if (unique && !out.empty() && key(x) == last) continue;
    last = key(x);
    out += x;
  }
  return out;
}

// The formats every test sorts: gensort, fixed-size records with two keys, u64.
struct Case {
  const Format* format;
  bool u64;
  std::string options() const { return u64 ? "--format u64" : format->options; }
};
const Case kCases[] = {{&kGensort, false}, {&kFixed, false}, {&kGensort, true}};

class SortedRecords : public corank::test::CorankTest {
protected:
  // Sorts path("in") (records `in` of `c`) with `format`, the options `o` and
  // `budget`, -v and --stats: the output must equal the stable reference, and
  // without options or with -u the in-memory sort too; no temporary file may
  // remain. Returns corank's stderr, *stats the --stats file.
  std::string sort_and_check(const Format& c, bool u64, const std::vector<std::string>& in, const std::string& format,
                             const std::string& o, const std::string& budget, std::string* stats) {
    const bool reverse = o.find("-r") != std::string::npos, unique = o.find("-u") != std::string::npos;
    std::string err;
    EXPECT_EQ(corank(format + " " + o + " -v " + budget + " -T " + path("tmp") + " --stats " + path("stats.json") +
                         " -o " + path("out") + " " + path("in"),
                     &err),
              0)
        << err;
    const std::string got = read_file(path("out"));
    EXPECT_TRUE(got == reference(c, u64, in, reverse, unique));
    if (o.empty() || o == "-u") {
      EXPECT_EQ(corank(format + " " + o + " -S 64M -o " + path("memory") + " " + path("in")), 0);
      EXPECT_TRUE(read_file(path("memory")) == got);
    }
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
    *stats = read_file(path("stats.json"));
    return err;
  }
};

TEST_F(SortedRecords, StreamIntoTheOutputOrEndAndMatchAStableSort) {
  const std::uint64_t n = 9000;
  corank::test::Sweep sweep;
  for (const Case& c : kCases) {
    const std::string format = c.options();
    for (Shape shape : {Shape::sorted, Shape::equal, Shape::random_tail, Shape::sorted_twice, Shape::nearly,
                        Shape::reverse, Shape::random}) {
      const auto in = in_order(shape, records(*c.format, c.u64, n, 7), 11);
      std::string bytes;
      for (const auto& r : in) bytes += r;
      write_file(path("in"), bytes);
      const char* const options[] = {"", "-u", "-r", "--compress-temp", "-u --compress-temp=gzip", "--parallel 1"};
      for (std::size_t k = 0; k < std::size(options); ++k) {
        if (!sweep.takes(k, std::size(options))) continue;
        const char* opts = options[k];
        SCOPED_TRACE(format + " " + name_of(shape) + " " + opts);
        const std::string o(opts);
        const bool reverse = o.find("-r") != std::string::npos;
        std::string stats;
        const std::string err = sort_and_check(*c.format, c.u64, in, format, o, "-S 128K", &stats);
        const bool streamed = err.find("streaming it into the output") != std::string::npos;
        const bool one_pass = stats.find("\"one_pass\": true") != std::string::npos;
        // Sorted under -r means descending: these inputs are sorted for -r only when all equal.
        if ((shape == Shape::sorted && !reverse) || shape == Shape::equal) {
          EXPECT_TRUE(one_pass) << err;
          EXPECT_NE(stats.find("\"spilled_runs\": 0,"), std::string::npos) << stats;
          EXPECT_NE(stats.find("\"runs\": 1,"), std::string::npos) << stats;
        }
        if (shape == Shape::random_tail || shape == Shape::sorted_twice) {
          if (!reverse) EXPECT_TRUE(streamed) << err;
          EXPECT_FALSE(one_pass);
        }
        if (shape == Shape::random || (shape == Shape::reverse && !reverse)) EXPECT_FALSE(streamed) << err;
        if (shape == Shape::reverse && reverse) EXPECT_TRUE(one_pass) << err;
      }
      sweep.next();
    }
  }
}

// Records displaced less than the window, as much as it, and more: -v names
// the window's capacity N (a quarter of a chunk buffer); a shuffle within
// blocks of d + 1 records moves each at most d from its place. With d <= N
// every record joins the run in the output: one pass, no side record. With
// d = 4N the first chunk does not look nearly sorted (or comes late): runs
// as before. One record in 50 held back 5N records lands in side runs,
// merged with the output's run at the end. Every output equals the stable
// reference, and the in-memory sort where the options allow.
TEST_F(SortedRecords, AWindowTakesRecordsDisplacedLessThanIt) {
  const std::uint64_t n = 9000;
  corank::test::Sweep sweep;
  for (const Case& c : kCases) {
    const std::string format = c.options();
    const auto sorted = records(*c.format, c.u64, n, 13);
    std::string bytes;
    for (const auto& r : sorted) bytes += r;
    write_file(path("in"), bytes);
    std::string err;
    ASSERT_EQ(corank(format + " -v -S 256K -o " + path("out") + " " + path("in"), &err), 0) << err;
    const auto at = err.find("a window of ");
    ASSERT_NE(at, std::string::npos) << err;
    const std::uint64_t window = std::stoull(err.substr(at + 12));
    ASSERT_GE(window, 8u) << err;
    for (int shape = 0; shape < 4; ++shape) {
      const std::uint64_t d = shape == 0 ? window / 2 : shape == 1 ? window : 4 * window;
      std::vector<std::string> in = sorted;
      std::mt19937_64 rng(shape + 1);
      if (shape < 3) {
        for (std::uint64_t b = 0; b < n; b += d + 1)
          std::shuffle(in.begin() + static_cast<std::ptrdiff_t>(b),
                       in.begin() + static_cast<std::ptrdiff_t>(std::min(n, b + d + 1)), rng);
      } else {
        for (std::uint64_t i = 0; i + 5 * window < n; i += 50)
          std::rotate(in.begin() + static_cast<std::ptrdiff_t>(i), in.begin() + static_cast<std::ptrdiff_t>(i + 1),
                      in.begin() + static_cast<std::ptrdiff_t>(i + 5 * window + 1));
      }
      bytes.clear();
      for (const auto& r : in) bytes += r;
      write_file(path("in"), bytes);
      const char* const options[] = {"", "-u", "-r", "--compress-temp", "--parallel 1 -u"};
      for (std::size_t k = 0; k < std::size(options); ++k) {
        if (!sweep.takes(k, std::size(options))) continue;
        const std::string o(options[k]);
        SCOPED_TRACE(format + " displaced " + std::to_string(d) + " of a window of " + std::to_string(window) +
                     (shape == 3 ? " (one in 50 held back)" : "") + " " + o);
        std::string stats;
        err = sort_and_check(*c.format, c.u64, in, format, o, "-S 256K", &stats);
        if (o.find("-r") != std::string::npos) continue;  // descending: the input is far from sorted
        const bool streamed = err.find("streaming it into the output") != std::string::npos;
        if (shape < 2) {
          EXPECT_TRUE(streamed) << err;
          EXPECT_NE(stats.find("\"one_pass\": true"), std::string::npos) << stats;
          EXPECT_NE(stats.find("\"spilled_runs\": 0,"), std::string::npos) << stats;
          EXPECT_NE(stats.find("\"side_records\": 0,"), std::string::npos) << stats;
        } else {
          EXPECT_NE(stats.find("\"one_pass\": false"), std::string::npos) << stats;
        }
        if (shape == 3) {
          EXPECT_TRUE(streamed) << err;
          EXPECT_EQ(stats.find("\"side_records\": 0,"), std::string::npos) << stats;
          EXPECT_NE(err.find("merged with the runs left besides"), std::string::npos) << err;
        }
      }
      sweep.next();
    }
  }
}

// An output that cannot be read back as a run (compressed, standard output)
// is written as before: runs, merged.
TEST_F(SortedRecords, OutputsThatCannotBeReadBackAreNotStreamedInto) {
  const auto in = in_order(Shape::random_tail, records(kGensort, false, 6000, 5), 3);
  std::string bytes;
  for (const auto& r : in) bytes += r;
  write_file(path("in"), bytes);
  const std::string want = reference(kGensort, false, in, false, false);
  std::string err;
  ASSERT_EQ(corank("--format gensort -v -S 128K -T " + path("tmp") + " -o " + path("out.gz") + " " + path("in"), &err),
            0)
      << err;
  EXPECT_EQ(err.find("streaming"), std::string::npos) << err;
  ASSERT_EQ(std::system(("gzip -dc " + path("out.gz") + " > " + path("out")).c_str()), 0);
  EXPECT_TRUE(read_file(path("out")) == want);
  ASSERT_EQ(corank("--format gensort -v -S 128K -T " + path("tmp") + " " + path("in") + " > " + path("stdout"), &err),
            0)
      << err;
  EXPECT_EQ(err.find("streaming"), std::string::npos) << err;
  EXPECT_TRUE(read_file(path("stdout")) == want);
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

// A whole input in one chunk (a pipe, whose size is not known ahead) is
// written straight out as before: one run, not streamed.
TEST_F(SortedRecords, AWholeInputInOneChunkIsOneRun) {
  const auto in = records(kGensort, false, 3000, 9);
  std::string bytes;
  for (const auto& r : in) bytes += r;
  write_file(path("in"), bytes);
  const corank::test::Result r = corank::test::run_shell("cat " + path("in") + " | " + corank::test::corank_bin() +
                                                            " --format gensort -v -S 64M --stats " + path("stats.json") +
                                                            " -o " + path("out"),
                                                        dir_ / "err");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string& err = r.err;
  EXPECT_TRUE(read_file(path("out")) == reference(kGensort, false, in, false, false));
  const std::string stats = read_file(path("stats.json"));
  EXPECT_NE(stats.find("\"mode\": \"external\""), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"runs\": 1,"), std::string::npos) << stats;
  EXPECT_EQ(err.find("streaming"), std::string::npos) << err;
}

}  // namespace
