// Fixed-size records on the CPU threads: the record model of drive_sort
// (sort_driver.hpp). Runs either stay in RAM (in-memory plan: one chunk, its
// runs merged by co-rank) or are spilled to anonymous temporary files with a
// sparse in-RAM index of their keys (external plan; the run store of
// sorted_run.hpp, which the device's runs share), merged slab by slab between
// sampled splitters (spilled_run_merge.hpp). Reads run ahead, writes behind.
#include "corank/external_sort.hpp"

#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/checksum.hpp"
#include "corank/errors.hpp"
#include "corank/io/error.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/write_behind.hpp"
#include "corank/gathered_writes.hpp"
#include "corank/in_memory_runs.hpp"
#include "corank/key_entry.hpp"
#include "corank/kway_co_rank.hpp"
#include "corank/kway_merge.hpp"
#include "corank/normalize.hpp"
#include "corank/parallel.hpp"
#include "corank/planner.hpp"
#include "corank/run_sort.hpp"
#include "corank/sort_driver.hpp"
#include "corank/sorted_run.hpp"
#include "corank/sorted_stream.hpp"
#include "corank/spilled_run_merge.hpp"
#include "corank/streamed_run_merge.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"

namespace corank {

namespace {

// Uninitialized storage: every element is written before it is read.
template <class T>
io::HugeVector<T> allocate(std::uint64_t n) {
  return io::HugeVector<T>(n);
}

// Descriptors that a sort opens after its first spill besides its runs: the
// sinks of the last two runs (a direct descriptor and a ring each), a merged
// run and its sink, the merge's segment reader, the output's sink and its
// directory, a spare. Engines fall back to plainer I/O where none are left,
// but a run's file cannot: where descriptors are few, runs are written and
// read without engines, and only a merged run and a spare are reserved.
constexpr std::uint64_t kDescriptorReserve = 13, kPlainDescriptorReserve = 2;
constexpr std::uint64_t kEngineRunBytes = std::uint64_t{1} << 20;
// A streamed merge takes at least this many runs, however small the budget
// (their buffers are a few KiB each: below the program's own memory).
constexpr std::uint64_t kStreamFanIn = 8;

// What every Sorter<W> shares: the request and its plan.
struct Job : CpuSortJob {
  const SortPlan& plan;
};

// The model of fixed-size records on the CPU threads for drive_sort
// (sort_driver.hpp). A chunk is a run's worth of records sorted into key
// entries; under the in-memory plan the one chunk is the whole input, sorted
// as runs in memory that write_chunk merges by co-rank.
template <unsigned W>
class Sorter {
  using E = KeyEntry<W>;

public:
  // A spilled run and its sparse index (sorted_run.hpp).
  using Run = IndexedRun<E>;

  explicit Sorter(Job& job)
      : job_(job),
        R_(job.format.record_size),
        threads_(job.plan.threads),
        temps_(job.options.temp_dirs) {}

  void run() {
    drive_sort(*this, job_.stats);
    // The output's last writes are reaped by the thread that issued them,
    // before it ends with the sorter (io_engine.hpp); commit finishes it again.
    writer_.finish(job_.output.sink());
    if (writes_.mapped()) job_.output.set_mapped_size(writes_.mapped_bytes());
    job_.stats.one_pass = window_.started() && job_.stats.spilled_runs == 0;
    if (window_.started()) note(job_.options.verbose, job_.options.io, adaptive_summary(job_.stats));
    job_.stats.seconds.write += writer_.seconds();
    job_.stats.seconds.read += read_seconds_;
  }

  // --- the model (sort_driver.hpp) ---

