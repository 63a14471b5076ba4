#include "corank/cli/cli_options.hpp"

namespace corank::cli {

void bind_options(CLI::App& app, CliOptions& o) {
  app.description(
      "Sort fixed-size binary records (Sort Benchmark gensort records, typed arrays, or\n"
      "records with keys at byte offsets), in memory or through temporary files when\n"
      "the input is larger than the memory budget. With no FILE, or when FILE is -,\n"
      "read standard input; several FILEs are sorted together.");
  app.footer(
      "\nFormats:\n"
      "  gensort    100-byte records, 10-byte unsigned key at offset 0 (binary or ASCII layout)\n"
      "  fixed:R    R-byte records; order given by one or more --key\n"
      "  u32 u64 i32 i64 f32 f64\n"
      "             little-endian arrays; the record is the key\n"
      "Keys (--key OFFSET:LENGTH[:TYPE][:desc], highest priority first):\n"
      "  TYPE is bytes (default, memcmp order), u8 u16 u32 u64 i8 i16 i32 i64 (little-endian),\n"
      "  u16be ... i64be (big-endian), f32 f64 (f32be f64be). Floats order as IEEE total order:\n"
      "  -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.\n"
      "SIZE takes a suffix: % of physical memory, b, K, M, G, T (powers of 1024);\n"
      "a bare number means KiB, as in GNU sort.\n"
      "Sorting is stable: records with equal keys keep their input order.\n"
      "\nExit status: 0 on success, 1 if --check found disorder, 2 on any error.\n"
      "Example: corank --format gensort -S 8G -T /scratch -o sorted.dat input.dat");

  app.add_option("FILE", o.files, "Input files (- for standard input)");
  app.add_option("-o,--output", o.output, "Write the result to FILE instead of standard output; FILE may be an input")
      ->type_name("FILE");
  app.add_option("--format", o.format, "Record format: gensort, fixed:R, u32, u64, i32, i64, f32, f64")
      ->type_name("FMT")
      ->capture_default_str();
  app.add_option("--key", o.keys, "Sort key OFFSET:LENGTH[:TYPE][:desc]; repeat for secondary keys")
      ->type_name("SPEC")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("-S,--buffer-size", o.buffer_size, "Use SIZE of host memory (default: 50%)")->type_name("SIZE");
  app.add_option("-T,--temporary-directory", o.temp_dirs,
                 "Put temporary files in DIR (default $TMPDIR or /tmp); repeat to spread them")
      ->type_name("DIR")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--parallel", o.parallel, "Use N threads (default: all cores)")->type_name("N");
  app.add_flag("-r,--reverse", o.reverse, "Reverse the result of comparisons");
  app.add_flag("-s,--stable", o.stable, "Stable sort (always the case; accepted for GNU compatibility)");
  app.add_flag("-u,--unique", o.unique, "Output only the first of each run of records with equal keys");
  app.add_flag("-c", o.check, "Check whether the input is sorted; report the first disorder; do not sort");
  app.add_flag("-C", o.check_quiet, "Like -c, but do not report the first disorder");
  app.add_option("--check", o.check_mode, "Like -c; with =quiet or =silent, like -C")
      ->expected(0, 1)
      ->default_str("diagnose-first")
      ->type_name("[MODE]");
  app.add_flag("--verify", o.verify,
               "Re-read the output before committing it: it must be in order and hold the input's records");
  app.add_option("--gpu", o.gpu, "Use the GPU: auto (if one works), on (fail without one), off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  app.add_option("--gpu-memory", o.gpu_memory, "Use at most SIZE of GPU memory")->type_name("SIZE");
  app.add_flag("--progress,!--no-progress", o.progress,
               "Show a progress bar on stderr (default: when stderr is a terminal)");
  app.add_option("--stats", o.stats_file, "Write statistics (records, runs, phase times) as JSON to FILE")
      ->type_name("FILE");
  app.add_option("--io-engine", o.io_engine, "File I/O: auto (io_uring if it works) or pread")
      ->check(CLI::IsMember({"auto", "uring", "pread"}))
      ->capture_default_str();
  app.add_option("--compress-temp", o.compress_temp, "Compress spilled runs with CODEC: zstd (default) or gzip")
      ->expected(0, 1)
      ->default_str("zstd")
      ->check(CLI::IsMember({"zstd", "gzip", ""}))
      ->type_name("[CODEC]");
  app.add_flag("-v,--verbose", o.verbose, "Say what the sorter plans and does on stderr");
}

}  // namespace corank::cli
