#pragma once
// Adaptive run formation for fixed-size records on the CPU threads
// (external_sort.cpp; sort_driver.hpp's streams): input that comes sorted (a
// table dumped in key order, a file sorted before and appended to in order)
// streams into the output chunk by chunk, each sorted chunk joining the one
// run there as long as it starts at or above the key the run ends with. Then
// the output is complete after one pass, nothing spilled and nothing merged.
// The first chunk that starts below it ends the stream: what was streamed is
// copied into a run of its own (the output starts over) and the sort goes on
// as it would have.
//
// Streaming starts only with a first chunk whose records were already in
// order, so that random and reverse-sorted input pay nothing; and, unlike the
// text sorter's window (text/run_window.hpp), records that arrive a little
// late end the stream rather than go to a side run.
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
#include "corank/normalize.hpp"
#include "corank/sorted_run.hpp"

namespace corank {

template <unsigned W>
class SortedStream {
  using E = KeyEntry<W>;

public:
  // Whether a sorted chunk's entries (pos: each record's place in the chunk
  // as read) are in the order the chunk was read in.
  static bool in_input_order(const E* entries, std::uint64_t n) noexcept {
    for (std::uint64_t i = 0; i < n; ++i)
      if (entries[i].pos != i) return false;
    return true;
  }

  void start() noexcept { active_ = true; }
  bool active() const noexcept { return active_; }
  // Whether the sorted chunk entries[0, n) can follow the records streamed.
  bool continues(const E* entries, std::uint64_t n) const noexcept {
    return n == 0 || records_ == 0 || !key_less(entries[0], last_);
  }
  // Sorted entries whose records went to the output (n of them, after -u).
  void took(const E* entries, std::uint64_t n) noexcept {
    if (n == 0) return;
    last_ = entries[n - 1];
    records_ += n;
  }
  // Records in the output so far.
  std::uint64_t records() const noexcept { return records_; }
  void stop() noexcept { active_ = false; }

private:
  bool active_ = false;
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
