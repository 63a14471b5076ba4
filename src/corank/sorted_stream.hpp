#pragma once
// Adaptive run formation for fixed-size records on the CPU threads
// (external_sort.cpp; sort_driver.hpp's streams): replacement selection with
// sorted chunks, as text/run_window.hpp does for lines. Input that comes
// nearly sorted (a table dumped in key order, records appended a little out
// of order by several writers) streams into the output: each sorted chunk is
// merged with a window of the largest records read so far, the smallest go to
// the one run there and the largest, up to the window's capacity, stay. A
// chunk's first records below the last one the run took cannot join it: they
// go to a side run. Records displaced by less than about the window therefore
// form one run however long the input, written once, nothing spilled and
// nothing merged; side runs, where there are any, are merged with it at the
// end. A chunk that comes mostly late ends the stream: from there on each
// chunk is a run, as it would have been.
//
// Streaming starts only with a first chunk that looks nearly sorted, so that
// random and reverse-sorted input pay one look at it. The window's records
// lie in the chunk buffer that the next chunk is read into, just before where
// its records go, and their entries in the sort's entry array past the
// chunk's: a window takes no memory beyond the chunks' own (RecordWindow's
// user lays the buffers out so).
#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/key_entry.hpp"
#include "corank/kway_merge.hpp"
#include "corank/normalize.hpp"
#include "corank/sorted_run.hpp"

namespace corank {

// Merge positions of runs spilled while records stream into the output: above
// any the output's run can take (take_streamed_run gives it [0, records)), so
// that it comes first among equal keys, as its records were read first.
inline constexpr std::uint64_t kAfterStreamPositions = std::uint64_t{1} << 62;

template <unsigned W>
class RecordWindow {
  using E = KeyEntry<W>;

public:
  // An output that cannot take a stream (none streams into it).
  RecordWindow() = default;
  // Chunks of `buffer_records` (entries too) stream into the output: the
  // window holds a quarter of them (none for fewer than 16: late records then
  // go to side runs at once), its entries at the end of `entries`.
  RecordWindow(std::uint64_t buffer_records, E* entries) noexcept
      : capacity_(buffer_records >= 16 ? buffer_records / 4 : 0),
        held_(entries + (buffer_records - capacity_)),
        streamable_(true) {}

  std::uint64_t capacity() const noexcept { return capacity_; }
  // Whether a sorted first chunk starts a stream: the output can take one,
  // and at most a quarter of the chunk's records lie farther than the window
  // from where they were read (entry pos - at: the record's place as read).
  bool starts_stream(const E* entries, std::uint64_t n, std::uint64_t at) const noexcept {
    if (!streamable_) return false;
    std::uint64_t far = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t read = entries[i].pos - at;
      far += (read > i ? read - i : i - read) > capacity_;
    }
    return far * 4 <= n;
  }

  void start() noexcept { active_ = started_ = true; }
  void stop() noexcept { active_ = false; }
  bool active() const noexcept { return active_; }
  bool started() const noexcept { return started_; }

  // How many of a sorted chunk's first records are below the last record the
  // run took: they cannot join it.
  std::uint64_t late(const E* sorted, std::uint64_t n) const noexcept {
    if (records_ == 0) return 0;
    return static_cast<std::uint64_t>(
        std::partition_point(sorted, sorted + n, [&](const E& e) { return key_less(e, last_); }) - sorted);
  }
  // The window's records merged with the sorted `chunk` into `out` (the
  // window's first among equals: their positions are lower); returns how
  // many. The window is empty after it until keep().
  std::uint64_t merge(std::span<const E> chunk, E* out, unsigned threads) {
    const std::span<const E> seqs[2] = {{held_, held_count_}, chunk};
    merge_kway_parallel(std::span<const std::span<const E>>(seqs), out, threads);
    const std::uint64_t n = held_count_ + chunk.size();
    held_count_ = 0;
    return n;
  }
  // The window keeps `kept` (the largest records merged), whose records were
  // copied to positions [at - kept.size(), at) of the buffer read next.
  void keep(std::span<const E> kept, std::uint64_t at) {
    if (kept.size() > capacity_ || kept.size() > at) throw std::logic_error("window over its capacity");
    for (std::uint64_t i = 0; i < kept.size(); ++i) {
      held_[i] = kept[i];
      held_[i].pos = at - kept.size() + i;
    }
    held_count_ = kept.size();
  }
  std::uint64_t held() const noexcept { return held_count_; }

  // Sorted entries whose records went to the output (n of them, after -u).
  void took(const E* entries, std::uint64_t n) noexcept {
    if (n == 0) return;
    last_ = entries[n - 1];
    records_ += n;
  }
  // Records in the output so far.
  std::uint64_t records() const noexcept { return records_; }

private:
  std::uint64_t capacity_ = 0;
  E* held_ = nullptr;
  std::uint64_t held_count_ = 0;
  bool streamable_ = false, active_ = false, started_ = false;
  E last_{};
  std::uint64_t records_ = 0;
};

// The first `count` records of R bytes written to `output` (finished, its
// writes done), copied through `buffer` into a new run at positions [0,
// count), indexed every `stride` records unless stride is 0; the output then
// starts over, empty.
template <class E>
IndexedRun<E> take_streamed_run(io::OutputFile& output, std::uint64_t count, std::uint32_t R, io::TempDirectories& temps,
                                const io::IoOptions& run_io, unsigned threads, const KeyNormalizer& norm,
                                std::uint64_t stride, std::span<std::byte> buffer) {
  const std::uint64_t step = buffer.size() / R;
  if (step == 0) throw std::logic_error("take_streamed_run: a buffer shorter than a record");
  IndexedRun<E> run{SortedRun(count, 0, R, spill_store(run_io), temps), {}};
  {
    const io::FileDesc written(output.open_for_reading());
    auto sink = run.records.sink(run_io, threads);
    for (std::uint64_t at = 0; at < count; at += step) {
      const std::uint64_t n = std::min(step, count - at);
      if (io::pread_full(written.get(), buffer.data(), n * R, at * R, output.target()) != n * R)
        throw io::IoError("read failed", output.target(), "the output ended early while it was read back");
      if (stride) sample_records(run, norm, buffer.data(), at, n, stride);
      sink->write(buffer.data(), n * R);
    }
    sink->finish();
  }
  output.restart();
  return run;
}

}  // namespace corank