  std::optional<bool> next_chunk() {
    if (job_.plan.mode == SortPlan::Mode::InMemory) {
      // One chunk: the whole input, sorted into memory_'s runs (or come so).
      const std::uint64_t n = *job_.input.total_records();
      if (memory_.records || n == 0) return std::nullopt;
      job_.progress.phase("sort", n * R_);
      // On tmpfs the records are gathered straight into a shared mapping of
      // the output by all threads (buffered writes to one file are serialized
      // by the kernel); its pages are allocated in the background meanwhile.
      if (writes_.map_output(n * R_))
        note(job_.options.verbose, job_.options.io, "output: records gathered into a shared mapping of it");
      if (!take_prepared_keys<W>(job_, job_.plan, threads_, n, memory_))
        memory_ = form_runs_in_memory<W>(job_, job_.plan, threads_, reader_, read_seconds_,
                                         [this](std::byte* dst, std::uint64_t k) { return read_records(dst, k); });
      return true;
    }
    const std::uint64_t run = job_.plan.run_records;
    if (!in_[0]) {
      const auto total = job_.input.total_records();
      job_.progress.phase("sort", total ? *total * R_ : 0);
      for (auto& b : in_) b = allocate<std::byte>(run * R_);
      entries_ = allocate<E>(run);
      scratch_ = allocate<E>(run);
      if (job_.output.can_reserve_range() && job_.output.can_read_back())  // it can take a stream
        window_ = RecordWindow<W>(run, entries_.data());
      following_ = read_chunk(0, 0).get();  // whole: an input of one chunk goes straight out
    }
    // Each chunk is read while the one before is sorted, and a chunk is the
    // last when the read after it finds nothing: a pipe's full chunk can be
    // its last, and is then written straight out too.
    if (following_ == 0) return std::nullopt;
    count_ = following_;
    chunk_ = next_;
    next_ ^= 1;
    // The other buffer's chunk is written out or gathered into its run by now.
    std::future<std::uint64_t> next;
    if (count_ == run - at_[chunk_])
      next = read_chunk(next_, first_chunk_ || window_.active() ? window_.capacity() : 0);
    // Entry pos: the record's place in the buffer (after the window's, streaming).
    sort_run<W>(job_.norm, in_[chunk_].data() + at_[chunk_] * R_, R_, count_, at_[chunk_], entries_.data(),
                scratch_.data(), threads_);
    following_ = next.valid() ? next.get() : 0;
    // A first chunk, not the last, that looks nearly sorted starts streaming
    // into the output (sorted_stream.hpp).
    if (first_chunk_ && following_ != 0 && window_.starts_stream(entries_.data(), count_, at_[chunk_])) {
      window_.start();
      run_base_ = kAfterStreamPositions;
      note(job_.options.verbose, job_.options.io,
           io::format_line("adaptive run formation: the input starts nearly sorted, streaming it into the output "
                           "(a window of %llu records)", static_cast<unsigned long long>(window_.capacity())));
    }
    first_chunk_ = false;
    return following_ == 0;
  }

  void write_chunk() {
    if (job_.plan.mode == SortPlan::Mode::InMemory) return merge_in_memory();
    emit_stream(entries_.data(), count_, in_[chunk_].data());
    writer_.wait();
  }

  // --- adaptive run formation (sorted_stream.hpp; sort_driver.hpp's streams) ---
  bool streams() const { return window_.active(); }
  // A chunk is known to be the last when it is read: its stream_chunk emptied the window.
  void end_stream() {
    if (window_.held()) throw std::logic_error("records left in the window after the input");
  }
  std::vector<Run> stream_chunk(bool last) {
    E* const chunk = entries_.data();
    const std::byte* const src = in_[chunk_].data();
    std::vector<Run> left;
    const std::uint64_t late = window_.late(chunk, count_);
    if (!last && late * 2 > count_) {  // mostly late: the window and the chunk a run, one a chunk from here on
      left.push_back(spill_entries(scratch_.data(), window_.merge({chunk, count_}, scratch_.data(), threads_), src));
      window_.stop();
      note(job_.options.verbose, job_.options.io,
           "adaptive run formation: most of a chunk came late, one run per chunk from here on");
      return left;
    }
    if (late) left.push_back(spill_entries(chunk, late, src));
    job_.stats.side_records += late;
    const std::uint64_t n = window_.merge({chunk + late, count_ - late}, scratch_.data(), threads_);
    const std::uint64_t keep = last ? 0 : std::min(window_.capacity(), n);
    emit_stream(scratch_.data(), n - keep, src);
    // The largest records stay, copied to just before where the next chunk is being read.
    const std::span<const E> kept(scratch_.data() + (n - keep), keep);
    if (keep > at_[next_]) throw std::logic_error("no room for the window before the next chunk");
    gather_records(src, R_, kept, 0, in_[next_].data() + (at_[next_] - keep) * R_, threads_);
    window_.keep(kept, at_[next_]);
    return left;
  }
  // The output's run, copied out into a run of its own, is merged first with
  // `runs` into the output (it holds the earliest of equal records).
  void merge_stream_into_output(std::span<Run> runs) {
    writer_.finish(job_.output.sink());
    if (max_runs_ == 0) plan_runs_held();
    const std::uint64_t streamed = window_.records();
    std::vector<Run> all;
    {
      auto buffer = allocate<std::byte>(std::clamp<std::uint64_t>(streamed, 1, job_.plan.slab_records) * R_);
      all.push_back(take_streamed_run<E>(job_.output, streamed, R_, temps_, run_io_, threads_, job_.norm,
                                         streamed_ ? 0 : stride_, std::span(buffer.data(), buffer.size())));
    }
    writes_.restart();
    job_.stats.records_out -= streamed;  // written again by the merge
    job_.stats.spill_bytes += streamed * R_;
    for (Run& r : runs) all.push_back(std::move(r));
    merge_into_output(all);
  }

