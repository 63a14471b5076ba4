// corank-validate: checks a file sorted by corank, valsort style.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "report.hpp"
#include "validation.hpp"

namespace {

constexpr const char* kDescription = R"(corank-validate: check that FILE is sorted the way corank sorts it.

Reads FILE ('-' = standard input) once, in constant memory, and reports:
  - the record count;
  - whether the records are in key order (keys compared exactly as corank
    compares them), and the first record out of order;
  - the number of duplicate keys (records whose key equals the previous one);
  - an order-independent checksum: the sum of each record's CRC32 (as
    valsort prints it), and a second sum of an independent 64-bit hash;
  - with --input: whether FILE holds exactly the records of the input file(s),
    by record count and both sums.
--format and --key take the same values as corank's.

Exit status: 0 valid; 1 invalid (out of order, a duplicate under --unique,
records differ from --input); 2 usage or I/O error, or a file whose size is
not a multiple of the record size.

Example:
  corank-gen -n 10M -o in && corank --format gensort -o out in
  corank-validate --input in out
)";

}  // namespace

int main(int argc, char** argv) {
  corank::tools::ValidateOptions o;
  bool json = false;
  CLI::App app(kDescription, "corank-validate");
  app.get_formatter()->column_width(28);
  app.add_option("FILE", o.file, "the sorted file ('-' = standard input)")->type_name("")->required();
  app.add_option("--format", o.format, "record format: gensort, fixed:R, u32, u64, i32, i64, f32, f64")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("--key", o.keys,
                 "key OFFSET:LENGTH[:TYPE][:desc], repeatable, in priority order (needed for fixed:R; "
                 "TYPE: bytes u8..u64 i8..i64 f32 f64, *be for big-endian)")
      ->type_name("KEY");
  app.add_flag("-r,--reverse", o.reverse, "expect descending order");
  app.add_flag("-u,--unique", o.unique, "expect no two records with equal keys");
  app.add_option("--input", o.inputs, "an unsorted input file, repeatable: FILE must hold exactly their records")
      ->type_name("FILE");
  app.add_flag("--json", json, "print one JSON object instead of text");
  o.threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  app.add_option("-j,--threads", o.threads, "threads checking blocks of 4 MiB at once")
      ->type_name("N")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "corank-validate: %s\n", e.what());
    return 2;
  }
  try {
    const auto report = corank::tools::validate(o);
    const std::string text = json ? corank::tools::format_json(report) : corank::tools::format_text(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) != 0) {
      std::perror("corank-validate: standard output");
      return 2;
    }
    return report.valid() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-validate: %s\n", e.what());
    return 2;
  }
}
