#include "corank/mpi/job.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "corank/errors.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/mpi/cleanup.hpp"
#include "corank/mpi/input_formats.hpp"
#include "corank/mpi/input_years.hpp"
#include "corank/request_options.hpp"
#include "corank/text_format_of.hpp"

namespace corank::mpi {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kChunkBytes = 64 * kMiB;   // input read and binned at once
constexpr std::uint64_t kRoundBytes = 128 * kMiB;  // received by a rank in one exchange round
static_assert(kRoundBytes <= kMaxRoundBytes);

// What corank-mpi does not distribute, or cannot write; throws UsageError.
void check_request(const DistributedRequest& request, const SortRequest& r, bool is_text, unsigned rank) {
  if (r.output.empty() || r.output == "-") throw UsageError("corank-mpi writes a file: give -o FILE");
  struct stat out_st {};
  if (::lstat(r.output.c_str(), &out_st) == 0 && !S_ISREG(out_st.st_mode))
    throw UsageError("'" + r.output + "' is not a regular file: the output is written beside it and renamed onto it");
  if (r.inputs.empty() || std::find(r.inputs.begin(), r.inputs.end(), "-") != r.inputs.end())
    throw UsageError("corank-mpi reads files on a shared path, not standard input");
  if (r.merge_only) throw UsageError("-m is not distributed: merge with corank");
  // (The command line sets no output codec; a program through the library might.)
  if (r.io.output_codec && *r.io.output_codec != io::Codec::none)
    throw UsageError("corank-mpi writes its output uncompressed");
  if (r.debug) throw UsageError("--debug is not distributed: use corank");
  // Each rank would hold its own rejects, and one file committed with the
  // output needs them gathered: not done.
  if (!r.rejects.empty()) throw UsageError("--rejects is not distributed: use corank");
  if (is_text && !r.random_source &&
      (r.ordering.find('R') != std::string::npos ||
       std::any_of(r.keys.begin(), r.keys.end(), [](const std::string& k) { return k.find('R') != std::string::npos; })))
    throw UsageError("-R needs --random-source FILE under corank-mpi, so that every rank draws the same order");
  validate(r);
  // Whether each is a regular file is for the ranks that open them to say
  // (a file missing on one rank is that rank's error, with its reason).
  const bool compressed = std::any_of(r.inputs.begin(), r.inputs.end(), [&](const std::string& p) {
    return r.io.input_codec ? *r.io.input_codec != io::Codec::none : io::codec_from_suffix(p) != io::Codec::none;
  });
  if (compressed) throw UsageError("corank-mpi reads regular uncompressed files (each rank reads its own byte range)");
  if (rank == 0 && !request.stats_file.empty() && request.stats_file != "-") {
    const std::string& f = request.stats_file;
    if (::access(f.c_str(), F_OK) == 0 ? ::access(f.c_str(), W_OK) != 0
                                       : ::access(dir_of(f).c_str(), W_OK | X_OK) != 0)
      throw io::IoError("cannot write statistics", f, errno);
  }
}

}  // namespace

Job::Job(const DistributedRequest& req, unsigned rank, const NodeShare& node_share) : request(req), node(node_share) {
  SortRequest& r = local;
  r = req.sort;
  r.io.diagnostics = nullptr;  // the ranks' own sorts stay quiet
  const bool is_text = is_text_format(r.format);
  verify = r.verify;
  if (is_text) r.verify = false;  // the library verifies binary pieces; text gets the boundary check only
  check_request(req, r, is_text, rank);
  request::settle_input_zones(r);  // the rank sorts pieces that no pattern names
  settle_input_years(r);           // and whose modification time is not the inputs'
  settle_input_formats(r);         // and whose first lines are not the inputs'

  // Each process of a node gets its share of the node's threads and memory.
  threads_given = r.threads != 0;
  memory_given = r.memory_budget != 0;
  if (!threads_given) r.threads = node.threads;
  if (!memory_given) r.memory_budget = node.memory;
  r.progress = r.progress && rank == 0;  // one line on the terminal: rank 0's

  // Buffers of a few tens of MiB, reused chunk after chunk, stay in cache and
  // fault their pages in once; larger ones only cost page faults.
  const std::uint64_t quarter = std::max<std::uint64_t>(r.memory_budget / 4, kMiB);
  chunk_bytes = std::min(quarter, kChunkBytes);
  round_quota = std::min(quarter, kRoundBytes);  // over the ranks in open()
}

