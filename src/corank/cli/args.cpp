#include "corank/cli/args.hpp"

#include <getopt.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "corank/cli/gnu_abbreviations.hpp"
#include "corank/cli/gnu_arguments.hpp"
#include "corank/cli/option_table.hpp"
#include "corank/errors.hpp"
#include "corank/io/codec.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::cli {

namespace {

// How GNU names an option in messages: "-S" when given short, "--buffer-size" when long.
std::string option_name(int code, int long_index, const option* table) {
  if (long_index >= 0) return std::string("--") + table[long_index].name;
  return std::string("-") + static_cast<char>(code);
}

// kLongOptions with `own` added before its row of zeros.
std::vector<option> long_options_with(std::span<const option> own) {
  std::vector<option> table;
  for (const option* o = kLongOptions; o->name; ++o) table.push_back(*o);
  table.insert(table.end(), own.begin(), own.end());
  table.push_back(option{});
  return table;
}

// Whether the obsolete keys +POS1 [-POS2] are read as keys before any -POS2
// says so: GNU's reading of the POSIX edition that _POSIX2_VERSION names
// (as gnulib's posix2_version reads it; 200809 where unset), whose editions
// from 2001 to before 2008 withdrew them.
bool traditional_usage_by_default() {
  long edition = 200809;
  if (const char* s = std::getenv("_POSIX2_VERSION"); s && *s) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end == '\0') edition = v;
  }
  return !(edition >= 200112 && edition < 200809);
}

bool is_obsolete_end(const char* arg) {
  return arg[0] == '-' && std::isdigit(static_cast<unsigned char>(arg[1]));
}

}  // namespace

Invocation parse_args(int argc, char** argv, const char* program, bool messages, std::span<const option> own) {
  Invocation inv;
  const std::vector<option> long_options = long_options_with(own);
  SortRequest& r = inv.request;
  bool check = false, check_quiet = false;
  std::optional<std::size_t> time_key;  // which of r.keys --time (or --multiline) added
  std::optional<std::string> output, tab, compress_program;
  // getopt names the program after argv[0]; GNU's messages say "corank: ...",
  // not the path it was started by.
  std::vector<char*> args(argv, argv + argc);
  if (!args.empty()) args[0] = const_cast<char*>(program);  // getopt only reads it
  args.push_back(nullptr);
  // As in GNU sort: POSIXLY_CORRECT makes every element after the first
  // operand an operand (`sort in -r` reads a file named -r) but for an -o
  // where the obsolete forms are read; it keeps a -POS2 from turning them on.
  const bool posixly_correct = std::getenv("POSIXLY_CORRECT") != nullptr;
  bool traditional_usage = traditional_usage_by_default();
  std::deque<std::string> spelled_out;  // the elements that replace GNU's abbreviations in args
  optind = 0;  // a full reinitialization, so tests may parse several times
  opterr = messages ? 1 : 0;
  for (;;) {
    // The operands as they were given: not spelled out as options below.
    if (const int at = std::max(optind, 1); posixly_correct && !r.inputs.empty()) {
      const char* next = at < argc ? args[static_cast<std::size_t>(at)] : "";
      const bool output_option = traditional_usage && !check && !check_quiet && next[0] == '-' && next[1] == 'o' &&
                                 (next[2] != '\0' || at + 1 < argc);
      if (!output_option) {
        for (; optind < argc; ++optind) r.inputs.emplace_back(args[static_cast<std::size_t>(optind)]);
        break;
      }
    }
    // With the leading '-' of kShortOptions getopt takes the elements in
    // order, so args[optind] is the one it reads next, unless it is in the
    // middle of a cluster of letters, which does not start with "--".
    if (const int at = std::max(optind, 1); at < argc) {  // optind 0: getopt starts at 1
      char*& next = args[static_cast<std::size_t>(at)];
      if (auto full = spell_out_gnu_abbreviation(next, long_options.data()))
        next = spelled_out.emplace_back(*full).data();
    }
    int long_index = -1;
    const int c = getopt_long(argc, args.data(), kShortOptions, long_options.data(), &long_index);
    if (c == -1) {
      // After "--" getopt leaves the operands at optind; GNU sorts them.
      for (; optind < argc; ++optind) r.inputs.emplace_back(args[static_cast<std::size_t>(optind)]);
      break;
    }
    const std::string arg = optarg ? optarg : "";
    if (c >= kOwnOptionCodes) {
      inv.own_options.emplace_back(c, arg);
      continue;
    }
    switch (c) {
      case 1:  // an operand, or an obsolete key +POS1 [-POS2]
        if (arg.size() > 1 && arg[0] == '+') {
          std::string end;
          const bool has_end = optind < argc && is_obsolete_end(args[static_cast<std::size_t>(optind)]);
          traditional_usage |= has_end && !posixly_correct;
          if (!traditional_usage) {
            r.inputs.push_back(arg);
            break;
          }
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
      case 'y':
        // Solaris's -y [digits], which GNU accepts and ignores: an argument
        // after a blank that is not all digits is an operand after all.
        if (optarg == args[static_cast<std::size_t>(optind - 1)] &&
            !std::all_of(arg.begin(), arg.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
          --optind;
        break;
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
      case 'S': {
        const std::string name = option_name(c, long_index, long_options.data());
        // The largest of several -S, as GNU takes, so that their order does not matter.
        r.memory_budget = std::max<std::uint64_t>({1, r.memory_budget, parse_size_argument(name, arg, true)});
        break;
      }
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
        if (r.random_source && *r.random_source != arg) throw UsageError("multiple random sources specified");
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
      case kDecimalSeparator: r.decimal_separator = match_argument("--decimal-separator", arg, {{".", 0}, {",", 1}})[0]; break;
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
        const text::YearReference y = text::parse_year_reference(arg);
        r.time_year = y.year;
        r.time_year_month = arg.size() > 4 ? y.month : 0;
        break;
      }
      case kTime: time_key = r.keys.size(), r.keys.push_back("T"); break;  // a T key without positions
      case kMultiline: r.multiline = true; break;
      case kTimeFormat: r.time_format = arg; break;
      case kTimeZone: {  // ZONE, or PATTERN=ZONE for the inputs that match
        const std::size_t eq = arg.rfind('=');
        if (eq == std::string::npos) r.time_zone = arg;
        else r.input_zones.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
        break;
      }
      case kStats: inv.stats_file = arg; break;
      case kCollation: r.collation = arg; break;
      case kRejects: r.rejects = arg; break;
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
  // --multiline sorts by time where no key says otherwise.
  if (r.multiline && r.keys.empty() && r.ordering.empty()) time_key = r.keys.size(), r.keys.push_back("T");
  if (time_key && r.format != "lines") throw UsageError("--time applies to --format lines; CSV and JSON lines take KEY:time");
  // --time -r is newest first: its key takes -r, where a -k key's own
  // ordering letter would keep it to the last-resort comparison (GNU's rule).
  if (time_key && r.reverse) r.keys[*time_key] += 'r';
  if (inv.files0_from && !r.inputs.empty())
    throw BadCommandLine("extra operand '" + r.inputs[0] + "'\nfile operands cannot be combined with --files0-from");
  if (output) r.output = *output;
  r.field_separator = tab;
  r.io.verbose = r.verbose;
  return inv;
}

}  // namespace corank::cli
