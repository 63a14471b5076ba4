#pragma once
// A sorted run of fixed-size records between run formation and the merge:
// the one run store of binary records, for the CPU threads and the device
// alike. Its records are kept
//  - in host memory (RunStore::memory);
//  - in an anonymous temporary file (RunStore::file), where any range reads
//    back: written by ranges (write) or front to back (sink), read by ranges
//    (read, peek);
//  - compressed in one (RunStore::compressed, --compress-temp and
//    --compress-program): written front to back only (sink, compressing on
//    the threads it is given), read front to back only (Reader).
// A Writer writes any store front to back.
// Record i of a run has merge position base + i: bases are prefix sums of the
// runs' lengths, so positions break ties in input order.
//
// A merge reads every run front to back through a SortedRun::Reader, whatever
// its store: the stretches that a slab cut searches, then the records of the
// slab. IndexedRun pairs a run with its sparse index (every stride-th record's
// key entry), by which merges cut slabs (slab_split.hpp).
//
//   SortedRun run(count, base, R, RunStore::file, temps);
//   run.write(0, records, count, pool);              // or: auto s = run.sink(opt); s->write(..); s->finish();
//   SortedRun::Reader reader(run, opt);
//   const std::byte* p = reader.stretch(first, last);  // records [first, last), to search
//   reader.take(upto, dst, &pool);                     // the records up to `upto`, into dst
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/io/options.hpp"
#include "corank/io/segment_reader.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/normalize.hpp"
#include "corank/slab_split.hpp"

namespace corank {

enum class RunStore { memory, file, compressed };

// Where runs that leave host memory go: compressed when the options ask for
// compressed temporaries, else plain.
inline RunStore spill_store(const io::IoOptions& opt) noexcept {
  return opt.compressed_runs() ? RunStore::compressed : RunStore::file;
}

class SortedRun {
public:
  // count records of record_size bytes; base: records in all earlier runs, so
  // that record i's merge position is base + i. temps is used only by the
  // stores in a file.
  SortedRun(std::uint64_t count, std::uint64_t base, std::uint32_t record_size, RunStore store,
            io::TempDirectories& temps);

  RunStore store() const noexcept { return store_; }
  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t base() const noexcept { return base_; }
  std::uint32_t record_size() const noexcept { return R_; }
  bool spilled() const noexcept { return store_ != RunStore::memory; }
  // Holds host memory: in memory, and not released.
  bool in_memory() const noexcept { return store_ == RunStore::memory && !released_; }
  // Bytes of its records (uncompressed).
  std::uint64_t bytes() const noexcept { return count_ * R_; }
  // Host memory the run holds (0 when spilled or released).
  std::uint64_t allocated_bytes() const noexcept { return in_memory() ? allocated_ : 0; }
  // The run ends after its first `count` records (a -u merge kept fewer).
  void truncate(std::uint64_t count) noexcept { count_ = std::min(count_, count); }
  // Frees the run's memory or file once it is merged; it then holds nothing.
  void release() noexcept;

  // --- by ranges: memory and plain files ---
  // Stores records [first, first + n) from src.
  void write(std::uint64_t first, const std::byte* src, std::uint64_t n, io::WorkerPool& pool);
  // Copies records [first, first + n) to dst.
  void read(std::uint64_t first, std::uint64_t n, std::byte* dst, io::WorkerPool& pool) const;
  // Records [first, first + n) for the calling thread: a pointer into the run
  // in memory, or `buf` filled from the file.
  const std::byte* peek(std::uint64_t first, std::uint64_t n, std::vector<std::byte>& buf) const;

  // --- front to back: the stores in a file ---
  // Writes the run's records front to back, whatever its store: by ranges on
  // the pool in memory and plain files, through sink() in a compressed one.
  class Writer {
  public:
    Writer(SortedRun& run, const io::IoOptions& opt, io::WorkerPool& pool);
    void append(const std::byte* src, std::uint64_t n);
    std::uint64_t appended() const noexcept { return written_; }
    // Required before the run is read; the run ends after the records appended.
    void finish();

  private:
    SortedRun& run_;
    io::WorkerPool& pool_;
    std::unique_ptr<io::ByteSink> sink_;
    std::uint64_t written_ = 0;
  };

  // A sink that writes the run's records from its first on through opt's I/O
  // engine, compressing them in a compressed store on `threads` threads at
  // once. finish() it before the run is read; it does not outlive the run.
  std::unique_ptr<io::ByteSink> sink(const io::IoOptions& opt, unsigned threads = 1);