  Run spill_chunk() { return spill_entries(entries_.data(), count_, in_[chunk_].data()); }

  // Gathers sorted entries' records (pos: their place in src) into a run
  // file, written behind, and keeps every stride-th key.
  Run spill_entries(const E* entries, std::uint64_t count, const std::byte* src) {
    if (max_runs_ == 0) plan_runs_held();
    const std::uint64_t stride = stride_;
    Run run{SortedRun(count, run_base_, R_, spill_store(run_io_), temps_), {}};
    if (!streamed_) {
      run.samples.reserve((count + stride - 1) / stride);
      sample_entries(run, entries, 0, count, stride);
    }
    // The sinks of the last two runs: one write is in flight at a time, so
    // once a run's write has started the run before it is written and
    // finished, and its sink (an engine, a descriptor) can go.
    auto& sink = run_sinks_[spilled_ & 1];
    sink = run.records.sink(run_io_, threads_);
    writes_.to_run(entries, count, src, *sink, /*last=*/true);
    job_.stats.spill_bytes += count * R_;
    run_base_ += count;
    ++spilled_;
    return run;
  }

  void formed(std::span<const Run> runs) {
    forming_ = false;
    writer_.wait();  // every run is on its file (no fsync: the files die with the process)
    for (auto& b : in_) b.reset();
    entries_.reset();
    scratch_.reset();
    job_.stats.spilled_runs = runs.size();
    note(job_.options.verbose, job_.options.io,
         io::format_line("spilled %zu runs (%llu bytes)", runs.size(),
                         static_cast<unsigned long long>(job_.stats.spill_bytes)));
  }

  void passed(std::size_t runs_left) {
    note(job_.options.verbose, job_.options.io,
         io::format_line("merge pass %llu: %zu runs", static_cast<unsigned long long>(job_.stats.merge_passes),
                         runs_left));
  }

  // Runs merged at once: as many as a merge slab holds samples of, halved. A
  // slab holds about slab_records / stride samples' worth of records, and
  // each of its boundaries costs a read in every run; with more runs than
  // that, slabs would shrink to a sample or two of each run and the reads
  // multiply (GNU sort likewise merges at most its batch size at once).
  // Merged record by record, as many as half the merge's memory holds
  // buffers of.
  std::size_t fan_in() const {
    // (The in-memory plan keeps no samples: stride 0, and no runs to merge.)
    const std::uint64_t stride = std::max<std::uint64_t>(1, stride_);
    const std::uint64_t merge_bytes = job_.plan.slab_records * (4 * R_ + 3 * sizeof(E));
    const std::uint64_t fan =
        streamed_ ? std::clamp<std::uint64_t>(merge_bytes / 2 / (stream_buffer_records(R_) * R_), kStreamFanIn, 1024)
                  : job_.plan.slab_records / stride / 2;
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(fan, 2, fan_in_cap_));
  }
  std::size_t max_runs() const { return static_cast<std::size_t>(std::min<std::uint64_t>(max_runs_, SIZE_MAX)); }
  // Runs of less than kEngineRunBytes go without engines too (a ring costs more than their reads).
  void plan_runs_held() {
    const RunsHeld h = runs_held(kDescriptorReserve, kPlainDescriptorReserve, !run_io_.temp_program.empty());
    const bool plain = h.plain_io || job_.plan.run_records * R_ < kEngineRunBytes;
    if (plain && run_io_.use_uring) run_io_.pread_reason = h.plain_io ? "few descriptors left" : "small runs";
    if (plain) run_io_.use_uring = run_io_.direct = false;
    max_runs_ = h.max_runs;
    fan_in_cap_ = h.fan_in_cap;
  }
  // An input of unknown size whose runs' index outgrows its share of the
  // budget has its runs merged record by record from then on, without one.
  void held(std::span<Run> runs) {
    if (streamed_) return;
    std::uint64_t index = 0;
    for (const auto& r : runs) index += r.samples.capacity() * sizeof(E);
    if (index <= job_.plan.index_bytes) return;
    streamed_ = true;
    for (auto& r : runs) r.samples = {};
  }
  std::uint64_t bytes(const Run& r) const { return r.records.bytes(); }

