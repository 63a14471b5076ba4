// Fixed-size records on the CPU threads: the record model of drive_sort
// (sort_driver.hpp). Runs either stay in RAM (in-memory plan: one chunk, its
// runs merged by co-rank) or are spilled to anonymous temporary files with a
// sparse in-RAM index of their keys (external plan; the run store of
// sorted_run.hpp, which the device's runs share), merged slab by slab between
// sampled splitters (spilled_run_merge.hpp). Reads run ahead of sorting and writes
// run behind it (gathered_writes.hpp).
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
    job_.stats.one_pass = stream_.active();
    // drive_sort counts a streamed run beside the runs; one that left the output is among them.
    if (!stream_.active() && stream_.records() > 0) job_.stats.runs--;
    job_.stats.seconds.write += writer_.seconds();
    job_.stats.seconds.read += read_seconds_;
  }

  // --- the model (sort_driver.hpp) ---

  std::optional<bool> next_chunk() {
    if (job_.plan.mode == SortPlan::Mode::InMemory) {
      // One chunk: the whole input, sorted into memory_'s runs.
      const std::uint64_t n = *job_.input.total_records();
      if (memory_.records || n == 0) return std::nullopt;
      job_.progress.phase("sort", n * R_);
      // On tmpfs the records are gathered straight into a shared mapping of
      // the output by all threads (buffered writes to one file are serialized
      // by the kernel); its pages are allocated in the background meanwhile.
      if (writes_.map_output(n * R_))
        note(job_.options.verbose, job_.options.io, "output: records gathered into a shared mapping of it");
      memory_ = form_runs_in_memory<W>(job_, job_.plan, threads_, reader_, read_seconds_,
                                       [this](std::byte* dst, std::uint64_t k) { return read_records(dst, k); });
      return true;
    }
    const std::uint64_t run = job_.plan.run_records;
    if (!in_[0]) {
      const auto total = job_.input.total_records();
      job_.progress.phase("sort", total ? *total * R_ : 0);
      in_[0] = allocate<std::byte>(run * R_);
      in_[1] = allocate<std::byte>(run * R_);
      entries_ = allocate<E>(run);
      scratch_ = allocate<E>(run);
      following_ = reader_.run([this, run] { return read_records(in_[0].data(), run); }).get();
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
    if (count_ == run) next = reader_.run([this, run, dst = in_[next_].data()] { return read_records(dst, run); });
    sort_run<W>(job_.norm, in_[chunk_].data(), R_, count_, 0, entries_.data(), scratch_.data(), threads_);
    following_ = next.valid() ? next.get() : 0;
    // A first chunk, not the last, that came in order starts streaming into
    // an output that can be read back as a run (sorted_stream.hpp).
    if (base_ == 0 && following_ != 0 && job_.output.can_reserve_range() && job_.output.can_read_back() &&
        SortedStream<W>::in_input_order(entries_.data(), count_)) {
      stream_.start();
      note(job_.options.verbose, job_.options.io, "adaptive run formation: the input starts sorted, streaming it into the output");
    }
    return following_ == 0;
  }

  void write_chunk() {
    if (job_.plan.mode == SortPlan::Mode::InMemory) return merge_in_memory();
    emit_chunk();
    writer_.wait();
  }

  // --- adaptive run formation (sorted_stream.hpp; sort_driver.hpp's streams) ---
  bool streams() const { return stream_.active(); }
  void end_stream() {}
  std::vector<Run> stream_chunk(bool) {
    if (!stream_.continues(entries_.data(), count_)) return leave_stream();
    emit_chunk();
    base_ += count_;
    return {};
  }
  // The records streamed are a run among `runs` by now (leave_stream).
  void merge_stream_into_output(std::span<Run> runs) { merge_into_output(runs); }

  // Gathers the sorted chunk into a run file, written behind, and keeps every
  // stride-th key.
  Run spill_chunk() {
    if (max_runs_ == 0) plan_runs_held();
    const std::uint64_t stride = stride_;
    Run run{SortedRun(count_, base_, R_, spill_store(run_io_), temps_), {}};
    if (!streamed_) run.samples.reserve((count_ + stride - 1) / stride);
    for (std::uint64_t i = 0; i < count_ && !streamed_; i += stride) {
      run.samples.push_back(entries_[i]);
      run.samples.back().pos = base_ + i;
    }
    // The sinks of the last two runs: one write is in flight at a time, so
    // once a run's write has started the run before it is written and
    // finished, and its sink (an engine, a descriptor) can go.
    auto& sink = run_sinks_[spilled_ & 1];
    sink = run.records.sink(run_io_, threads_);
    writes_.to_run(entries_.data(), count_, in_[chunk_].data(), *sink, /*last=*/true);
    job_.stats.spill_bytes += count_ * R_;
    base_ += count_;
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
  // Runs of less than kEngineRunBytes go without engines too: setting a ring
  // up costs more than their reads.
  void plan_runs_held() {
    const RunsHeld h = runs_held(kDescriptorReserve, kPlainDescriptorReserve, !run_io_.temp_program.empty());
    if (h.plain_io || job_.plan.run_records * R_ < kEngineRunBytes) run_io_.use_uring = run_io_.direct = false;
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
      // Every stride-th record of the new run, with its position in it.
      for (std::uint64_t i = (stride - written % stride) % stride; i < n && !streamed_; i += stride) {
        out.samples.push_back(merged[i]);
        out.samples.back().pos = base + written + i;
      }
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
      emit(merged, count, records, 0);
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
  // Reads up to n records into dst, timing the read and checksumming for --verify.
  std::uint64_t read_records(std::byte* dst, std::uint64_t n) {
    auto t0 = Clock::now();
    std::uint64_t got = job_.input.read(dst, n);
    if (job_.input_checksum) *job_.input_checksum += checksum_records(dst, got, R_, 1);
    read_seconds_ += seconds_since(t0);
    job_.progress.advance(got * R_);
    return got;
  }

  // Sends merged entries to the output; returns the records kept (fewer under -u).
  std::uint64_t emit(E* entries, std::uint64_t n, const std::byte* src, std::uint64_t pos_base) {
    const std::uint64_t kept = writes_.to_output(entries, n, src, pos_base);
    job_.stats.records_out += kept;
    return kept;
  }

  // The sorted chunk to the output, slab by slab (while streaming, its last key noted).
  void emit_chunk() {
    for (std::uint64_t r0 = 0; r0 < count_; r0 += job_.plan.slab_records) {
      E* slab = entries_.data() + r0;
      const std::uint64_t kept = emit(slab, std::min(job_.plan.slab_records, count_ - r0), in_[chunk_].data(), 0);
      if (stream_.active()) stream_.took(slab, kept);
      job_.stats.merge_slabs++;
    }
  }

  // The sorted chunk starts below the records streamed: they are copied out
  // of the output, which starts over, into a run, and the chunk is spilled
  // after it; the sort goes on as if they had been spilled so.
  std::vector<Run> leave_stream() {
    stream_.stop();
    writer_.finish(job_.output.sink());
    note(job_.options.verbose, job_.options.io, "adaptive run formation: a chunk starts below the records streamed");
    if (max_runs_ == 0) plan_runs_held();
    std::vector<Run> left;
    const std::span<std::byte> buffer(reinterpret_cast<std::byte*>(scratch_.data()), job_.plan.run_records * sizeof(E));
    left.push_back(take_streamed_run<E>(job_.output, stream_.records(), R_, temps_, run_io_, threads_, job_.norm,
                                        streamed_ ? 0 : stride_, buffer));
    writes_.restart();
    job_.stats.records_out -= stream_.records();  // written again by the merge
    job_.stats.spill_bytes += left.back().records.bytes();
    left.push_back(spill_chunk());
    return left;
  }

  // The in-memory plan's merge: slab by slab, each cut across the runs by
  // co-rank and merged on all threads.
  void merge_in_memory() {
    const std::uint64_t n = *job_.input.total_records();
    job_.stats.runs = memory_.runs.size();
    job_.progress.phase("merge", n * R_);
    const std::uint64_t slab = job_.plan.slab_records;
    const auto& runs = memory_.runs;
    io::HugeVector<E> merged;
    std::vector<std::span<const E>> part(runs.size());
    std::vector<std::uint64_t> lo(runs.size(), 0);
    for (std::uint64_t r0 = 0; r0 < n; r0 += slab) {
      const std::uint64_t r1 = std::min(n, r0 + slab);
      if (runs.size() == 1) {
        emit(memory_.entries.data() + r0, r1 - r0, memory_.records, 0);
      } else {
        auto hi = kway_co_rank(std::span<const std::span<const E>>(runs), r1);
        for (std::size_t i = 0; i < runs.size(); ++i) part[i] = runs[i].subspan(lo[i], hi[i] - lo[i]);
        lo = std::move(hi);
        if (!merged) merged = allocate<E>(std::min(n, slab));
        merge_kway_parallel(std::span<const std::span<const E>>(part), merged.data(), threads_);
        emit(merged.data(), r1 - r0, memory_.records, 0);
      }
      job_.stats.merge_slabs++;
      job_.progress.advance((r1 - r0) * R_);
    }
    writer_.wait();
  }

  // Merges `runs` slab by slab (spilled_run_merge.hpp), or record by record
  // where the runs keep no index (streamed_run_merge.hpp).
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
  std::uint64_t count_ = 0;   // records in the sorted chunk
  std::uint64_t base_ = 0;    // records in the runs so far
  std::uint64_t spilled_ = 0;
  const std::uint64_t stride_ = job_.plan.sample_stride;  // of the runs' sparse index
  bool streamed_ = job_.plan.streamed_merge;  // runs keep no index, and merge record by record
  bool forming_ = true;  // runs are still forming (formed() ends it)
  std::size_t max_runs_ = 0;  // runs held at once: set at the first spill, from the descriptors left
  std::size_t fan_in_cap_ = SIZE_MAX;  // under --compress-program, from the descriptors left
  io::IoOptions run_io_ = job_.options.io;  // for runs: without engines where descriptors are few
  std::unique_ptr<io::ByteSink> run_sinks_[2];
  InMemoryRuns<W> memory_;  // the in-memory plan's records, entries and runs
  SortedStream<W> stream_;  // adaptive run formation: the chunks streamed into the output
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
