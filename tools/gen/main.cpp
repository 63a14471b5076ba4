// corank-gen: writes seeded, reproducible test data for corank.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "gen_spec.hpp"
#include "generator.hpp"

namespace {

using namespace corank::tools;

struct GenOptions {
  std::string records;
  std::string bytes;
  std::string output = "-";
  std::uint64_t seed = 0;
  std::uint64_t start = 0;
  std::string format = "gensort";
  std::string dist = "uniform";
  bool nan = false;
  std::uint64_t displacement = 1000;
};

constexpr const char* kDescription = R"(corank-gen: write seeded, reproducible records for testing and benchmarking corank.

The same seed and options always give the same bytes. Record k depends only on
the seed and on k, so a large file can be written in pieces, in parallel, and
concatenated:
  corank-gen -n 1G --start 0  -o part0 &  corank-gen -n 1G --start 1G -o part1
gives the bytes of  corank-gen -n 2G -o whole.

Formats:
  gensort        100-byte Sort Benchmark records (gensort's binary layout):
                 10-byte key, 00 11, 32 hex digits of the record number,
                 88 99 AA BB, 48 bytes of hex-digit filler, CC DD EE FF.
                 Sort with: corank --format gensort
  gensort-ascii  gensort -a layout: 10 printable key chars, 2 spaces, record
                 number in hex, 2 spaces, 52 filler chars, CR LF. Also a text
                 file that LC_ALL=C sort orders by key.
  u32 u64 i32 i64 f32 f64
                 little-endian arrays; the record is the key.

Distributions (of the key):
  uniform     random keys; integers over the whole type range, floats from
              random bits (every finite value, no NaN unless --nan).
  skewed      like gensort -s: the leading 5/8 of the key comes from a Zipf(1.1)
              rank over 2^20 values, the rest is random: long shared prefixes.
  sorted      ascending by record number; reverse: descending.
  nearly-sorted  record n has the sorted key of n + U[0, --displacement]: each
              record at most that many records from its sorted place.
  all-equal   one key for every record.
  few-unique  16 distinct keys.
  zipf        Zipf(1.1) over 2^20 random keys: heavy duplicates.
)";

int run(const GenOptions& o) {
  GenSpec spec;
  spec.format = parse_gen_format(o.format);
  spec.dist = parse_gen_dist(o.dist);
  spec.seed = o.seed;
  spec.start = o.start;
  spec.allow_nan = o.nan;
  spec.displacement = o.displacement;
  const std::uint32_t rs = record_size(spec.format);
  if (!o.records.empty() && !o.bytes.empty()) throw GenUsageError("give -n/--records or --bytes, not both");
  if (!o.records.empty()) {
    spec.count = parse_record_count(o.records);
  } else if (!o.bytes.empty()) {
    // Rounded down: "--bytes 10G" of 100-byte records is the natural request,
    // and 10 GiB is not a whole number of them.
    spec.count = parse_byte_size(o.bytes) / rs;
  } else {
    throw GenUsageError("give the size: -n/--records N or --bytes SIZE");
  }
  // Record numbers are written as 64-bit values; the last one must fit.
  if (spec.count > std::numeric_limits<std::uint64_t>::max() - spec.start)
    throw GenUsageError("--start + record count exceeds 2^64");

  if (o.output == "-") {
    corank::tools::write_records(spec, STDOUT_FILENO, "standard output");
  } else {
    auto fd = corank::io::FileDesc::open(o.output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    corank::tools::write_records(spec, fd.get(), o.output);
    if (::close(fd.release()) != 0) corank::io::throw_io_error("close failed", o.output, errno);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  GenOptions o;
  CLI::App app(kDescription, "corank-gen");
  app.get_formatter()->column_width(28);
  app.add_option("-n,--records", o.records,
                 "number of records: N, or N with k/K, M, G, T = 10^3, 10^6, 10^9, 10^12 (2G = 2e9)")
      ->type_name("N");
  app.add_option("--bytes", o.bytes,
                 "size of the output instead of -n: bytes, or with K, M, G, T = KiB, MiB, GiB, TiB; "
                 "rounded down to whole records")
      ->type_name("SIZE");
  app.add_option("-o,--output", o.output, "output file ('-' = standard output)")
      ->type_name("FILE")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the pseudo-random keys")->type_name("S")->capture_default_str();
  app.add_option("--start", o.start, "number of the first record (for writing a file in pieces)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--displacement", o.displacement, "nearly-sorted: how far (in records) a record may lie from its place")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--format", o.format, "gensort, gensort-ascii, u32, u64, i32, i64, f32, f64")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("--dist", o.dist, "uniform, skewed, sorted, reverse, all-equal, few-unique, zipf, nearly-sorted")
      ->type_name("DIST")
      ->capture_default_str();
  app.add_flag("--nan", o.nan,
               "f32/f64: about 1 in 8 values of the random distributions is NaN, -NaN, +-0, +-inf, "
               "a denormal or the largest value");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "corank-gen: %s\n", e.what());
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-gen: %s\n", e.what());
    return 2;
  }
}