  // Merges `group` (consecutive runs) into one longer run.
  Run merge(std::span<Run> group) {
    writer_.wait();  // the group's last run is on its file
    const std::uint64_t stride = stride_;
    std::uint64_t count = 0;
    for (const auto& r : group) count += r.records.count();
    // The group's records hold positions [base, base + count): bases are prefix sums.
    const std::uint64_t base = group[0].records.base();
    Run out{SortedRun(count, base, R_, spill_store(run_io_), temps_), {}};
    if (!streamed_) out.samples.reserve((count + stride - 1) / stride);
    auto sink = out.records.sink(run_io_, threads_);
    const io::WriteBehind::Drain drain(writer_);  // the merge's writes use `sink`
    std::uint64_t written = 0;
    merge_runs(group, [&](const E* merged, std::uint64_t n, const std::byte* records) {
      if (!streamed_) sample_entries(out, merged, written, n, stride);
      writes_.to_run(merged, n, records, *sink, /*last=*/false);
      written += n;
    });
    writer_.finish(*sink);
    for (auto& r : group) {
      r.records.release();  // merged: free its space now
      r.samples = {};
    }
    job_.stats.spill_bytes += written * R_;
    return out;
  }

  void merge_into_output(std::span<Run> runs) {
    std::uint64_t n = 0;
    for (const auto& r : runs) n += r.records.count();
    job_.progress.phase("merge", n * R_);
    merge_runs(runs, [&](E* merged, std::uint64_t count, const std::byte* records) {
      emit(merged, count, records);
      job_.progress.advance(count * R_);
    });
    writer_.wait();
  }

  // On unwinding: the write in flight ends, and the run sinks go while the
  // writer's thread, which reaps their requests, still lives (io_engine.hpp).
  void drain() noexcept {
    writer_.drain();
    reader_.drain();
    for (auto& s : run_sinks_) s.reset();
  }

private:
  // Starts reading a chunk into buffer b after `at` records (room for a window while the input may stream).
  std::future<std::uint64_t> read_chunk(int b, std::uint64_t at) {
    at_[b] = at;
    return reader_.run([this, dst = in_[b].data() + at_[b] * R_, n = job_.plan.run_records - at_[b]] {
      return read_records(dst, n);
    });
  }

  // Reads up to n records into dst, timing the read and checksumming for --verify.
  std::uint64_t read_records(std::byte* dst, std::uint64_t n) {
    auto t0 = Clock::now();
    std::uint64_t got = job_.input.read(dst, n);
    if (job_.input_checksum) *job_.input_checksum += checksum_records(dst, got, R_, 1);
    read_seconds_ += seconds_since(t0);
    job_.progress.advance(got * R_);
    return got;
  }

  // Sends merged entries (pos: their place in src) to the output; returns the
  // records kept (fewer under -u).
  std::uint64_t emit(E* entries, std::uint64_t n, const std::byte* src) {
    const std::uint64_t kept = writes_.to_output(entries, n, src, 0);
    job_.stats.records_out += kept;
    return kept;
  }

  // Sorted entries (pos: their place in src) to the output, slab by slab;
  // while streaming, the window notes the last.
  void emit_stream(E* entries, std::uint64_t n, const std::byte* src) {
    for (std::uint64_t r0 = 0; r0 < n; r0 += job_.plan.slab_records) {
      E* slab = entries + r0;
      const std::uint64_t kept = emit(slab, std::min(job_.plan.slab_records, n - r0), src);
      if (window_.active()) window_.took(slab, kept);
      job_.stats.merge_slabs++;
    }
  }

