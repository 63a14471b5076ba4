#include "corank/device_pipeline.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/errors.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/key_entry.hpp"
#include "corank/output_writer.hpp"
#include "corank/planner.hpp"
#include "corank/slab_split.hpp"
#include "corank/sort_driver.hpp"
#include "corank/sorted_run.hpp"
#include "corank/sorted_stream.hpp"
#include "corank/stopwatch.hpp"
#include "corank/notes.hpp"

namespace corank {

namespace {

template <unsigned W>
class DeviceSorter {
  using E = KeyEntry<W>;

public:
  explicit DeviceSorter(DeviceSortJob& job)
      : job_(job),
        R_(job.format.record_size),
        C_(job.device.capacity()),
        temps_(job.options.temp_dirs),
        plan_(plan_device_merge(C_, job.input.total_records())),
        stride_(plan_.stride),
        fan_in_(plan_.fan_in) {}

  void run() {
    const auto total = job_.input.total_records();
    OutputWriter out(job_.output, job_.pool, total ? std::optional(*total * R_) : std::nullopt);
    out_ = &out;
    drive_sort(*this, job_.stats);
    out.finish();
    job_.stats.one_pass = streaming_;
    // drive_sort counts a streamed run beside the runs; one that left the output is among them.
    if (!streaming_ && streamed_ > 0) job_.stats.runs--;
    if (streaming_ || streamed_ > 0) note(job_.options.verbose, job_.options.io, adaptive_summary(job_.stats));
    job_.stats.seconds.read = read_s_;
    job_.stats.seconds.write = write_s_;
    job_.stats.records_in = job_.input.records_read();
    job_.stats.mode = job_.stats.spilled_runs ? "external" : "in-memory";
  }

  // --- the model of drive_sort (sort_driver.hpp) ---

  using Run = IndexedRun<E>;

  // Reads the next C records straight into the device's staging and sorts
  // them there. While the input streams, records in order go from the input
  // to the output in pieces without the device; a piece out of order starts
  // the next chunk, sorted on the device.
  std::optional<bool> next_chunk() {
    const auto total = job_.input.total_records();
    if (!started_) {
      job_.progress.phase("sort", total ? *total * R_ : 0);
      started_ = true;
    }
    std::uint64_t held = 0;  // records of piece_ that begin the chunk
    if (streaming_) {
      held = stream_pieces();
      if (held == 0) return std::nullopt;
    }
    const std::uint64_t n = job_.device.upload(0, C_, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
      if (first >= held) return fill_from_input(dst, first, max);
      const std::uint64_t k = std::min(max, held - first);
      std::memcpy(dst, piece_.data() + first * R_, k * R_);
      return k == max ? k : k + fill_from_input(dst + k * R_, first + k, max - k);
    });
    if (n == 0) return std::nullopt;
    const bool last = n < C_ || (total && job_.input.records_read() == *total);
    kept_ = job_.device.sort(n, {}, keep(false));
    if (base_ == 0 && !streaming_ && !last && in_order_ && can_stream()) {
      streaming_ = true;
      note(job_.options.verbose, job_.options.io, "adaptive run formation: the input starts sorted, streaming it into the output");
    }
    if (!streaming_) watching_ = false;
    return last;
  }

  void write_chunk() {
    job_.device.download(kept_, [&](const std::byte* src, std::uint64_t, std::uint64_t count) {
      write_out(src, count);
    });
  }

  Run spill_chunk() {
    Run run = store_run(kept_, base_);
    base_ += kept_;
    return run;
  }

  void formed(std::span<const Run> runs) {
    note(job_.options.verbose, job_.options.io,
         io::format_line("%zu runs of up to %llu records, %llu spilled (%llu bytes)", runs.size(),
                         static_cast<unsigned long long>(C_), static_cast<unsigned long long>(job_.stats.spilled_runs),
                         static_cast<unsigned long long>(job_.stats.spill_bytes)));
    total_ = 0;
    for (const auto& r : runs) total_ += r.records.count();
    if (runs.size() > fan_in()) job_.progress.phase("merge pass", total_ * R_);
  }

  void passed(std::size_t runs_left) {
    if (runs_left > fan_in()) job_.progress.phase("merge pass", total_ * R_);
  }

