#include "corank/text/text_sorter.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <span>

#include "corank/format.hpp"
#include "corank/gpu_gate.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/parallel.hpp"
#include "corank/planner.hpp"
#include "corank/progress.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/text/chunk_sort.hpp"
#include "corank/text/gpu_record_sort.hpp"
#include "corank/text/key_value_tally.hpp"
#include "corank/text/merged_chunk_writer.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/rejects_option.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/run_window.hpp"
#include "corank/text/sorted_chunk_writer.hpp"
#include "corank/text/sample_budget.hpp"
#include "corank/text/sorted_inputs.hpp"
#include "corank/text/text_sort_plan.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/text/run_merge.hpp"
#include "corank/sort_driver.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"

namespace corank::text {

namespace {

// Descriptors that a text sort opens after its first spill besides its runs,
// which it cannot do without: a merged run, and a spare. Runs are written and
// read through the page cache without engines; the output's range writers (a
// direct descriptor and a ring each), opened once no run is made any more,
// fall back to plainer writes where none are left.
constexpr std::uint64_t kDescriptorReserve = 2;
constexpr std::uint64_t kSamplesPerRange = 4;
constexpr std::uint64_t kEarlyMergeShare = 16;

// The output writer's buffer where one thread copies records into it (see
// record_writer.hpp); where many gather batches into it at once, the plan's
// gather_buffer.
constexpr std::size_t kCacheBuffer = std::size_t{256} << 10;

class TextSorter {
public:
  TextSorter(const TextSortOptions& options, TextFormat& format, SortStats& stats, RowCheck& rows)
      : opt_(options), plan_(plan_text_sort(options)), format_(format), stats_(stats), rows_(rows),
        progress_(options.progress) {
    stats_.threads = plan_.threads;
    stats_.memory_budget = plan_.budget;
  }

  void sort() {
    // Chunks are read by one thread for the whole sort, declared before the
    // reader so that it outlives the reader's requests (io/task_thread.hpp).
    io::TaskThread filler;
    ChunkReader reader(opt_.inputs, format_, io_, plan_.threads, plan_.budget, &rows_);
    if (!opt_.input_formats.empty()) reader.set_input_formats(opt_.input_formats);
    io::OutputFile output(opt_.output, io_);
    filler_ = &filler;
    reader_ = &reader;
    output_ = &output;
    total_ = reader.total_size();
    if (reader.mapped()) note(opt_.verbose, io_, "input: in memory already, mapped and split where it lies");
    // Two chunks alternate, one being read while the other is sorted; each
    // holds a third of the budget in record bytes and entries, and the sort's
    // scratch takes at most another third. An input that fits one chunk is
    // sorted in memory and written straight out.
    chunk_bytes_ = wanted_chunk_bytes_;
    stats_.mode = "in-memory";
    progress_.phase("sort", total_.value_or(0));

    const io::TaskThread::Drain fills_done(filler);  // no fill outlives the chunks
    filled_ = filler.run([this] { return reader_->fill(chunks_[0], chunk_bytes_); });
    // The GPU (CUDA context, pinned staging: about half a second) opens while
    // the first chunk is read, on a thread of its own that ends with this
    // scope, having finished the opening.
    io::TaskThread opener;
    gpu_opened_ = opener.run([this] {
      const auto t0 = Clock::now();
      auto gpu = open_gpu_prefix_sort(opt_, total_);
      gpu_setup_seconds_ = seconds_since(t0);
      return gpu;
    });
    drive_sort(*this, stats_);
    write_heads();  // where no record came after them
    chunks_[0] = Chunk();
    chunks_[1] = Chunk();
    stats_.bytes_in = reader.bytes_read();
    note(opt_.verbose, io_,
         io::format_line("input: %.3f s reading, %.3f s splitting into records on all threads; sort %.3f s",
                         reader.read_seconds(), reader.split_seconds(), sorting_.seconds() + window_seconds_));
    stats_.side_records = side_records_;
    stats_.one_pass = stats_.spill_bytes == 0 && !replacement_;
    if (streamed_) note(opt_.verbose, io_, adaptive_summary(stats_));
    if (sorting_.sorted_on_gpu()) {
      stats_.backend = "gpu";
      stats_.gpu_seconds = sorting_.gpu_times();
    }
    if (stats_.spilled_runs)
      note(opt_.verbose, io_,
           io::format_line("merged in %.3f s, %s", stats_.seconds.merge,
                           merged_in_ranges_ ? "in key ranges on all threads" : "by one loser tree"));
    out_->finish();
    progress_.finish();
    stats_.records_out = out_->records() + in_range_.records + stats_.head_records;
    stats_.bytes_out = out_->bytes() + in_range_.bytes;
    stats_.seconds.write += out_->write_seconds() + in_range_.seconds;
    auto tc = Clock::now();
    // The rejects first: a failure after them leaves the output as it was, and nothing lost.
    if (rows_.rejects()) rows_.rejects()->commit();
    output_->commit();
    stats_.seconds.write += seconds_since(tc);
  }

