#include "corank/cli/args.hpp"

#include <getopt.h>

#include <cctype>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/io/codec.hpp"
#include "corank/text/key_spec.hpp"

namespace corank::cli {

namespace {

// Long options without a short form get codes past the byte range.
enum : int {
  kBatchSize = 256, kCheck, kCompressProgram, kCompressTemp, kDebug, kDelimiter, kFiles0From, kFormat, kGpu,
  kGpuMemory, kHeader, kHelp, kIoEngine, kNoFsync, kNoProgress, kNull, kNulls, kParallel, kProgress, kRandomSource,
  kSort, kStats, kTimeYear, kVerify, kVersion
};

// GNU sort's short options; the leading '-' hands operands over in order, which
// the obsolete +POS keys need.
constexpr char kShortOptions[] = "-bcCdfghik:mMno:rRsS:t:T:uVvz";

const option kLongOptions[] = {
    {"batch-size", required_argument, nullptr, kBatchSize},
    {"buffer-size", required_argument, nullptr, 'S'},
    {"check", optional_argument, nullptr, kCheck},
    {"compress-program", required_argument, nullptr, kCompressProgram},
    {"compress-temp", optional_argument, nullptr, kCompressTemp},
    {"debug", no_argument, nullptr, kDebug},
    {"delimiter", required_argument, nullptr, kDelimiter},
    {"dictionary-order", no_argument, nullptr, 'd'},
    {"field-separator", required_argument, nullptr, 't'},
    {"files0-from", required_argument, nullptr, kFiles0From},
    {"format", required_argument, nullptr, kFormat},
    {"general-numeric-sort", no_argument, nullptr, 'g'},
    {"gpu", required_argument, nullptr, kGpu},
    {"gpu-memory", required_argument, nullptr, kGpuMemory},
    {"header", no_argument, nullptr, kHeader},
    {"help", no_argument, nullptr, kHelp},
    {"human-numeric-sort", no_argument, nullptr, 'h'},
    {"ignore-case", no_argument, nullptr, 'f'},
    {"ignore-leading-blanks", no_argument, nullptr, 'b'},
    {"ignore-nonprinting", no_argument, nullptr, 'i'},
    {"io-engine", required_argument, nullptr, kIoEngine},
    {"key", required_argument, nullptr, 'k'},
    {"merge", no_argument, nullptr, 'm'},
    {"month-sort", no_argument, nullptr, 'M'},
    {"no-fsync", no_argument, nullptr, kNoFsync},
    {"no-progress", no_argument, nullptr, kNoProgress},
    {"null", required_argument, nullptr, kNull},
    {"nulls", required_argument, nullptr, kNulls},
    {"numeric-sort", no_argument, nullptr, 'n'},
    {"output", required_argument, nullptr, 'o'},
    {"parallel", required_argument, nullptr, kParallel},
    {"progress", no_argument, nullptr, kProgress},
    {"random-sort", no_argument, nullptr, 'R'},
    {"random-source", required_argument, nullptr, kRandomSource},
    {"reverse", no_argument, nullptr, 'r'},
    {"sort", required_argument, nullptr, kSort},
    {"stable", no_argument, nullptr, 's'},
    {"stats", required_argument, nullptr, kStats},
    {"temporary-directory", required_argument, nullptr, 'T'},
    {"time-year", required_argument, nullptr, kTimeYear},
    {"unique", no_argument, nullptr, 'u'},
    {"verbose", no_argument, nullptr, 'v'},
    {"verify", no_argument, nullptr, kVerify},
    {"version", no_argument, nullptr, kVersion},
    {"version-sort", no_argument, nullptr, 'V'},
    {"zero-terminated", no_argument, nullptr, 'z'},
    {nullptr, 0, nullptr, 0}};

// How GNU names an option in messages: "-S" when given short, "--buffer-size" when long.
std::string option_name(int code, int long_index) {
  if (long_index >= 0) return std::string("--") + kLongOptions[long_index].name;
  return std::string("-") + static_cast<char>(code);
}

// GNU's argmatch: the value or an unambiguous prefix of it. Values with the
// same meaning (`same` equal) are listed on one line in the message, as GNU does.
struct Choice {
  const char* value;
  int same;
};
std::string match_argument(const std::string& option, const std::string& arg, std::initializer_list<Choice> valid) {
  const Choice* hit = nullptr;
  bool ambiguous = false;
  for (const Choice& c : valid) {
    if (arg == c.value) return c.value;
    if (!arg.empty() && std::string_view(c.value).starts_with(arg)) {
      ambiguous |= hit != nullptr && hit->same != c.same;
      if (!hit) hit = &c;
    }
  }
  if (hit && !ambiguous) return hit->value;
  std::string msg = (hit ? "ambiguous argument '" : "invalid argument '") + arg + "' for '" + option + "'";
  msg += "\nValid arguments are:";
  const Choice* prev = nullptr;
  for (const Choice& c : valid) {
    msg += prev && prev->same == c.same ? ", '" : "\n  - '";
    msg += c.value;
    msg += "'";
    prev = &c;
  }
  throw BadCommandLine(msg);
}

// SIZE arguments with GNU sort's checks and messages: digits, then at most one
// suffix letter (b K M G T, %); "invalid -S argument 'X'" or "invalid suffix
// in -S argument 'X'".
std::uint64_t parse_size_argument(const std::string& option, const std::string& text, bool bare_is_kib) {
  const std::string quoted = option + " argument '" + text + "'";
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) throw UsageError("invalid " + quoted);
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (text.size() - i > 1 || (i < text.size() && std::strchr("bkKmMgGtT%", text[i]) == nullptr))
    throw UsageError("invalid suffix in " + quoted);
  try {
    return parse_size(text, bare_is_kib);
  } catch (const UsageError&) {
    throw UsageError(quoted + " too large");
  }
}

// A count such as --parallel or --batch-size: digits only, saturating.
std::uint64_t parse_count_argument(const std::string& option, const std::string& text) {
  if (text.empty()) throw UsageError("invalid " + option + " argument ''");
  std::uint64_t v = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) throw UsageError("invalid " + option + " argument '" + text + "'");
    v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

// The letter of --sort=WORD (time, T, is corank's; GNU's -T is the
// temporary directory, so the word is the global form of the key letter).
char sort_word_letter(const std::string& word) {
  const std::string w =
      match_argument("--sort", word,
                     {{"general-numeric", 0}, {"human-numeric", 1}, {"month", 2}, {"numeric", 3}, {"random", 4},
                      {"time", 5}, {"version", 6}});
  return w == "general-numeric" ? 'g' : w == "human-numeric" ? 'h' : w == "month" ? 'M'
         : w == "numeric" ? 'n' : w == "random" ? 'R' : w == "time" ? 'T' : 'V';
}

// GNU runs --compress-program's PROG to compress temporary files and `PROG -d`
// to read them back. For the programs whose format corank writes itself (by
// name or path) it uses the built-in codec instead, in the process; any other
// PROG is run as GNU runs it (io/program_codec.hpp).
std::optional<io::Codec> codec_for_program(const std::string& prog) {
  const std::string name = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
  const std::pair<const char*, io::Codec> known[] = {
      {"zstd", io::Codec::zstd},   {"pzstd", io::Codec::zstd},  {"zstdmt", io::Codec::zstd},
      {"gzip", io::Codec::gzip},   {"pigz", io::Codec::gzip},   {"bzip2", io::Codec::bzip2},
      {"pbzip2", io::Codec::bzip2}, {"lbzip2", io::Codec::bzip2}, {"xz", io::Codec::xz},
      {"pxz", io::Codec::xz}};
  for (const auto& [n, codec] : known)
    if (name == n) return codec;
  return std::nullopt;
}

bool is_obsolete_end(const char* arg) {
  return arg[0] == '-' && std::isdigit(static_cast<unsigned char>(arg[1]));
}

}  // namespace

