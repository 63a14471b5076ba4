#include "corank/device_pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/device_slab_merge.hpp"
#include "corank/device_window.hpp"
#include "corank/errors.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/key_entry.hpp"
#include "corank/output_writer.hpp"
#include "corank/planner.hpp"
#include "corank/prepared_device.hpp"
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
        fan_in_(plan_.fan_in),
        order_(job.norm, R_),
        window_(job.norm, R_, C_, job.host_budget, job.options.unique) {}

  void run() {
    const auto total = job_.input.total_records();
    OutputWriter out(job_.output, job_.pool, total ? std::optional(*total * R_) : std::nullopt);
    out_ = &out;
    drive_sort(*this, job_.stats);
    out.finish();
    job_.stats.one_pass = streaming_ && !merged_stream_;
    // drive_sort counts a streamed run beside the runs; one taken back is among them.
    if (taken_back_) job_.stats.runs--;
    if (streaming_ || streamed_ > 0) note(job_.options.verbose, job_.options.io, adaptive_summary(job_.stats));
    job_.stats.seconds.read = read_s_;
    job_.stats.seconds.write = write_s_;
    job_.stats.records_in = job_.input.records_read() + prepared_;
    job_.stats.mode = job_.stats.spilled_runs ? "external" : "in-memory";
  }

  // --- the model of drive_sort (sort_driver.hpp) ---

  using Run = IndexedRun<E>;

  // Reads the next C records straight into the device's staging and sorts
  // them there. While the input streams in order, records go from the input
  // to the output in pieces without the device; a piece out of order starts
  // the next chunk, sorted on the device. While a window streams, its records
  // begin each chunk (device_window.hpp).
  std::optional<bool> next_chunk() {
    const auto total = job_.input.total_records();
    if (!started_) {
      job_.progress.phase("sort", total ? *total * R_ : 0);
      started_ = true;
    }
    if (job_.prepared) return prepared_chunk();
    std::uint64_t held = 0;  // records of piece_ or the window that begin the chunk
    const std::byte* ahead = nullptr;
    if (window_.active()) {
      held = window_.held();
      ahead = window_.held_records();
    } else if (streaming_) {
      held = stream_pieces();
      if (held == 0) return std::nullopt;
      ahead = piece_.data();
    }
    late_ = 0;
    const std::uint64_t n = job_.device.upload(0, C_, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
      const std::uint64_t k = first < held ? std::min(max, held - first) : 0;
      if (k) std::memcpy(dst, ahead + first * R_, k * R_);
      const std::uint64_t got = k == max ? k : k + fill_from_input(dst + k * R_, first + k, max - k);
      // While streaming, the records below the output are counted (the window's never are).
      const std::uint64_t skip = window_.active() ? k : 0;
      if (streaming_) late_ += window_.below_output(dst + skip * R_, got - skip, job_.pool);
      return got;
    });
    if (n == 0) return std::nullopt;
    fresh_ = n - (window_.active() ? held : 0);
    const bool last = n < C_ || (total && job_.input.records_read() == *total);
    kept_ = job_.device.sort(n, {}, keep());
    if (first_chunk_) {
      first_chunk_ = false;
      if (!last && can_stream() && (order_.in_order() || window_.nearly_sorted())) {
        streaming_ = true;
        if (!order_.in_order()) start_window();
        else note(job_.options.verbose, job_.options.io, "adaptive run formation: the input starts sorted, streaming it into the output");
      }
    }
    if (!streaming_ || window_.active()) order_.stop();
    return last;
  }

  // The input on the device already (prepared_device.hpp): one chunk, the last.
  std::optional<bool> prepared_chunk() {
    prepared_ = job_.prepared->records();
    if (prepared_ == 0) return std::nullopt;
    job_.prepared->arrange();
    job_.progress.advance(prepared_ * R_);
    first_chunk_ = false;
    kept_ = job_.device.sort(prepared_, {}, keep());
    return true;
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
  void end_stream() {
    if (window_.held()) throw std::logic_error("records left in the window after the input");
  }
  std::vector<Run> stream_chunk(bool last) {
    if (window_.active()) return window_chunk(last);
    if (!order_.in_order()) {
      if (window_.capacity() == 0) return leave_stream();
      // What was streamed stays the output's start; a window takes it on from here.
      piece_ = {};
      start_window();
      return window_chunk(last);
    }
    write_chunk();  // the first chunk
    base_ += kept_;
    streamed_ += kept_;
    return {};
  }
  // The output's records become the first run (unless leave_stream made them
  // one already), merged with `runs` into a new output.
  void merge_stream_into_output(std::span<Run> runs) {
    if (taken_back_) return merge_into_output(runs);
    merged_stream_ = true;
    std::vector<Run> all;
    all.push_back(take_back_stream());
    for (Run& r : runs) all.push_back(std::move(r));
    total_ += all.front().records.count();
    merge_into_output(all);
  }

  void merge_into_output(std::span<Run> runs) {
    job_.progress.phase("merge", total_ * R_);
    merge_group(runs, [&](const std::byte* src, std::uint64_t count) { write_out(src, count); });
    for (auto& r : runs) release(r);
  }

private:
  KeepEqual keep() const { return job_.options.unique ? KeepEqual::first : KeepEqual::all; }

  // --- run formation ---

  // An output that a stream can be taken back from (OutputFile::restart).
  bool can_stream() const {
    return job_.output.can_reserve_range() && job_.output.can_read_back() && !out_->mapped();
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
      if (job_.options.unique) before = order_.last();
      const std::uint64_t n = fill_from_input(piece_.data(), 0, most);
      if (n == 0 || !order_.in_order()) return n;
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
    std::vector<Run> left;
    left.push_back(take_back_stream());
    taken_back_ = true;
    left.push_back(spill_chunk());
    return left;
  }

  // The records streamed into the output, copied into a run at positions
  // [0, streamed_); the output starts over, empty.
  Run take_back_stream() {
    job_.output.sink().finish();
    std::vector<std::byte> buffer(std::clamp<std::uint64_t>(streamed_, 1, (std::uint64_t{16} << 20) / R_ + 1) * R_);
    Run run = take_streamed_run<E>(job_.output, streamed_, R_, temps_, job_.options.io, job_.pool.size(), job_.norm,
                                   stride_, buffer);
    job_.stats.records_out -= streamed_;  // written again by the merge
    job_.stats.spilled_runs++;
    job_.stats.spill_bytes += run.records.bytes();
    return run;
  }

  // --- the window (device_window.hpp) ---

  void start_window() {
    window_.start();
    memory_in_use_ += window_.bytes();
    base_ = kAfterStreamPositions;  // runs left besides come after the output's among equal keys
    note(job_.options.verbose, job_.options.io,
         io::format_line("adaptive run formation: the input %s nearly sorted, streaming it into the output "
                         "(a window of %llu records)",
                         streamed_ ? "goes on" : "starts", static_cast<unsigned long long>(window_.capacity())));
  }

  // The sorted chunk (the window's records among it) goes to the output but
  // for the window's worth, which stays; its records below the output go to
  // a side run. A chunk that came mostly late ends the window: it becomes a
  // run, and so does every chunk after it.
  std::vector<Run> window_chunk(bool last) {
    std::vector<Run> left;
    if (!last && late_ * 2 > fresh_) {
      streaming_ = false;
      memory_in_use_ -= window_.bytes();
      window_.stop();
      note(job_.options.verbose, job_.options.io,
           "adaptive run formation: most of a chunk came late, one run per chunk from here on");
      left.push_back(spill_chunk());
      return left;
    }
    std::optional<Run> side;
    std::optional<SortedRun::Writer> writer;
    if (late_) {
      side.emplace(Run{new_run(late_, base_), {}});
      writer.emplace(side->records, job_.options.io, job_.pool);
    }
    window_.begin_chunk(kept_, last ? 0 : std::min(window_.capacity(), kept_));
    job_.device.download(kept_, [&](const std::byte* src, std::uint64_t first, std::uint64_t count) {
      window_.route(
          src, first, count,
          [&](const std::byte* p, std::uint64_t k) {
            sample_records(*side, job_.norm, p, writer->appended(), k, stride_);
            writer->append(p, k);
          },
          [&](const std::byte* p, std::uint64_t k) {
            write_out(p, k);
            streamed_ += k;
          });
    });
    if (side) {
      writer->finish();
      job_.stats.side_records += writer->appended();
      base_ += writer->appended();
      left.push_back(std::move(*side));
    }
    return left;
  }

  // Reads the next records into staging memory, checksumming them for --verify.
  std::uint64_t fill_from_input(std::byte* dst, std::uint64_t first, std::uint64_t max) {
    const auto t0 = Clock::now();
    const std::uint64_t got = job_.input.read(dst, max, job_.pool);
    order_.watch(dst, first, got, job_.pool);
    if (first_chunk_) window_.sample(dst, first, got);
    if (job_.input_checksum) *job_.input_checksum += checksum_records(dst, got, R_, job_.pool.size());
    read_s_ += seconds_since(t0);
    job_.progress.advance(got * R_);
    return got;
  }

  void write_out(const std::byte* src, std::uint64_t count) {
    if (count == 0) return;
    const auto t0 = Clock::now();
    if (streaming_) window_.emitted(src + (count - 1) * R_);
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

  // Merges `runs` slab by slab on the device (device_slab_merge.hpp).
  template <class Sink>
  void merge_group(std::span<const Run> runs, Sink&& sink) {
    const DeviceSlabMerge m{job_.device, job_.options.io, job_.pool, job_.norm,
                            stride_,     job_.host_budget, job_.options.unique};
    read_s_ += merge_slabs_on_device<E>(m, runs, sink, [&](std::uint64_t n) {
      job_.stats.merge_slabs++;
      job_.progress.advance(n * R_);
    });
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
  std::uint64_t prepared_ = 0;  // records on the device before the sort (prepared_device.hpp)
  std::uint64_t base_ = 0;   // records in the runs so far
  std::uint64_t total_ = 0;  // records in the runs to merge
  std::uint64_t memory_in_use_ = 0;
  std::uint64_t memory_runs_ = 0;  // runs held in host memory
  double read_s_ = 0, write_s_ = 0;
  // Adaptive run formation: whether the records read came in key order,
  // whether sorted chunks stream into the output, and how many records they
  // put there.
  OrderWatch order_;
  bool streaming_ = false;
  std::uint64_t streamed_ = 0;
  std::vector<std::byte> piece_;  // what the stream reads into, as much as staging holds
  bool first_chunk_ = true;
  bool taken_back_ = false;     // the records streamed became a run (leave_stream)
  bool merged_stream_ = false;  // the output's run was merged with runs left besides
  DeviceWindow window_;
  std::uint64_t late_ = 0;   // records of the chunk below the output (at most)
  std::uint64_t fresh_ = 0;  // records of the chunk not from the window
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