  const TextSortPlan& plan() const noexcept { return plan_; }  // for -m

  // --- the model of drive_sort (sort_driver.hpp) ---
  using Run = SpilledRun;

  std::optional<bool> next_chunk() {
    const bool got = timed_get(filled_);
    chunk_bytes_ = wanted_chunk_bytes_;  // no fill runs now
    if (!out_) open_writer();  // after the first fill, which has read a header if there is one
    if (gpu_opened_.valid()) sorting_.use(gpu_opened_.get(), gpu_setup_seconds_);
    if (!got) return std::nullopt;
    const bool last = reader_->done();
    if (!last && !opt_.input_formats.empty()) throw NotOneChunk();
    chunk_ = next_;
    next_ ^= 1;
    // The other chunk is written out or spilled by now.
    if (!last) filled_ = filler_->run([this, c = next_] { return reader_->fill(chunks_[c], chunk_bytes_); });
    Chunk& chunk = chunks_[chunk_];
    stats_.records_in += chunk.records.size();
    tally_.add(format_, chunk, plan_.threads);
    stats_.key_values = tally_.counts();
    // The whole input in one chunk: its last merge writes the output.
    sorting_.sort(chunk, format_, scratch_, last && first_chunk_ && merges_into_output());
    progress_.advance(chunk.input_bytes);
    if (!last && first_chunk_) start_streaming(chunk);
    first_chunk_ = false;
    return last;
  }

  void write_chunk() {
    write_heads();
    if (sorting_.pending_slices().empty())
      write_sorted(writing(), chunks_[chunk_], *out_, *output_, opt_.debug, in_range_);
    else
      write_sorted_slices(writing(), chunks_[chunk_], sorting_.pending_slices(), *out_, *output_, io_, in_range_);
    sorting_.merged();
  }

  SpilledRun spill_chunk() {
    sorting_.finish(chunks_[chunk_], format_, scratch_);  // a no-op: only the whole output is left unmerged
    return spill(chunks_[chunk_]);
  }

  // --- adaptive run formation (run_window.hpp; sort_driver.hpp's streams) ---
  bool streams() const { return window_ != nullptr; }
  void end_stream() { window_->flush(*out_, scratch_); }

  std::vector<SpilledRun> stream_chunk(bool last) {
    Chunk& chunk = chunks_[chunk_];
    std::vector<SpilledRun> left;
    const std::size_t late = window_->late_records(chunk);
    if (!last && late * 2 > chunk.records.size()) {  // not nearly sorted: the window's run, then one per chunk
      if (window_->records()) left.push_back(spill(window_->as_chunk()));
      left.push_back(spill(chunk));
      window_.reset();
      wanted_chunk_bytes_ = plan_.chunk_bytes;
      note(opt_.verbose, io_, "adaptive run formation: most of a chunk came late, one run per chunk from here on");
      return left;
    }
    if (late) left.push_back(spill(chunk_part(chunk, 0, late)));
    side_records_ += late;
    const auto t0 = Clock::now();
    window_->advance(chunk, late, last, *out_, scratch_);
    stream_samples_.thin(*out_, plan_.sample_bytes / 2);
    if (chunk.capacity > wanted_chunk_bytes_) chunk = Chunk();  // the next fill takes a streaming chunk's memory
    window_seconds_ += seconds_since(t0);
    streamed_ = true;
    return left;
  }