Invocation parse_args(int argc, char** argv) {
  Invocation inv;
  SortRequest& r = inv.request;
  bool check = false, check_quiet = false;
  std::optional<std::string> output, tab, compress_program;
  // getopt names the program after argv[0]; GNU's messages say "corank: ...".
  std::vector<char*> args(argv, argv + argc);
  static char name[] = "corank";
  if (!args.empty()) args[0] = name;
  args.push_back(nullptr);
  // POSIXLY_CORRECT turns the obsolete +POS keys off, as it does in GNU sort.
  const bool obsolete_keys = std::getenv("POSIXLY_CORRECT") == nullptr;
  optind = 0;  // a full reinitialization, so tests may parse several times
  opterr = 1;
  for (;;) {
    int long_index = -1;
    const int c = getopt_long(argc, args.data(), kShortOptions, kLongOptions, &long_index);
    if (c == -1) break;
    const std::string arg = optarg ? optarg : "";
    switch (c) {
      case 1:  // an operand, or an obsolete key +POS1 [-POS2]
        if (obsolete_keys && arg.size() > 1 && arg[0] == '+') {
          std::string end;
          const bool has_end = optind < argc && is_obsolete_end(args[static_cast<std::size_t>(optind)]);
          if (has_end) end = args[static_cast<std::size_t>(optind)] + 1;
          if (text::obsolete_keydef(std::string_view(arg).substr(1), end)) {
            if (has_end) ++optind;
            r.keys.push_back(has_end ? arg + " -" + end : arg);
            break;
          }
        }
        r.inputs.push_back(arg);
        break;
      case 'b': case 'd': case 'f': case 'g': case 'h': case 'i': case 'M': case 'n': case 'R': case 'V':
        r.ordering += static_cast<char>(c);
        break;
      case 'r': r.reverse = true; break;
      case 's': r.stable = true; break;
      case 'u': r.unique = true; break;
      case 'm': r.merge_only = true; break;
      case 'z': r.zero_terminated = true; break;
      case 'v': r.verbose = true; break;
      case 'c': check = true; break;
      case 'C': check_quiet = true; break;
      case kCheck: {
        const std::string mode = optarg ? match_argument("--check", arg, {{"quiet", 0}, {"silent", 0}, {"diagnose-first", 1}})
                                        : "diagnose-first";
        (mode == "diagnose-first" ? check : check_quiet) = true;
        break;
      }
      case 'k': r.keys.push_back(arg); break;
      case 'o':
        if (output && *output != arg) throw UsageError("multiple output files specified");
        output = arg;
        break;
      case 'S': r.memory_budget = std::max<std::uint64_t>(1, parse_size_argument(option_name(c, long_index), arg, true)); break;
      case 't': {
        if (arg.empty()) throw UsageError("empty tab");
        (void)text::parse_tab(arg);  // "multi-character tab"
        if (tab && *tab != arg) throw UsageError("incompatible tabs");
        tab = arg;
        break;
      }
      case 'T': r.temp_dirs.push_back(arg); break;
      case kParallel: {
        const std::uint64_t n = parse_count_argument("--parallel", arg);
        if (n == 0) throw UsageError("number in parallel must be nonzero");
        r.threads = static_cast<unsigned>(std::min<std::uint64_t>(n, 4096));
        break;
      }
      case kBatchSize: {
        const std::uint64_t n = parse_count_argument("--batch-size", arg);
        if (n < 2) throw UsageError("invalid --batch-size argument '" + arg + "': the minimum is '2'");
        r.batch_size = static_cast<unsigned>(std::min<std::uint64_t>(n, 1u << 20));
        break;
      }
      case kSort: r.ordering += sort_word_letter(arg); break;
      case kRandomSource:
        if (!r.random_source.empty() && r.random_source != arg) throw UsageError("multiple random sources specified");
        r.random_source = arg;
        break;
      case kCompressProgram: {
        if (compress_program && *compress_program != arg) throw UsageError("multiple compress programs specified");
        compress_program = arg;
        const auto codec = codec_for_program(arg);
        r.io.temp_codec = codec.value_or(io::Codec::none);
        r.io.temp_program = codec ? std::string() : arg;
        break;
      }
      case kCompressTemp:
        r.io.temp_program.clear();
        r.io.temp_codec =
            optarg ? *io::parse_codec(match_argument("--compress-temp", arg, {{"zstd", 0}, {"gzip", 1}, {"bzip2", 2}, {"xz", 3}}))
                   : io::Codec::zstd;
        break;
      case kDebug: r.debug = true; break;
      case kDelimiter: r.delimiter = arg; break;
      case kFiles0From: inv.files0_from = arg; break;
      case kFormat: r.format = arg; break;
      case kGpu: {
        const std::string g = match_argument("--gpu", arg, {{"auto", 0}, {"on", 1}, {"off", 2}});
        r.gpu = g == "on" ? GpuMode::On : g == "off" ? GpuMode::Off : GpuMode::Auto;
        break;
      }
      case kGpuMemory: r.gpu_memory = parse_size_argument("--gpu-memory", arg, false); break;
      case kHeader: r.header = true; break;
      case kIoEngine:
        r.io.use_uring = match_argument("--io-engine", arg, {{"auto", 0}, {"uring", 1}, {"pread", 2}}) != "pread";
        break;
      case kNoFsync: r.io.sync_output = false; break;
      case kProgress: inv.progress = true; break;
      case kNoProgress: inv.progress = false; break;
      case kNull: r.null_string = arg; break;
      case kNulls: r.nulls_first = match_argument("--nulls", arg, {{"first", 0}, {"last", 1}}) == "first"; break;
      case kTimeYear: {
        const std::uint64_t y = parse_count_argument("--time-year", arg);
        if (y < 1 || y > 9999) throw UsageError("invalid --time-year argument '" + arg + "': a year from 1 to 9999");
        r.time_year = static_cast<int>(y);
        break;
      }
      case kStats: inv.stats_file = arg; break;
      case kVerify: r.verify = true; break;
      case kHelp: inv.action = Action::Help; return inv;
      case kVersion: inv.action = Action::Version; return inv;
      default: throw BadCommandLine("");  // '?': getopt has said what was wrong
    }
  }
  if (check && check_quiet) throw UsageError("options '-cC' are incompatible");
  if (check || check_quiet) {
    if (output) throw UsageError(std::string("options '-") + (check_quiet ? 'C' : 'c') + "o' are incompatible");
    if (r.debug) throw UsageError(std::string("options '-") + (check_quiet ? 'C' : 'c') + " --debug' are incompatible");
    inv.action = check_quiet ? Action::CheckQuiet : Action::Check;
  }
  if (r.debug && output) throw UsageError("options '-o --debug' are incompatible");
  if (!inv.files0_from.empty() && !r.inputs.empty())
    throw BadCommandLine("extra operand '" + r.inputs[0] + "'\nfile operands cannot be combined with --files0-from");
  if (output) r.output = *output;
  r.field_separator = tab;
  r.io.verbose = r.verbose;
  return inv;
}

