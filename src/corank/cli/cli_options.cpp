#include "corank/cli/cli_options.hpp"

namespace corank::cli {

void bind_options(CLI::App& app, CliOptions& o) {
  app.description(
      "Sort text lines as GNU sort does in the C locale, CSV/TSV rows by column, or\n"
      "fixed-size binary records (Sort Benchmark gensort records, typed arrays, records\n"
      "with keys at byte offsets), in memory or through temporary files when the input\n"
      "is larger than the memory budget. With no FILE, or when FILE is -, read standard\n"
      "input; several FILEs are sorted together.");
  app.footer(
      "\nFormats (--format, default lines):\n"
      "  lines      text lines ending in newline (NUL with -z); GNU sort semantics in the\n"
      "             C locale: bytes compare as unsigned values, whatever LANG/LC_ALL say\n"
      "  csv, tsv   RFC 4180 rows (quoted fields may hold separators, quotes, newlines);\n"
      "             --delimiter C, --header (first row kept first; keys may name columns)\n"
      "  gensort    100-byte records, 10-byte unsigned key at offset 0 (binary or ASCII layout)\n"
      "  fixed:R    R-byte records; order given by one or more --key\n"
      "  u32 u64 i32 i64 f32 f64\n"
      "             little-endian arrays; the record is the key\n"
      "Keys: -k/--key means what the format needs (highest priority first):\n"
      "  lines      a GNU KEYDEF F[.C][OPTS][,F[.C][OPTS]]: fields F, characters C, both\n"
      "             from 1; OPTS are the ordering letters b d f g h i M n r V\n"
      "  csv, tsv   COLUMN[:TYPE][:desc]: COLUMN is a number from 1 or a header name; TYPE\n"
      "             is ordering letters as for lines (n, g, h, M, V, f, ...; default text)\n"
      "  binary     OFFSET:LENGTH[:TYPE][:desc]: TYPE is bytes (default, memcmp order),\n"
      "             u8 u16 u32 u64 i8 i16 i32 i64 (little-endian), u16be ... i64be (big-endian),\n"
      "             f32 f64 (f32be f64be); floats order as IEEE total order.\n"
      "Without -s or -u, lines whose keys are equal are ordered by their whole bytes (GNU's\n"
      "last-resort comparison); with -s they keep their input order; -u keeps the first\n"
      "line of each run of equal keys. Binary formats always sort stably.\n"
      "SIZE takes a suffix: % of physical memory, b, K, M, G, T (powers of 1024);\n"
      "a bare number means KiB, as in GNU sort.\n"
      "\nExit status: 0 on success, 1 if --check found disorder, 2 on any error.\n"
      "Examples: corank -t, -k2,2n -k1,1 -o out.txt in.txt\n"
      "          corank --format csv --header --key price:n:desc --key name -o out.csv in.csv\n"
      "          corank --format gensort -S 8G -T /scratch -o sorted.dat input.dat");

  app.add_option("FILE", o.files, "Input files (- for standard input)");
  app.add_option("-o,--output", o.output, "Write the result to FILE instead of standard output; FILE may be an input")
      ->type_name("FILE");
  app.add_option("--format", o.format, "Record format: lines, csv, tsv, gensort, fixed:R, u32, u64, i32, i64, f32, f64")
      ->type_name("FMT")
      ->capture_default_str();
  app.add_option("-k,--key", o.keys, "Sort key (KEYDEF for lines, COLUMN[:TYPE][:desc] for CSV, "
                 "OFFSET:LENGTH[:TYPE][:desc] for binary); repeat for secondary keys")
      ->type_name("KEY")
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
  app.add_flag("-b,--ignore-leading-blanks", o.ignore_leading_blanks, "Ignore leading blanks (text)");
  app.add_flag("-d,--dictionary-order", o.dictionary_order, "Consider only blanks and alphanumerics (text)");
  app.add_flag("-f,--ignore-case", o.ignore_case, "Fold lower case to upper case (text)");
  app.add_flag("-g,--general-numeric-sort", o.general_numeric, "Compare by general numeric value (strtold)");
  app.add_flag("-h,--human-numeric-sort", o.human_numeric, "Compare human readable numbers (2K 1G)");
  app.add_flag("-i,--ignore-nonprinting", o.ignore_nonprinting, "Consider only printable characters (text)");
  app.add_flag("-M,--month-sort", o.month_sort, "Compare (unknown) < JAN < ... < DEC");
  app.add_flag("-n,--numeric-sort", o.numeric_sort, "Compare by numeric value");
  app.add_flag("-V,--version-sort", o.version_sort, "Natural sort of version numbers");
  app.add_option("--sort", o.sort_word, "Sort by WORD: general-numeric -g, human-numeric -h, month -M, "
                 "numeric -n, version -V")
      ->check(CLI::IsMember({"general-numeric", "human-numeric", "month", "numeric", "version"}))
      ->type_name("WORD");
  app.add_option("-t,--field-separator", o.field_separator, "Use SEP instead of blank-to-non-blank transitions")
      ->type_name("SEP");
  app.add_flag("-z,--zero-terminated", o.zero_terminated, "Lines end in NUL, not newline");
  app.add_flag("-m,--merge", o.merge, "Merge already sorted files; do not sort");
  app.add_option("--files0-from", o.files0_from, "Read input file names, NUL-terminated, from FILE (- for stdin)")
      ->type_name("FILE");
  app.add_option("--delimiter", o.delimiter, "CSV field delimiter (default , for csv, tab for tsv)")->type_name("C");
  app.add_flag("--header", o.header, "CSV: the first row is a header; keep it first, keys may name its columns");
  app.add_flag("-r,--reverse", o.reverse, "Reverse the result of comparisons");
  app.add_flag("-s,--stable", o.stable, "Stable: no last-resort comparison of whole lines (binary formats: always stable)");
  app.add_flag("-u,--unique", o.unique, "Output only the first of each run of records with equal keys");
  app.add_flag("-c", o.check, "Check whether the input is sorted; report the first disorder; do not sort");
  app.add_flag("-C", o.check_quiet, "Like -c, but do not report the first disorder");
  app.add_option("--check", o.check_mode, "Like -c; with =quiet or =silent, like -C")
      ->expected(0, 1)
      ->default_str("diagnose-first")
      ->check(CLI::IsMember({"diagnose-first", "quiet", "silent"}))
      ->type_name("[MODE]");
  app.add_flag("--verify", o.verify,
               "Binary formats: re-read the output before committing it: it must be in order and hold the input's records");
  app.add_option("--gpu", o.gpu, "Sort on the GPU: auto (if one works and the input is large enough), on (fail without one), off")
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
  app.add_flag("--no-fsync", o.no_fsync,
               "Do not fsync the output before renaming it into place: faster, and as durable as GNU sort's output "
               "(a crash soon after may lose it)");
  app.add_option("--compress-temp", o.compress_temp, "Compress spilled runs with CODEC: zstd (default) or gzip")
      ->expected(0, 1)
      ->default_str("zstd")
      ->check(CLI::IsMember({"zstd", "gzip"}))
      ->type_name("[CODEC]");
  app.add_option("--compress-program", o.compress_program,
                 "GNU sort's form of --compress-temp: PROG is zstd, gzip, pzstd or pigz (built in, not run)")
      ->check(CLI::IsMember({"zstd", "gzip", "pzstd", "pigz"}))
      ->type_name("PROG");
  app.add_flag("-v,--verbose", o.verbose, "Say what the sorter plans and does on stderr");
  app.add_flag("--debug", o.debug,
               "Lines: warn about dubious key definitions, and underline each output line's keys (standard output only)");
}

}  // namespace corank::cli