  // Reads a run front to back for a merge.
  class Reader {
  public:
    // opt: the I/O options a compressed run is read with (through small
    // blocks of its own: a merge reads many runs at once).
    Reader(const SortedRun& run, const io::IoOptions& opt);
    // Records [first, last) of the run, first at or after the records taken
    // so far; valid until the next call.
    const std::byte* stretch(std::uint64_t first, std::uint64_t last);
    // Reads a compressed run on to record `upto` now, into the reader's
    // buffer, ahead of the stretch() and take() that need it, so that several
    // runs decompress at once (one thread each); nothing for the other stores.
    void prefetch(std::uint64_t upto) {
      if (source_) fill(upto);
    }
    // Copies the records from those taken so far up to record `upto` to dst,
    // on the pool's threads where one is given and the store reads by ranges.
    void take(std::uint64_t upto, std::byte* dst, io::WorkerPool* pool = nullptr);
    // For a plain file: the segment that reads the records up to `upto` into
    // dst, for an io::SegmentReader to read with other runs' at once; the
    // records count as taken. Other stores: nullopt, and nothing is taken.
    std::optional<io::Segment> take_later(std::uint64_t upto, std::byte* dst);
    std::uint64_t taken() const noexcept { return taken_; }

  private:
    // A compressed run: reads on to record `upto` into buffer_.
    void fill(std::uint64_t upto);

    const SortedRun& run_;
    // A compressed run's decompressed records. A merge may read it from any
    // of the process's pool threads, one at a time: they live as long as the
    // process, as io_engine.hpp asks of a thread with reads in flight.
    std::unique_ptr<io::ByteSource> source_;
    // Compressed: records [taken_, end_), from byte head_ on (taken records
    // are dropped in bulk, not one take at a time); plain file: the last stretch.
    std::vector<std::byte> buffer_;
    std::size_t head_ = 0;
    std::uint64_t taken_ = 0, end_ = 0;
  };

private:
  RunStore store_;
  std::uint64_t count_, base_, allocated_;
  std::uint32_t R_;
  bool released_ = false;
  io::HugeVector<std::byte> memory_;
  io::FileDesc file_;
};

// A run and its sparse index: samples[t] is the entry of record t * stride,
// with its merge position.
template <class E>
struct IndexedRun {
  SortedRun records;
  std::vector<E> samples;
};

// Adds the samples of records [first, first + count) of `run` (src holds them)
// to its index, normalizing their keys.
template <class E>
void sample_records(IndexedRun<E>& run, const KeyNormalizer& norm, const std::byte* src, std::uint64_t first,
                    std::uint64_t count, std::uint64_t stride) {
  const std::uint32_t R = run.records.record_size();
  for (std::uint64_t i = (first + stride - 1) / stride * stride; i < first + count; i += stride) {
    E e;
    norm.normalize(src + (i - first) * R, e.key);
    e.pos = run.records.base() + i;
    run.samples.push_back(e);
  }
}

// Keeps every stride-th of the sorted entries that become records [first,
// first + n) of `run`, with their merge positions.
template <class E>
void sample_entries(IndexedRun<E>& run, const E* entries, std::uint64_t first, std::uint64_t n, std::uint64_t stride) {
  for (std::uint64_t i = (stride - first % stride) % stride; i < n; i += stride) {
    run.samples.push_back(entries[i]);
    run.samples.back().pos = run.records.base() + first + i;
  }
}

// The records of `run` below v in (key, merge position) order, at least lo
// (the split at the previous boundary): the index narrows it to a stretch of
// fewer than `stride` records, which `reader` reads and which is searched.
template <class E>
std::uint64_t split_run(const IndexedRun<E>& run, SortedRun::Reader& reader, const E& v, std::uint64_t lo,
                        std::uint64_t stride, const KeyNormalizer& norm) {
  const auto [first, last] = split_stretch(run.samples, v, stride, run.records.count(), lo);
  if (first >= last) return first;
  const std::byte* stretch = reader.stretch(first, last);
  const std::uint32_t R = run.records.record_size();
  // Binary search, normalizing only the records it probes.
  std::uint64_t a = first, b = last;
  while (a < b) {
    const std::uint64_t mid = a + (b - a) / 2;
    E e;
    norm.normalize(stretch + (mid - first) * R, e.key);
    e.pos = run.records.base() + mid;
    if (e < v)
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

}  // namespace corank