void Job::open(const std::vector<std::uint64_t>* snapshot, unsigned rank, unsigned ranks) {
  const SortRequest& r = local;
  inputs = snapshot ? std::make_unique<Inputs>(r.inputs, *snapshot) : std::make_unique<Inputs>(r.inputs);
  // --multiline: a record is a run of lines, which the ranks' shares, their
  // splitters and the pieces they receive would cut apart or join across
  // files (a run without its first line glued onto another file's record).
  // One rank and one input that holds records: its piece is the input as it
  // lies, read as corank reads it.
  if (r.multiline) {
    std::size_t holding = 0;
    for (std::size_t i = 0; i < inputs->files(); ++i) holding += inputs->file_size(i) > 0;
    if (ranks > 1 || holding > 1)
      throw UsageError("--multiline is not distributed (one rank and one input only): sort multi-line records with corank");
  }
  if (is_text_format(r.format)) {
    auto f = text_format_of(r);
    term = f->terminator();
    csv = r.format == "csv" || r.format == "tsv";
    escaped_newlines = r.format == "pgtext";
    if (csv) delimiter = !r.delimiter.empty() ? r.delimiter[0] : r.format == "tsv" ? '\t' : ',';
    // The header: the first row of the first input that has one (every
    // input's first row is its header). It names the columns here, leads
    // every received file so that each rank's sort names them alike, and
    // heads the output once. Every later input's must name the same columns
    // (the format says how they may differ), as corank requires.
    if (f->has_header())
      for (std::size_t i = 0; i < inputs->files(); ++i)
        if (inputs->file_size(i) > 0) {
          const std::string h = csv_row_at(*inputs, inputs->begin[i], *f);
          if (header.empty()) {
            f->set_header(h, inputs->name(i));
            header = h + '\n';
            fields = f->field_count(h);
            fields_from = "the header of " + inputs->name(i);
          } else {
            f->check_header(h, inputs->name(i));
          }
        }
    // Without a header every row has as many fields as the first input's first.
    if (!f->has_header() && f->checks_records())
      for (std::size_t i = 0; i < inputs->files() && !fields_from.size(); ++i)
        if (inputs->file_size(i) > 0 && rows_by_format()) {
          fields = f->field_count(csv_row_at(*inputs, inputs->begin[i], *f));
          fields_from = "the first row (" + inputs->name(i) + ":1)";
        }
    text_format = f.get();
    order = std::make_unique<TextOrder>(std::move(f));
  } else {
    const RecordFormat format = parse_format(r.format, r.keys);
    record_size = format.record_size;
    order = std::make_unique<BinaryOrder>(format, r.reverse);
  }
  partitioner = std::make_unique<Partitioner>(*order, !r.unique);
  if (!text())
    for (std::size_t i = 0; i < inputs->files(); ++i)
      if (inputs->file_size(i) % record_size != 0)
        throw InputError(inputs->name(i) + ": size " + std::to_string(inputs->file_size(i)) +
                         " is not a multiple of the record size " + std::to_string(record_size));
  if (!text())
    share = fixed_share(*inputs, rank, ranks, record_size);
  else if (!csv)  // CSV rows are cut by cut_csv_share
    share = line_share(*inputs, rank, ranks, term, escaped_newlines);
  scratch = std::make_unique<ScratchSpace>(r.temp_dirs);
  sweep_dead_jobs(dir_of(r.output));
  round_quota = std::max<std::uint64_t>(round_quota / ranks, 1);
}

TextReading Job::reading(bool check) const {
  TextReading t;
  t.format = text_format;
  t.rows_by_format = rows_by_format();
  t.skip_headers = !header.empty();
  t.check = check;
  t.fields = fields;
  t.fields_from = fields_from;
  return t;
}

}  // namespace corank::mpi
