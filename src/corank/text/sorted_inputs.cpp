#include "corank/text/sorted_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "corank/io/output_file.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/sort_driver.hpp"
#include "corank/stopwatch.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/run_merge.hpp"

namespace corank::text {

namespace {

// An input is read through blocks of its own besides its record buffer: two
// of the smallest the engines take, so that a wide batch stays within -S.
constexpr std::size_t kInputBlock = std::size_t{64} << 10;
constexpr unsigned kInputDepth = 2;
// Descriptors besides the runs and the batch's inputs: the output, its sink
// (a direct descriptor and a ring), a merged run and a spare.
constexpr std::uint64_t kDescriptorReserve = 5;

// -m as a model of drive_sort: a chunk is the next batch of inputs, merged
// straight into the output when it is the only one, else into a run. Runs
// keep no samples and merge by one loser tree.
class InputBatches {
public:
  using Run = SpilledRun;

  // Opens every input once (before the output exists, as a sort does).
  InputBatches(const TextSortOptions& options, const TextSortPlan& plan, TextFormat& format, RowCheck* rows)
      : opt_(options), plan_(plan), format_(format), rows_(rows), temps_(options.temp_dirs),
        names_(options.inputs.empty() ? std::vector<std::string>{"-"} : options.inputs) {
    // An input holds its file, and a direct descriptor and a ring where
    // engines are used; the runs held share what is left with a batch. An
    // input's memory is its record buffer and kInputDepth blocks.
    input_io_ = io_within_descriptors(plan.io);
    const std::uint64_t per_input = input_io_.use_uring ? 3 : 1;
    const std::uint64_t room = runs_within_descriptors(kDescriptorReserve);
    const std::uint64_t by_memory = plan.arrays / 2 / (plan.merge_buffer + kInputDepth * kInputBlock);
    const std::uint64_t widest = std::min<std::uint64_t>({plan.fan_in, by_memory, room / 2 / per_input});
    batch_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(widest, 2, std::max<std::size_t>(plan.fan_in, 2)));
    max_runs_ = static_cast<std::size_t>(std::max<std::uint64_t>(room > batch_ * per_input ? room - batch_ * per_input : 0, 2));
    const std::uint64_t share = plan.arrays / 2 / std::min(batch_, names_.size());
    const std::uint64_t block = share > plan.merge_buffer ? (share - plan.merge_buffer) / kInputDepth : 0;
    input_io_.block_size = static_cast<std::size_t>(
        std::clamp<std::uint64_t>(block / kInputBlock * kInputBlock, kInputBlock, std::max(plan.io.block_size, kInputBlock)));
    input_io_.queue_depth = kInputDepth;
    // Every input is opened once now, so that an unreadable one fails before
    // anything is merged; regular files open again in their batch, and the
    // rest stay open: a pipe or FIFO named by its path (/dev/stdin, <(...))
    // would have lost what was read of it, or wait for a writer that is gone.
    kept_.resize(names_.size());
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const std::string& n = names_[i];
      auto source = io::open_source(n, input_io_);
      struct stat st {};
      if (n == "-") {
        if (!stdin_) stdin_ = std::move(source);
      } else if (::stat(n.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        kept_[i] = std::move(source);
      }
    }
    // A run read through --compress-program holds a pipe to it.
    fan_in_ = plan.io.temp_program.empty() ? std::min(plan.fan_in, max_runs_)
                                           : std::max<std::size_t>(2, std::min(plan.fan_in, max_runs_ / 2));
  }

  std::optional<bool> next_chunk() {
    if (next_ == names_.size()) return std::nullopt;
    close_batch();
    const std::size_t end = std::min(names_.size(), next_ + batch_);
    for (; next_ < end; ++next_) {
      const std::string& n = names_[next_];
      io::ByteSource* src = n == "-"       ? stdin_.get()
                            : kept_[next_] ? sources_.emplace_back(std::move(kept_[next_])).get()
                                           : sources_.emplace_back(io::open_source(n, input_io_)).get();
      readers_.push_back(std::make_unique<RecordReader>([src](char* dst, std::size_t k) { return src->read(dst, k); },
                                                        src->name(), format_, plan_.merge_buffer));
      std::string_view h;
      // An input's first record is its header; the first input that has one
      // gives the output's, before any record is compared (keys may name
      // columns), and every later one must name the same columns.
      if (format_.has_header() && readers_.back()->next(h)) {
        if (!have_header_) {
          header_.assign(h);
          have_header_ = true;
          format_.set_header(header_, src->name());
          if (rows_) rows_->set_header(header_, src->name());
        } else {
          format_.check_header(h, src->name());
        }
      }
      if (rows_) readers_.back()->check_rows(*rows_);
      if (readers_.back()->divert_head(heads_)) ++head_records_;
    }
    ++batches_;
    return next_ == names_.size();
  }

  void write_chunk() {
    merge_streams(readers_, format_, out());
    close_batch();
  }

  Run spill_chunk() {
    Run run = merged_into_run([&](RecordWriter& w) { merge_streams(readers_, format_, w); });
    close_batch();
    return run;
  }