std::string help_text() {
  return R"(Usage: corank [OPTION]... [FILE]...
  or:  corank [OPTION]... --files0-from=F
Write the sorted concatenation of all FILE(s) to standard output: text lines
as GNU sort sorts them in the C locale, CSV/TSV rows by column, or fixed-size
binary records (Sort Benchmark gensort records, typed arrays, records with keys
at byte offsets), in memory or through temporary files when the input is
larger than the memory budget, on the GPU when one pays.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options (text formats):
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys together
      --random-source=FILE    get the seed of -R's order from FILE
  -r, --reverse               reverse the result of comparisons (every format)
      --sort=WORD             sort according to WORD: general-numeric -g,
                                human-numeric -h, month -M, numeric -n,
                                random -R, version -V, time (the key letter T)
      --time-year=YEAR        the year of syslog timestamps under time keys
                                (default: the current year, UTC)
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
      --batch-size=NMERGE     merge at most NMERGE runs at once (text formats)
  -c, --check, --check=diagnose-first
                              check for sorted input; do not sort
  -C, --check=quiet, --check=silent
                              like -c, but do not report the first bad line
      --compress-program=PROG  compress temporaries with PROG; decompress them
                                with PROG -d (zstd, gzip, bzip2, xz and their
                                parallel forms are built in: PROG is not run)
      --compress-temp[=CODEC]  compress temporaries with zstd (default), gzip,
                                bzip2 or xz
      --debug                 annotate the part of the line used to sort, and
                                warn about questionable usage (text formats)
      --files0-from=F         read input from the files specified by
                                NUL-terminated names in file F;
                                if F is - then read names from standard input
  -k, --key=KEYDEF            sort via a key; KEYDEF gives location and type
  -m, --merge                 merge already sorted files; do not sort
  -o, --output=FILE           write result to FILE instead of standard output;
                                FILE may be an input
  -s, --stable                stabilize sort by disabling last-resort
                                comparison (binary formats are always stable)
  -S, --buffer-size=SIZE      use SIZE for the main memory buffer (default 50%)
  -t, --field-separator=SEP   use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp;
                                multiple options specify multiple directories
      --parallel=N            change the number of sorts run concurrently to N
                                (default: every core)
  -u, --unique                output only the first of an equal run
  -z, --zero-terminated       line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Formats and corank's options:
      --format=FMT            lines (default), csv, tsv, jsonl (one JSON
                                object per line), gensort, fixed:R,
                                u32, u64, i32, i64, f32, f64
      --delimiter=C           CSV field delimiter (default , for csv, tab for tsv)
      --header                CSV: the first row is a header, kept first; keys
                                may name its columns
      --nulls=WHERE           CSV, JSON lines: NULLs sort last (default) or
                                first, under every key and direction
      --null=STRING           CSV: an unquoted field equal to STRING is NULL
                                too (an unquoted empty field always is)
      --verify                binary formats: re-read the output before
                                committing it: in order, the input's records
      --gpu=WHEN              sort on the GPU: auto (default: when one works and
                                the input is large enough), on, off
      --gpu-memory=SIZE       use at most SIZE of GPU memory
      --progress              show progress on standard error (default: when
                                it is a terminal); --no-progress: never
      --stats=FILE            write statistics (inputs, options, records, runs,
                                stage times) as JSON to FILE (- for standard
                                output, when the output goes elsewhere)
      --io-engine=ENGINE      file I/O: auto (io_uring if it works), uring,
                                or pread
      --no-fsync              do not fsync the output before renaming it into
                                place (as durable as GNU sort's output)
  -v, --verbose               say what the sorter plans and does on stderr

KEYDEF means what the format needs (highest priority first):
  lines     F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is
            a field number and C a character position in the field; both are
            origin 1, and the stop position defaults to the line's end. OPTS is
            one or more single-letter ordering options [bdfghiMnRrTV], which
            override global ordering options for that key; T (corank's)
            compares timestamps as UTC instants: ISO 8601, Common Log Format
            (-k4,5T), syslog (-k1,3T), epoch numbers; unparsable ones first.
            The obsolete form +POS1 [-POS2] (origin 0) is accepted as GNU sort
            accepts it.
  csv, tsv  COLUMN[:TYPE][:desc]: COLUMN is a number from 1 or a header name;
            TYPE is ordering letters as for lines (default: text), or n
            (exact numbers, exponents too), decimal, date (YYYY-MM-DD) or time;
            unparsable decimals, dates and times sort first. Unquoted empty
            fields and missing columns are NULL
  jsonl     PATH[:TYPE][:desc]: PATH names a field, dots for nested ones
            (user.id); TYPE as for CSV; without one, strings < numbers <
            false < true < arrays < objects. Missing fields and null are NULL;
            a line that is not a JSON object is an error
  binary    OFFSET:LENGTH[:TYPE][:desc]: TYPE is bytes (default, memcmp
            order), u8 u16 u32 u64 i8 i16 i32 i64 (little-endian), u16be ...
            i64be (big-endian), f32 f64 (f32be f64be; IEEE total order)

Without -s or -u, lines whose keys are equal are ordered by their whole bytes
(GNU's last-resort comparison); with -s they keep their input order; -u keeps
the first line of each run of equal keys. Binary formats always sort stably.

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T.

Exit status: 0 on success, 1 if --check found disorder, 2 on any error.

Examples:
  corank -t, -k2,2n -k1,1 -o out.txt in.txt
  corank --format csv --header --key price:n:desc --key name -o out.csv in.csv
  corank -k4,5T -o by-time.log access.log
  corank --format jsonl --key ts:time --key user.id:n -o out.jsonl events.jsonl
  corank --format gensort -S 8G -T /scratch -o sorted.dat input.dat
)";
}

}  // namespace corank::cli