  // The output holds the run streamed into it: read back, it is merged with
  // `runs` (first among equals: its records were read before any of theirs)
  // into a new output; in a plain file as a spilled run is, on all threads where it can.
  void merge_stream_into_output(std::span<SpilledRun> runs) {
    out_->finish();
    const RunContent content{out_->records(), out_->bytes() - header_bytes_};
    stats_.seconds.write += out_->write_seconds();
    const bool plain = header_bytes_ == 0 && output_->can_reserve_range() && !compressed_runs();
    std::vector<SpilledRun> all;
    std::vector<std::unique_ptr<RecordReader>> readers;
    if (plain) {
      output_->finish_writing();
      all.push_back(SpilledRun{io::FileDesc(output_->open_for_reading()), content.bytes, stream_samples_.take(), content});
      for (SpilledRun& r : runs) all.push_back(std::move(r));
    } else {
      readers.push_back(output_run_reader(*output_, header_bytes_, content, format_, plan_.merge_buffer, io_));
      for (const auto& r : runs) readers.push_back(run_reader(r, format_, plan_.merge_buffer, io_));
    }
    replacement_ = std::make_unique<io::OutputFile>(opt_.output, io_);
    output_ = replacement_.get();
    open_writer();
    if (plain) return merge_into_output(all);
    merge_streams(readers, format_, *out_, &progress_);
  }

  SpilledRun spill(const Chunk& chunk) {
    if (max_runs_ == 0) plan_runs_held();
    SpilledRun run{temps_.create_anonymous(), 0, {}, {}};
    if (compressed_runs()) {
      run.bytes = write_compressed(writing(), chunk, run.fd.get(), io_, plan_.piece_bytes, run.content);
    } else {
      run.bytes = write_at(writing(), chunk, io::FileRange(run.fd.get(), 0, "temporary file"),
                           keeps_samples() ? &run.samples : nullptr, samples_.stride(), &run.content.records);
      run.content.bytes = run.bytes;
    }
    run.samples.shrink_to_fit();
    stats_.spill_bytes += run.bytes;
    return run;
  }

  void held(std::span<SpilledRun> runs) { samples_.trim(runs); }

  void formed(std::span<const SpilledRun> runs) {
    forming_ = false;
    window_.reset();
    chunks_[0] = Chunk();
    chunks_[1] = Chunk();
    stats_.mode = "external";
    stats_.spilled_runs = runs.size();
    note(opt_.verbose, io_,
         io::format_line("spilled %zu runs (%llu bytes), merge fan-in %zu, at most %zu runs held", runs.size(),
                         static_cast<unsigned long long>(stats_.spill_bytes), fan_in_, max_runs_));
    progress_.phase("merge", reader_->bytes_read());
  }

  std::size_t fan_in() const { return fan_in_; }
  std::size_t max_runs() const { return max_runs_; }
  std::uint64_t bytes(const SpilledRun& r) const { return r.bytes; }

  // Merges `group` (consecutive runs) into one longer run, in key ranges by
  // all threads where merge_in_ranges_ok.
  SpilledRun merge(std::span<SpilledRun> group) {
    SpilledRun merged{temps_.create_anonymous(), 0, {}, {}};
    if (merge_in_ranges_ok(group)) {
      const io::FileRange range(merged.fd.get(), 0, "temporary file");
      const MergedBytes m = merge_in_ranges(group, format_, range, parallel_merge(&merged.samples));
      merged.bytes = m.bytes;
      merged.content = {m.records, m.bytes};
      merged.samples.shrink_to_fit();
    } else {
      auto sink = io::page_cache_run_sink(merged.fd.get(), io_, plan_.threads, plan_.piece_bytes);
      RecordWriter w(*sink, format_.terminator(), unique_format());
      std::vector<std::unique_ptr<RecordReader>> readers;
      for (const SpilledRun& r : group) readers.push_back(run_reader(r, format_, merge_buffer(), io_));
      merge_streams(readers, format_, w);
      w.finish();
      sink->finish();
      merged.bytes = sink->stored_bytes();
      merged.content = {w.records(), w.bytes()};
    }
    for (auto& r : group) {
      r.fd.reset();  // frees the space at once
      r.samples = {};
    }
    return merged;
  }