  Run merge(std::span<Run> group) {
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const Run& r : group) readers.push_back(run_reader(r, format_, plan_.merge_buffer, plan_.io));
    Run merged = merged_into_run([&](RecordWriter& w) { merge_streams(readers, format_, w); });
    readers.clear();
    for (Run& r : group) r.fd.reset();  // frees the space at once
    return merged;
  }

  void merge_into_output(std::span<Run> runs) {
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const Run& r : runs) readers.push_back(run_reader(r, format_, plan_.merge_buffer, plan_.io));
    merge_streams(readers, format_, out());
  }

  std::uint64_t bytes(const Run& r) const { return r.bytes; }
  std::size_t fan_in() const { return fan_in_; }
  std::size_t max_runs() const { return max_runs_; }

  void write_to(io::OutputFile& output) noexcept { output_ = &output; }

  // After drive_sort: what went to the output.
  RecordWriter& out() {
    if (!out_) {
      out_ = std::make_unique<RecordWriter>(output_->sink(), format_.terminator(), unique_format());
      if (opt_.debug) out_->show_debug_view(format_);
      if (have_header_ && opt_.write_header) out_->write_raw(header_ + '\n');
      out_->write_raw(heads_);  // every input's is read: the output is written once all are open
    }
    return *out_;
  }
  // --multiline: the inputs' text before their first timestamps, written first.
  std::uint64_t head_records() const noexcept { return head_records_; }
  std::uint64_t head_bytes() const noexcept { return heads_.size(); }
  std::size_t batches() const noexcept { return batches_; }

private:
  const TextFormat* unique_format() const { return format_.unique() ? &format_ : nullptr; }

  template <class Merge>
  Run merged_into_run(Merge&& merge) {
    Run run{temps_.create_anonymous(), 0, {}, {}};
    auto sink = io::page_cache_run_sink(run.fd.get(), plan_.io, plan_.threads, plan_.piece_bytes);
    RecordWriter w(*sink, format_.terminator(), unique_format());
    merge(w);
    w.finish();
    sink->finish();
    run.bytes = sink->stored_bytes();
    run.content = {w.records(), w.bytes()};  // what reading it back must yield (run_reader checks)
    return run;
  }

  void close_batch() {
    readers_.clear();
    sources_.clear();
  }

  const TextSortOptions& opt_;
  const TextSortPlan& plan_;
  TextFormat& format_;
  RowCheck* rows_;
  io::OutputFile* output_ = nullptr;
  io::TempDirectories temps_;
  std::vector<std::string> names_;
  io::IoOptions input_io_;
  std::unique_ptr<io::ByteSource> stdin_;
  std::size_t batch_ = 2, max_runs_ = 2, fan_in_ = 2;
  std::size_t next_ = 0, batches_ = 0;
  std::vector<std::unique_ptr<io::ByteSource>> sources_;  // the batch's, standard input aside
  std::vector<std::unique_ptr<io::ByteSource>> kept_;     // inputs that are not regular files, until their batch
  std::vector<std::unique_ptr<RecordReader>> readers_;
  std::string header_;
  bool have_header_ = false;
  std::string heads_;  // RecordReader::divert_head's
  std::uint64_t head_records_ = 0;
  std::unique_ptr<RecordWriter> out_;
};

}  // namespace

void merge_sorted_inputs(const TextSortOptions& options, const TextSortPlan& plan, TextFormat& format,
                         SortStats& stats, RowCheck* rows) {
  InputBatches batches(options, plan, format, rows);
  io::OutputFile output(options.output, plan.io);
  batches.write_to(output);
  stats.mode = "merge";
  auto t_merge = Clock::now();
  drive_sort(batches, stats);
  RecordWriter& out = batches.out();  // an empty input still gets its header
  out.finish();
  stats.seconds.merge = seconds_since(t_merge);
  stats.head_records = batches.head_records();
  stats.head_bytes = batches.head_bytes();
  stats.records_in = stats.records_out = out.records() + stats.head_records;
  stats.bytes_out = out.bytes();
  // The rejects first: a failure after them leaves the output as it was, and nothing lost.
  if (rows && rows->rejects()) rows->rejects()->commit();
  output.commit();
}

TextCheckResult check_text(const std::string& path, TextFormat& format, const io::IoOptions& io) {
  auto source = io::open_source(path, io);
  io::ByteSource* src = source.get();
  RecordReader reader([src](char* dst, std::size_t n) { return src->read(dst, n); }, path, format, 1 << 20);
  TextCheckResult result;
  std::string_view rec;
  std::uint64_t number = 0;
  RowCheck rows(format, nullptr);
  if (format.has_header()) {
    if (!reader.next(rec)) return result;
    format.set_header(rec, path);
    rows.set_header(rec, path);
    ++number;
  }
  reader.check_rows(rows);
  std::string head;  // --multiline: a file's text before its first timestamp is in order where it is
  if (reader.divert_head(head)) ++number;
  std::string prev;
  bool have_prev = false;
  // Under -u equal neighbours are disorder too, as in GNU sort -c -u.
  const int limit = format.unique() ? 0 : 1;
  while (reader.next(rec)) {
    ++number;
    if (have_prev && format.compare(prev, rec) >= limit) {
      result.sorted = false;
      result.record_number = number;
      result.line = reader.line();
      result.record.assign(rec);
      return result;
    }
    prev.assign(rec);
    have_prev = true;
  }
  return result;
}

}  // namespace corank::text