  // With more runs than one slab merges (C / (2 * stride)), groups become one run each.
  std::size_t fan_in() const { return static_cast<std::size_t>(fan_in_); }
  // Spilled runs hold a file each; runs in host memory none.
  std::size_t max_runs() const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(max_open_runs() + memory_runs_, SIZE_MAX));
  }
  std::uint64_t bytes(const Run& r) const { return r.records.count() * R_; }

  // Merges `group` (consecutive runs) into one run, in memory while the budget allows.
  Run merge(std::span<Run> group) {
    std::uint64_t count = 0;
    for (const auto& r : group) count += r.records.count();
    // Positions stay in [base, base + count): those of the group's records.
    Run run{new_run(count, group[0].records.base()), {}};
    SortedRun::Writer writer(run.records, job_.options.io, job_.pool);
    merge_group(group, [&](const std::byte* src, std::uint64_t c) {
      sample_records(run, job_.norm, src, writer.appended(), c, stride_);
      writer.append(src, c);
    });
    writer.finish();  // -u may have kept fewer
    for (auto& r : group) release(r);
    return run;
  }

  // --- adaptive run formation (sort_driver.hpp's streams) ---
  bool streams() const { return streaming_; }
  void end_stream() {}
  std::vector<Run> stream_chunk(bool) {
    if (!in_order_) return leave_stream();
    write_chunk();  // the first chunk
    base_ += kept_;
    streamed_ += kept_;
    return {};
  }
  // The records streamed are a run among `runs` by now (leave_stream).
  void merge_stream_into_output(std::span<Run> runs) { merge_into_output(runs); }

  void merge_into_output(std::span<Run> runs) {
    job_.progress.phase("merge", total_ * R_);
    merge_group(runs, [&](const std::byte* src, std::uint64_t count) { write_out(src, count); });
    for (auto& r : runs) release(r);
  }

