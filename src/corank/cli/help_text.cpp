#include "corank/cli/args.hpp"

// --help: GNU sort's options first, in its words, then corank's. packaging/
// builds the man page from it (help2man).
namespace corank::cli {

namespace {

constexpr const char* kUsage = R"(Usage: corank [OPTION]... [FILE]...
  or:  corank [OPTION]... --files0-from=F
Write the sorted concatenation of all FILE(s) to standard output: text lines
as GNU sort sorts them in the locale (LC_ALL, LC_COLLATE, ..., LANG; C is
byte order, and the fastest), CSV/TSV rows and PostgreSQL COPY text
rows by column, JSON lines by field, or fixed-size
binary records (Sort Benchmark gensort records, typed arrays, records with keys
at byte offsets), in memory or through temporary files when the input is
larger than the memory budget, on the GPU when one pays.

With no FILE, or when FILE is -, read standard input.

)";

constexpr const char* kOptions = R"(Mandatory arguments to long options are mandatory for short options too.
Ordering options (text formats):
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
      --multiline             a line in which --time finds no timestamp (a
                                stack trace's) belongs to the record before it;
                                records move, and -u -c --stats count, whole;
                                each file's text before its first timestamp
                                comes first; sorts by --time where no key is
                                given
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys together
      --random-source=FILE    get the seed of -R's order from FILE
  -r, --reverse               reverse the result of comparisons (every format)
      --sort=WORD             sort according to WORD: general-numeric -g,
                                human-numeric -h, month -M, numeric -n,
                                random -R, version -V, time (the key letter T)
      --time                  sort by each line's timestamp, found anywhere in
                                it, in the formats detected in the input files,
                                or at a JSON line's time member ("time",
                                "@timestamp") where a file's lines have one
                                (the key -k T; with -r newest first; see
                                "Sorting logs" in README)
      --time-format=FMT       time keys read FMT (strftime-style: %Y %m %d %H
                                %M %S %f %z %Z %b %e %s ...) instead of the
                                known formats
      --time-year=YEAR[-MM]   the year of timestamps without one (syslog): a
                                month after MM (default 12) is in YEAR-1
                                (default: each input's modification date)
      --time-zone=ZONE        time keys read timestamps without a UTC offset
                                in the IANA zone ZONE (default UTC); a skipped
                                or repeated local hour takes the offset its
                                abbreviation names (CET, CEST), else the
                                earlier one; PATTERN=ZONE (repeatable): the
                                inputs whose name matches the wildcards
                                PATTERN (their path's last parts, where it
                                has a '/') in ZONE instead, the first match
                                deciding; standard input takes ZONE's.
                                --debug and formats other than lines read
                                every input in one zone
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
  -S, --buffer-size=SIZE      use SIZE for the main memory buffer (default 50%;
                                a % is of RAM, or of the control group's
                                memory limit where that is less)
  -t, --field-separator=SEP   use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp;
                                multiple options specify multiple directories
      --parallel=N            change the number of sorts run concurrently to N
                                (default: every core of the affinity mask,
                                within the control group's CPU quota)
  -u, --unique                output only the first of an equal run
  -z, --zero-terminated       line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Formats and corank's options:
      --format=FMT            lines (default), csv, tsv, pgtext (PostgreSQL's
                                COPY text format), jsonl (one JSON object per
                                line), gensort, fixed:R, u32, u64, i32, i64,
                                f32, f64
      --delimiter=C           field delimiter (default , for csv, tab for tsv
                                and pgtext)
      --header                CSV, pgtext: the first row is a header (COPY's
                                HEADER), kept first; keys may name its columns
      --decimal-separator=SEP CSV: numbers in n, decimal and float keys are
                                written with SEP, . (default) or , (an export
                                made under a locale such as de_DE: 2,5)
      --nulls=WHERE           CSV, pgtext, JSON lines: NULLs sort last
                                (default) or first, under every key and
                                direction without a place of its own
      --null=STRING           CSV: an unquoted field equal to STRING is NULL
                                (default: an empty one); pgtext: a field
                                written as STRING (default \N), as COPY's NULL
      --collation=NAME        text formats: order text keys by the ICU
                                collation NAME (und, en, de-u-co-phonebk, sv,
                                PostgreSQL's und-x-icu) or a glibc locale's
                                (en_US.utf8, as PostgreSQL's libc collations);
                                equal ones by bytes; not bytes or LC_COLLATE
      --rejects=FILE          text formats: a row with more or fewer fields
                                than the header (or first row), a JSON line
                                that is no object, goes to FILE unchanged (an
                                error without it), counted on stderr
      --verify                binary formats: re-read the output before
                                committing it: in order, the input's records
      --gpu=WHEN              sort on the GPU: auto (default: when one works and
                                the input is large enough), on, off
      --gpu-memory=SIZE       use at most SIZE of GPU memory
      --progress              show progress on standard error (default: when
                                it is a terminal)
      --no-progress           show no progress
      --stats=FILE            write statistics (inputs, options, records, runs,
                                stage times, per key the values not read as
                                its type and the NULLs) as JSON to FILE (- for
                                standard output, when the output goes elsewhere)
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
            compares timestamps as UTC instants: ISO 8601, RFC 2822, Common
            Log Format (-k4,5T or -k4,4T), Go/nginx and Apache error logs,
            syslog (-k1,3T), epoch numbers; unparsable ones first. Letters
            alone with T (-k T, --time) find the timestamp anywhere in the line.
            The obsolete form +POS1 [-POS2] (origin 0) is accepted as GNU sort
            accepts it.
  csv, tsv, pgtext
            COLUMN[:TYPE][:desc][:nulls_first|:nulls_last][:collate=NAME]:
            COLUMN is a number from 1 or a header name; TYPE is ordering
            letters as for lines (default: text), or n (exact numbers,
            exponents too), decimal, float (as PostgreSQL's float8), date
            (YYYY-MM-DD), time or text; collate=NAME orders a text key by an
            ICU collation or a glibc locale's (C: bytes); unparsable
            decimals, floats, dates and times sort first; NaN and Infinity
            as PostgreSQL orders them (-Infinity < numbers < Infinity <
            NaN), and the times -infinity and infinity first and last. NULLs (the null string) go where nulls_first or
            nulls_last says, else where --nulls says. A row with more or
            fewer fields than the header (or first row) is an error naming
            its file and line, or goes to --rejects
  jsonl     PATH[:TYPE][:desc][:nulls_first|:nulls_last][:collate=NAME]: PATH
            names a field, dots for nested ones (user.id), log\.level or
            ["log.level"] for a name with a dot, . for the whole record
            (its bytes: -u --key . drops exact duplicates); TYPE as for CSV;
            without one, strings (by the collation) < numbers < false < true
            < arrays < objects. Missing
            fields and null are NULL; a line that is not a JSON object is an
            error (or goes to --rejects); blank lines are skipped, as jq does
  binary    OFFSET:LENGTH[:TYPE][:desc]: TYPE is bytes (default, memcmp
            order), u8 u16 u32 u64 i8 i16 i32 i64 (little-endian), u16be ...
            i64be (big-endian), f32 f64 (f32be f64be; IEEE total order)

Without -s or -u, lines whose keys are equal are ordered by their whole bytes
or, outside the C locale, by its collation (GNU's last-resort comparison);
with -s they keep their input order; -u keeps the first line of each run of
equal keys. Binary formats always sort stably. Text records keep their line
ending; a file's last one without an ending gets that of its first (CR LF or LF).

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E.

A sort in which some key values did not read as the key's type (a line
without a time under --time) or were NULL ends with one line on stderr that
counts them and says where they sorted; the exit status stays 0.

)";

constexpr const char* kClosing = R"(Exit status: 0 on success, 1 if --check found disorder, 2 on any error.

Examples:
  corank -t, -k2,2n -k1,1 -o out.txt in.txt
  corank --format csv --header --key price:n:desc --key name -o out.csv in.csv
  corank --format csv --header --key name:text:collate=de -o out.csv in.csv
  corank -k4,5T -o by-time.log access.log
  corank --time --time-zone Europe/Berlin -o all.log app.log access.log syslog
  corank --time --time-zone 'ny-*=America/New_York' -o all.log ny-app.log a.log
  corank --multiline -o all.log app.log worker.log
  corank --format jsonl --key ts:time --key user.id:n -o out.jsonl events.jsonl
  corank --format jsonl -u --key ts:time --key . -o all.jsonl a.jsonl b.jsonl
  corank --format pgtext --header -k ts:time:desc:nulls_first dump.txt
  corank --format gensort -S 8G -T /scratch -o sorted.dat input.dat
)";

}  // namespace

std::string help_text() { return std::string(kUsage) + kOptions + kClosing; }

std::string help_options_text() { return kOptions; }

}  // namespace corank::cli