  // The last merge. Where the output is a file written in place (not under
  // --debug), in key ranges by all threads where merge_in_ranges_ok.
  void merge_into_output(std::span<SpilledRun> runs) {
    write_heads();
    RecordWriter& out = *out_;
    io::OutputFile& output = *output_;
    if (merge_in_ranges_ok(runs) && !opt_.debug && output.can_reserve_range()) {
      out.finish();  // the header, if any, goes first
      const MergedBytes m = merge_in_ranges(runs, format_, *output.reserve_range(), parallel_merge(nullptr));
      in_range_.records += m.records;
      in_range_.bytes += m.bytes;
      merged_in_ranges_ = true;
      return;
    }
    std::vector<std::unique_ptr<RecordReader>> readers;
    for (const auto& r : runs) readers.push_back(run_reader(r, format_, plan_.merge_buffer, io_));
    merge_streams(readers, format_, out, &progress_);
  }

private:
  // The inputs' heads (ChunkReader::heads) before any record, every input read by then (no streaming).
  void write_heads() {
    if (std::exchange(heads_written_, true) || reader_->heads().empty()) return;
    out_->write_raw(reader_->heads());
    stats_.head_records = reader_->head_records(), stats_.head_bytes = reader_->heads().size();
    stats_.records_in += stats_.head_records;
  }

  void open_writer() {
    out_ = std::make_unique<RecordWriter>(output_->sink(), format_.terminator(), unique_format(),
                                          plan_.threads > 2 ? std::max(plan_.gather_buffer, kCacheBuffer) : kCacheBuffer);
    if (opt_.debug) out_->show_debug_view(format_);
    if (format_.has_header() && reader_->saw_header() && opt_.write_header) {
      out_->write_raw(reader_->header() + '\n');
      header_bytes_ = reader_->header().size() + 1;
    }
  }

  // After the first chunk, not the last: the chunks join one run in the output
  // where the first looks nearly sorted (random or reverse-sorted input forms
  // today's runs at no cost) and the output can be read back (not --debug's),
  // and nothing must precede its records (the heads of --multiline's inputs).
  void start_streaming(const Chunk& first) {
    const std::uint64_t share = plan_.chunk_bytes * 3;
    const std::uint64_t window = share / kWindowShare;
    if (opt_.debug || format_.records_are_runs_of_lines() || !output_->can_read_back()) return;
    if (!looks_nearly_sorted(first, window)) return;
    window_ = std::make_unique<RunWindow>(format_, window);
    if (keeps_samples() && header_bytes_ == 0) stream_samples_.keep(*out_, samples_.stride());
    stats_.mode = "external";
    wanted_chunk_bytes_ = std::max<std::uint64_t>(share / kStreamChunkShare, 1024);
    note(opt_.verbose, io_,
         io::format_line("adaptive run formation: the input looks nearly sorted, streaming one run into the output "
                         "(a window of %llu bytes)", static_cast<unsigned long long>(window)));
  }

  const TextFormat* unique_format() const { return format_.unique() ? &format_ : nullptr; }
  ChunkWriting writing() const { return ChunkWriting{format_, plan_.threads}; }
  bool merges_into_output() const { return !format_.unique() && !opt_.debug && output_->can_reserve_range(); }
  // Samples serve only the parallel merge (merge_in_ranges_ok).
  bool keeps_samples() const { return plan_.threads > 1 && !format_.unique() && !compressed_runs(); }

  // At the first spill, with the inputs, the output and the GPU open
  // (planner.hpp's runs_held). Runs go through the page cache without engines.
  void plan_runs_held() {
    const RunsHeld h = runs_held(kDescriptorReserve, kDescriptorReserve, !io_.temp_program.empty());
    max_runs_ = h.max_runs;
    fan_in_ = std::min(fan_in_, std::max<std::size_t>(2, h.fan_in_cap));
  }
  bool compressed_runs() const { return io_.compressed_runs(); }
  // While runs form (an early merge at the open-file limit) the chunks hold
  // the arrays: the merge's buffers shrink to a kEarlyMergeShare of them.
  std::size_t merge_buffer() const {
    return forming_ ? std::max<std::size_t>(4 << 10, plan_.merge_buffer / kEarlyMergeShare) : plan_.merge_buffer;
  }

  bool timed_get(std::future<bool>& f) {
    auto t0 = Clock::now();
    const bool r = f.get();
    stats_.seconds.read += seconds_since(t0);  // time the sort waited for input
    return r;
  }