private:
  KeepEqual keep(bool continuing) const {
    if (!job_.options.unique) return KeepEqual::all;
    return continuing ? KeepEqual::continued : KeepEqual::first;
  }

  // --- run formation ---

  // An output that a stream can be taken back from (OutputFile::restart).
  bool can_stream() const {
    return job_.output.can_reserve_range() && job_.output.can_read_back() && !out_->mapped();
  }

  // Clears in_order_ at the first of records [first, first + n) of the
  // transfer (at src) that is below the record before it.
  void watch_order(const std::byte* src, std::uint64_t first, std::uint64_t n) {
    if (!watching_ || n == 0) return;
    if (first != 0 && first != watched_) throw std::logic_error("staging filled out of order");
    std::atomic<bool> ordered = last_.empty() || job_.norm.compare(last_.data(), src) <= 0;
    job_.pool.for_ranges(n, std::uint64_t{1} << 16, 1, [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = std::max<std::uint64_t>(b, 1); i < e && ordered.load(std::memory_order_relaxed); ++i)
        if (job_.norm.compare(src + (i - 1) * R_, src + i * R_) > 0) ordered = false;
    });
    if (!ordered) {
      in_order_ = watching_ = false;
      last_ = {};
      return;
    }
    last_.assign(src + (n - 1) * R_, src + n * R_);
    watched_ = first + n;
  }

  // Streams pieces of the input that come in order into the output (under
  // -u, without records whose keys equal the record before). Returns the
  // records of the piece that did not, in piece_ (0: the input ended).
  std::uint64_t stream_pieces() {
    if (piece_.empty()) {
      const std::uint64_t bytes = std::min(job_.device.staging_bytes(), job_.host_budget);
      piece_.resize(std::clamp<std::uint64_t>(bytes / R_, 1, C_) * R_);  // a piece out of order is a chunk's start
    }
    const std::uint64_t most = piece_.size() / R_;
    std::vector<std::byte> before;
    for (;;) {
      if (job_.options.unique) before = last_;
      const std::uint64_t n = fill_from_input(piece_.data(), 0, most);
      if (n == 0 || !in_order_) return n;
      const std::byte* p = piece_.data();
      if (!job_.options.unique) {
        write_out(p, n);
        streamed_ += n;
      } else {
        // A record whose key equals the one before it (read before it) is left out.
        std::uint64_t from = 0;  // the first record of the span kept
        for (std::uint64_t i = 0; i < n; ++i) {
          const std::byte* prev = i ? p + (i - 1) * R_ : before.empty() ? nullptr : before.data();
          if (!prev || job_.norm.compare(prev, p + i * R_) != 0) continue;
          if (i > from) write_out(p + from * R_, i - from), streamed_ += i - from;
          from = i + 1;
        }
        if (n > from) write_out(p + from * R_, n - from), streamed_ += n - from;
      }
      base_ = streamed_;
      if (n < most) return 0;
    }
  }

  // A chunk starts below what was streamed: the output so far becomes a run
  // (positions [0, streamed_)), followed by this chunk's.
  std::vector<Run> leave_stream() {
    streaming_ = false;
    piece_ = {};  // its records are on the device by now
    note(job_.options.verbose, job_.options.io, "adaptive run formation: a chunk starts below the records streamed");
    job_.output.sink().finish();
    std::vector<std::byte> buffer(std::clamp<std::uint64_t>(streamed_, 1, (std::uint64_t{16} << 20) / R_ + 1) * R_);
    std::vector<Run> left;
    left.push_back(take_streamed_run<E>(job_.output, streamed_, R_, temps_, job_.options.io, job_.pool.size(), job_.norm,
                                        stride_, buffer));
    job_.stats.records_out -= streamed_;  // written again by the merge
    job_.stats.spilled_runs++;
    job_.stats.spill_bytes += left.back().records.bytes();
    left.push_back(spill_chunk());
    return left;
  }

  // Reads the next records into staging memory, checksumming them for --verify.
  std::uint64_t fill_from_input(std::byte* dst, std::uint64_t first, std::uint64_t max) {
    const auto t0 = Clock::now();
    const std::uint64_t got = job_.input.read(dst, max, job_.pool);
    watch_order(dst, first, got);
    if (job_.input_checksum) {
      std::mutex m;
      job_.pool.for_ranges(got, 1 << 16, 1, [&](std::uint64_t b, std::uint64_t e) {
        RecordChecksum part;
        part.add(dst + b * R_, e - b, R_);
        std::lock_guard lock(m);
        *job_.input_checksum += part;
      });
    }
    read_s_ += seconds_since(t0);
    job_.progress.advance(got * R_);
    return got;
  }

  void write_out(const std::byte* src, std::uint64_t count) {
    const auto t0 = Clock::now();
    out_->write(src, count * R_);
    job_.stats.records_out += count;
    write_s_ += seconds_since(t0);
  }

  // A new run of `count` records at merge position `base`: in memory while
  // the budget allows, else spilled (compressed under --compress-temp).
  SortedRun new_run(std::uint64_t count, std::uint64_t base) {
    const bool in_memory = memory_in_use_ + count * R_ <= job_.host_budget;
    SortedRun run(count, base, R_, in_memory ? RunStore::memory : spill_store(job_.options.io), temps_);
    if (in_memory) {
      memory_in_use_ += run.allocated_bytes();
      ++memory_runs_;
    } else {
      job_.stats.spilled_runs++;
      job_.stats.spill_bytes += run.bytes();
    }
    return run;
  }

  // Downloads the device's sorted output (kept records) into a new run.
  Run store_run(std::uint64_t kept, std::uint64_t base) {
    Run run{new_run(kept, base), {}};
    SortedRun::Writer writer(run.records, job_.options.io, job_.pool);
    job_.device.download(kept, [&](const std::byte* src, std::uint64_t first, std::uint64_t count) {
      writer.append(src, count);
      sample_records(run, job_.norm, src, first, count, stride_);
    });
    writer.finish();
    return run;
  }

  // --- merge ---

  // Merges `runs` slab by slab on the device; every merged slab goes to
  // sink(src, count).
  template <class Sink>
  void merge_group(std::span<const Run> runs, Sink&& sink) {
    const std::size_t k = runs.size();
    // Slabs of at most C records (slab_split.hpp).
    std::vector<std::uint64_t> counts;
    std::vector<SortedRun::Reader> readers;
    readers.reserve(k);
    for (const Run& r : runs) {
      counts.push_back(r.records.count());
      readers.emplace_back(r.records, job_.options.io);
    }
    SlabCut<E> cut(slab_boundaries<E>(runs, [](const Run& r) -> const std::vector<E>& { return r.samples; },
                                      slab_records(runs), stride_),
                   std::move(counts));
    auto split = [&](std::size_t i, const E& v, std::uint64_t lo) {
      return split_run(runs[i], readers[i], v, lo, stride_, job_.norm);
    };

    // The runs split, and compressed runs decompress, at once: one thread each.
    auto each_run = [&](std::size_t runs, auto&& f) {
      job_.pool.run(static_cast<unsigned>(runs), [&](unsigned i) { f(i); });
    };

    std::vector<std::uint64_t> ends;
    bool continuing = false;
    while (!cut.done()) {
      const auto t0 = Clock::now();
      const std::uint64_t n = cut.next(split, each_run);
      if (n > C_) throw std::logic_error("merge slab over the device's capacity");
      if (n == 0) continue;
      each_run(k, [&](std::size_t i) { readers[i].prefetch(cut.hi()[i]); });
      ends.clear();
      std::uint64_t at = 0;
      for (std::size_t i = 0; i < k; ++i) {
        const std::uint64_t from = cut.lo()[i], len = cut.hi()[i] - from;
        if (len == 0) continue;
        SortedRun::Reader& reader = readers[i];
        job_.device.upload(at, len, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
          if (from + first != reader.taken()) throw std::logic_error("a slab's segment uploaded out of order");
          reader.take(from + first + max, dst, &job_.pool);
          return max;
        });
        at += len;
        ends.push_back(at);
      }
      read_s_ += seconds_since(t0);
      const std::uint64_t kept = job_.device.sort(n, ends, keep(continuing));
      continuing = true;
      job_.device.download(kept, [&](const std::byte* src, std::uint64_t, std::uint64_t count) { sink(src, count); });
      job_.stats.merge_slabs++;
      job_.progress.advance(n * R_);
    }
  }

  // Records a merge slab aims at: the device's capacity, unless a run is
  // compressed. A compressed run is read front to back, so its segment of a
  // slab waits in host memory (its reader's buffer) from the slab's cut until
  // its upload: slabs then aim at a quarter of the host budget, 16 MiB to
  // 256 MiB, rather than at the device's gigabytes.
  std::uint64_t slab_records(std::span<const Run> runs) const {
    const bool compressed = std::any_of(runs.begin(), runs.end(),
                                        [](const Run& r) { return r.records.store() == RunStore::compressed; });
    if (!compressed) return C_;
    const std::uint64_t bytes = std::clamp<std::uint64_t>(job_.host_budget / 4, std::uint64_t{16} << 20,
                                                          std::uint64_t{256} << 20);
    return std::clamp<std::uint64_t>(bytes / R_, 1, C_);
  }

  void release(Run& run) {
    if (run.records.in_memory()) {
      memory_in_use_ -= run.records.allocated_bytes();
      --memory_runs_;
    }
    run.records.release();
    run.samples = {};
  }

  DeviceSortJob& job_;
  const std::uint32_t R_;
  const std::uint64_t C_;
  io::TempDirectories temps_;
  const DeviceMergePlan plan_;
  const std::uint64_t stride_, fan_in_;
  OutputWriter* out_ = nullptr;  // set for the length of run()
  bool started_ = false;
  std::uint64_t kept_ = 0;   // records of the sorted chunk on the device
  std::uint64_t base_ = 0;   // records in the runs so far
  std::uint64_t total_ = 0;  // records in the runs to merge
  std::uint64_t memory_in_use_ = 0;
  std::uint64_t memory_runs_ = 0;  // runs held in host memory
  double read_s_ = 0, write_s_ = 0;
  // Adaptive run formation: whether the records read are still checked for
  // key order, whether all of them came in it, the last one read while
  // checking (and the transfer's records checked), whether sorted chunks
  // stream into the output, and how many records they put there.
  bool watching_ = true, in_order_ = true;
  std::vector<std::byte> last_;
  std::uint64_t watched_ = 0;
  bool streaming_ = false;
  std::uint64_t streamed_ = 0;
  std::vector<std::byte> piece_;  // what the stream reads into, as much as staging holds
};

}  // namespace

void sort_on_device(DeviceSortJob& job) {
  switch (job.format.key_words()) {
    case 1: DeviceSorter<1>(job).run(); break;
    case 2: DeviceSorter<2>(job).run(); break;
    default: throw std::logic_error("the device sorts keys of at most 2 words");
  }
  GpuTimes times = job.device.times();
  times.setup = job.stats.gpu_seconds.setup;
  job.stats.gpu_seconds = times;
  job.stats.backend = "gpu";
}

}  // namespace corank