  // The in-memory plan's merge (in_memory_runs.hpp).
  void merge_in_memory() {
    const std::uint64_t n = *job_.input.total_records();
    job_.stats.runs = memory_.runs.size();
    job_.progress.phase("merge", n * R_);
    merge_runs_in_memory(memory_, n, job_.plan.slab_records, threads_, [&](E* merged, std::uint64_t count) {
      emit(merged, count, memory_.records);
      job_.stats.merge_slabs++;
      job_.progress.advance(count * R_);
    });
    writer_.wait();
  }

  // Merges `runs` slab by slab (spilled_run_merge.hpp), or record by record without an index (streamed_run_merge.hpp).
  template <class Deliver>
  // While runs form (an early merge at the open-file limit), the chunk's
  // buffers hold the budget: merged record by record, in small batches.
  void merge_runs(std::span<Run> runs, Deliver&& deliver) {
    if (!streamed_ && !forming_) return merge_spilled_runs(runs, slab_merge(), deliver);
    const std::uint64_t batch =
        forming_ ? stream_buffer_records(R_) : std::max<std::uint64_t>(16, job_.plan.slab_records / 4);
    merge_runs_streamed(runs, StreamMergeJob{job_.norm, run_io_, R_, stream_buffer_records(R_), batch}, deliver);
  }

  SlabMergeJob slab_merge() {
    return SlabMergeJob{job_.norm, run_io_, R_,           job_.plan.slab_records, stride_,
                        threads_,  reader_, read_seconds_, job_.stats.merge_slabs};
  }

  Job& job_;
  const std::uint32_t R_;
  const unsigned threads_;
  io::TempDirectories temps_;
  // Run formation: two input buffers, one read while the other is sorted, and
  // the sorted chunk's entries.
  io::HugeVector<std::byte> in_[2];
  io::HugeVector<E> entries_, scratch_;
  int chunk_ = 0, next_ = 0;  // the buffer of the sorted chunk, and of the next
  std::uint64_t at_[2] = {0, 0};  // where each buffer's chunk was read: after room for a window
  std::uint64_t count_ = 0;   // records in the sorted chunk
  std::uint64_t run_base_ = 0;  // the merge position of the next run spilled
  bool first_chunk_ = true;
  std::uint64_t spilled_ = 0;
  const std::uint64_t stride_ = job_.plan.sample_stride;  // of the runs' sparse index
  bool streamed_ = job_.plan.streamed_merge;  // runs keep no index, and merge record by record
  bool forming_ = true;  // runs are still forming (formed() ends it)
  std::size_t max_runs_ = 0;  // runs held at once: set at the first spill, from the descriptors left
  std::size_t fan_in_cap_ = SIZE_MAX;  // under --compress-program, from the descriptors left
  io::IoOptions run_io_ = job_.options.io;  // for runs: without engines where descriptors are few
  std::unique_ptr<io::ByteSink> run_sinks_[2];
  InMemoryRuns<W> memory_;  // the in-memory plan's records, entries and runs
  RecordWindow<W> window_;  // adaptive run formation: the chunks streamed into the output
  // After the run sinks: a write in flight uses them, so the writer drains first.
  GatheredWrites<W> writes_{job_.output, R_, threads_, job_.options.unique};
  io::WriteBehind& writer_ = writes_.writer();
  // Reads the input, and the spilled runs when merging, one buffer ahead of
  // the sort: one thread for the sort's life (io/task_thread.hpp). After the
  // buffers it reads into, so that it ends first.
  io::TaskThread reader_;
  std::uint64_t following_ = 0;  // records read for the chunk after the sorted one
  double read_seconds_ = 0;  // reads run one at a time, never two at once
};

}  // namespace

void sort_on_cpu(const CpuSortJob& cpu) {
  const unsigned entry_bytes = 8 * cpu.format.key_words() + 8;
  const SortPlan plan = make_plan(cpu.input.total_records(), cpu.format.record_size, entry_bytes, cpu.array_budget,
                                  cpu.stats.threads);
  cpu.stats.mode = plan.mode == SortPlan::Mode::InMemory ? "in-memory" : "external";
  note(cpu.options.verbose, cpu.options.io, "plan: " + plan.describe());
  Job job{cpu, plan};
  dispatch_key_words(cpu.format.key_words(), [&](auto words) { Sorter<decltype(words)::value>(job).run(); });
  cpu.stats.records_in = cpu.input.records_read();
}

}  // namespace corank