  // Whether runs are merged in key ranges by all threads (run_merge.hpp)
  // rather than by one loser tree: plain runs, without -u, with samples dense
  // enough. Each cut scans a run from a sample to the next, so with fewer
  // than kSamplesPerRange a run for each range (a small budget thins them,
  // sample_budget.hpp) the cuts would read much of the runs once more.
  bool merge_in_ranges_ok(std::span<const SpilledRun> runs) const {
    if (plan_.threads <= 1 || format_.unique() || compressed_runs() || !can_merge_in_ranges(runs)) return false;
    std::uint64_t samples = 0;
    for (const SpilledRun& r : runs) samples += r.samples.size();
    return samples >= kSamplesPerRange * plan_.threads * runs.size();
  }
  // For a merged run (samples kept, written through the page cache like every
  // run), or for the output (written direct).
  ParallelMerge parallel_merge(std::vector<RunSample>* samples) {
    const bool output = samples == nullptr;
    return ParallelMerge{.io = io_, .direct = output, .threads = plan_.threads,
                         .memory = plan_.arrays / (forming_ ? kEarlyMergeShare : 2), .samples = samples,
                         .stride = samples_.stride(), .progress = output ? &progress_ : nullptr};
  }

  const TextSortOptions& opt_;
  const TextSortPlan plan_;
  const io::IoOptions& io_ = plan_.io;  // opt_.io with blocks fitted to the budget
  TextFormat& format_;
  SortStats& stats_;
  RowCheck& rows_;
  Progress progress_;
  bool merged_in_ranges_ = false;  // the last merge ran on all threads
  RangeWrites in_range_;  // past out_, which counts the rest
  // The sort's input and output, set for the length of sort().
  io::TaskThread* filler_ = nullptr;
  ChunkReader* reader_ = nullptr;
  io::OutputFile* output_ = nullptr;
  std::optional<std::uint64_t> total_;
  std::uint64_t chunk_bytes_ = 0;
  std::uint64_t wanted_chunk_bytes_ = plan_.chunk_bytes;  // chunk_bytes_ from the next fill on
  // Adaptive run formation: the window while chunks stream into the output.
  std::unique_ptr<RunWindow> window_;
  bool first_chunk_ = true, streamed_ = false, heads_written_ = false;  // streamed_: some chunk joined the output's run
  std::uint64_t side_records_ = 0;
  std::uint64_t header_bytes_ = 0;  // the output's header line, before its run
  std::unique_ptr<io::OutputFile> replacement_;  // the output the streamed run is merged into
  StreamSamples stream_samples_;  // of the output's run, for the parallel merge
  std::size_t fan_in_ = plan_.fan_in;
  std::size_t max_runs_ = 0;  // 0 until the first spill (plan_runs_held)
  bool forming_ = true;       // runs are still forming (formed() ends it)
  SampleBudget samples_{plan_.sample_bytes, plan_.sample_stride};
  io::TempDirectories temps_{opt_.temp_dirs};
  Chunk chunks_[2];
  int chunk_ = 0, next_ = 0;  // the chunk sorted, and the one read next
  std::future<bool> filled_;  // the next chunk's fill
  std::future<std::unique_ptr<GpuPrefixSort>> gpu_opened_;
  std::unique_ptr<RecordWriter> out_;
  io::HugeVector<RecordEntry> scratch_;
  double gpu_setup_seconds_ = 0;
  ChunkSort sorting_{opt_, plan_.threads};
  double window_seconds_ = 0;  // merging chunks into the window (adaptive run formation)
  KeyValueTally tally_;
};

}  // namespace

SortStats sort_text(const TextSortOptions& options, TextFormat& format) {
  if (options.debug && !format.can_debug()) throw UsageError("--debug applies to --format lines");
  const auto t0 = Clock::now();
  SortStats stats;
  RowCheck rows(format, nullptr);
  TextSorter sorter(options, format, stats, rows);
  std::unique_ptr<Rejects> rejects = open_rejects(options, format, sorter.plan().io);
  rows.reject_to(rejects.get());
  if (options.merge_only)
    merge_sorted_inputs(options, sorter.plan(), format, stats, &rows);
  else
    sorter.sort();
  stats.seconds.total = seconds_since(t0);
  if (rejects) report_rejects(*rejects, options, stats);
  return stats;
}

}  // namespace corank::text
