#include "corank/text/text_sorter.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

#include <sys/stat.h>

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
#include "corank/text/gpu_record_sort.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_sort.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/sorted_chunk_writer.hpp"
#include "corank/text/sample_budget.hpp"
#include "corank/text/sorted_inputs.hpp"
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
      : opt_(options), plan_(plan(options)), format_(format), stats_(stats), rows_(rows), progress_(options.progress) {
    stats_.threads = plan_.threads;
    stats_.memory_budget = plan_.budget;
  }

  void sort() {
    // Chunks are read by one thread for the whole sort, declared before the
    // reader so that it outlives the reader's requests (io/task_thread.hpp).
    io::TaskThread filler;
    ChunkReader reader(opt_.inputs, format_, io_, plan_.threads, plan_.budget, &rows_);
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
    chunk_bytes_ = plan_.chunk_bytes;
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
    chunks_[0] = Chunk();
    chunks_[1] = Chunk();
    stats_.bytes_in = reader.bytes_read();
    note(opt_.verbose, io_,
         io::format_line("input: %.3f s reading, %.3f s splitting into records on all threads; sort %.3f s",
                         reader.read_seconds(), reader.split_seconds(), sort_seconds_));
    if (gpu_sorted_) {
      stats_.backend = "gpu";
      stats_.gpu_seconds = gpu_times_;
      stats_.gpu_seconds.setup = gpu_setup_seconds_;
    }
    if (stats_.spilled_runs)
      note(opt_.verbose, io_,
           io::format_line("merged in %.3f s, %s", stats_.seconds.merge,
                           merged_in_ranges_ ? "in key ranges on all threads" : "by one loser tree"));
    out_->finish();
    progress_.finish();
    stats_.records_out = out_->records() + in_range_.records;
    stats_.bytes_out = out_->bytes() + in_range_.bytes;
    stats_.seconds.write += out_->write_seconds() + in_range_.seconds;
    auto tc = Clock::now();
    // The rejects first: a failure after them leaves the output as it was, and nothing lost.
    if (rows_.rejects()) rows_.rejects()->commit();
    output.commit();
    stats_.seconds.write += seconds_since(tc);
  }

  const TextSortPlan& plan() const noexcept { return plan_; }  // for -m

  // --- the model of drive_sort (sort_driver.hpp) ---
  using Run = SpilledRun;

  std::optional<bool> next_chunk() {
    const bool got = timed_get(filled_);
    if (!out_) {
      // After the first fill, which has read a header if there is one.
      out_ = std::make_unique<RecordWriter>(output_->sink(), format_.terminator(), unique_format(),
                                            plan_.threads > 2 ? std::max(plan_.gather_buffer, kCacheBuffer) : kCacheBuffer);
      if (opt_.debug) out_->show_debug_view(format_);
      if (format_.has_header() && reader_->saw_header() && opt_.write_header)
        out_->write_raw(reader_->header() + '\n');
    }
    if (gpu_opened_.valid()) gpu_ = gpu_opened_.get();
    if (!got) return std::nullopt;
    const bool last = reader_->done();
    chunk_ = next_;
    next_ ^= 1;
    // The other chunk is written out or spilled by now.
    if (!last) filled_ = filler_->run([this, c = next_] { return reader_->fill(chunks_[c], chunk_bytes_); });
    Chunk& chunk = chunks_[chunk_];
    stats_.records_in += chunk.records.size();
    sort_chunk(chunk);
    progress_.advance(chunk.used);
    return last;
  }

  void write_chunk() { write_sorted(writing(), chunks_[chunk_], *out_, *output_, opt_.debug, in_range_); }

  SpilledRun spill_chunk() {
    if (max_runs_ == 0) plan_runs_held();
    const Chunk& chunk = chunks_[chunk_];
    SpilledRun run{temps_.create_anonymous(), 0, {}};
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
    SpilledRun merged{temps_.create_anonymous(), 0, {}};
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
  const TextFormat* unique_format() const { return format_.unique() ? &format_ : nullptr; }
  ChunkWriting writing() const { return ChunkWriting{format_, plan_.threads}; }
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

  // On the GPU when it opened; a GPU failure leaves the records untouched and,
  // under --gpu=auto, this chunk and the rest are sorted on the CPU.
  void sort_chunk(Chunk& chunk) {
    const auto t0 = Clock::now();
    sort_chunk_on(chunk);
    sort_seconds_ += seconds_since(t0);
  }

  void sort_chunk_on(Chunk& chunk) {
    const EntryLess less{&format_, chunk.data()};
    if (gpu_) {
      try {
        gpu_sort_records(*gpu_, chunk.records, scratch_, less, plan_.threads);
        gpu_sorted_ = true;
        gpu_times_ = gpu_->times();
        return;
      } catch (const GpuError& e) {
        gpu_fail_over(opt_, "sort", e);
        gpu_.reset();
      }
    }
    parallel_sort(chunk.records, scratch_, less, plan_.threads);
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
    return ParallelMerge{.io = io_,
                         .direct = output,
                         .threads = plan_.threads,
                         .memory = plan_.arrays / (forming_ ? kEarlyMergeShare : 2),
                         .samples = samples,
                         .stride = samples_.stride(),
                         .progress = output ? &progress_ : nullptr};
  }

  static TextSortPlan plan(const TextSortOptions& o) {
    const std::uint64_t budget = o.memory_budget ? o.memory_budget : default_memory_budget();
    const unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    // The read-ahead, the output's or a run's write-behind and a merge's
    // output hold engine buffers besides the chunks.
    return plan_text_sort(budget, threads, plan_memory(io_within_descriptors(o.io), budget, 3), o.batch_size,
                          o.io.compressed_runs());
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
  std::unique_ptr<GpuPrefixSort> gpu_;
  bool gpu_sorted_ = false;  // some chunk was sorted on the GPU
  double gpu_setup_seconds_ = 0;
  double sort_seconds_ = 0;
  GpuTimes gpu_times_;
};

// --rejects' file, beside its own target as the output is (never the output,
// which would replace it), written with the plan's I/O blocks, fitted to the
// budget; null without --rejects.
std::unique_ptr<Rejects> open_rejects(const TextSortOptions& o, const TextFormat& format, const io::IoOptions& plan_io) {
  if (o.rejects.empty()) return nullptr;
  struct stat a {}, b {};
  if (o.rejects == o.output ||
      (::stat(o.rejects.c_str(), &a) == 0 && ::stat(o.output.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
       a.st_ino == b.st_ino && S_ISREG(a.st_mode)))
    throw UsageError("--rejects names the output '" + o.output + "': give the rejects a file of their own");
  io::IoOptions io = plan_io;
  io.output_region.reset();  // the output's (corank-mpi's), not the rejects'
  io.output_codec.reset();   // by the rejects' own suffix
  return std::make_unique<Rejects>(o.rejects, io, format.terminator());
}

// 1234567 as "1,234,567".
std::string grouped(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (std::size_t i = s.size(); i > 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

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
  if (rejects) {
    stats.rejected_records = rejects->count();
    if (stats.rejected_records && options.io.diagnostics)
      options.io.diagnostics->warning(grouped(stats.rejected_records) + " of " +
                                      grouped(stats.records_in + stats.rejected_records) + " rows went to " +
                                      rejects->path() + "; the first: " + rejects->first());
  }
  return stats;
}

}  // namespace corank::text
