// Fixed-size records sorted in device memory, whole: the records cross PCIe,
// the device extracts their normalized keys, orders them and gathers the
// records, and the sorted records cross back ready to write. The host does no
// per-record work.
//
// Device memory for a capacity of C records (key of W words):
//   input records, output records        2 * C * R
//   keys, double-buffered                2 * C * 8W
//   indices, double-buffered             2 * C * 4    (not for words-only records)
//   unique flags                         C
//   temporary storage of the sort, merge and selection
// Records that are one 4- or 8-byte key (words-only: u32 ... f64, fixed:4 and
// fixed:8 with one key covering the record) need no indices: their
// normalized words are sorted alone and turned back into records.
//
// sort() orders the n records uploaded to the input area:
//   - unsorted input: extract (key, index), CUB radix sort over the key's bits;
//   - k sorted segments back to back (a merge slab): extract (key, index),
//     merge adjacent segments pairwise in ceil(log2 k) rounds with
//     corank::gpu::merge (co-rank partitions, equal keys from the earlier
//     segment first);
//   - unique: flags mark the first record of each key (and drop one equal to
//     the last record of the previous sort when asked), the indices are
//     compacted;
//   - gather: output record j = input record index[j] (words-only: the words
//     turned back into records).
// presort() radix-sorts a segment of the input where it lies, on a stream of
// its own, so that runs of an input order themselves while later ones upload.
// Both the radix sort and the merge are stable and indices start in input
// order, so equal keys keep their input order. Everything runs on the
// transfer ring's stream (transfer_ring.cuh), which also carries the records
// in and out.
//
// Plain C++ header (no kernels), so host-only C++20 code can use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "corank/gpu/key_layout.hpp"
#include "corank/gpu/transfer_ring.cuh"

namespace corank::gpu {

struct RecordSortTimes {
  double sort_ms = 0;   // unsorted input: extract, radix sort, unique, gather
  double merge_ms = 0;  // segmented input: extract, merge rounds, unique, gather
};

enum class Unique {
  none,       // keep every record
  first,      // keep the first record of each key
  continued,  // likewise, and drop records equal to the last one the previous sort kept
};

class RecordSorter {
 public:
  // Whether records of `layout` sort as their normalized words alone.
  static bool words_only(const KeyLayout& layout) noexcept;
  // Device bytes a sort of `capacity` records takes.
  static std::uint64_t device_bytes_for(const KeyLayout& layout, std::uint64_t capacity);
  // The most records a sort may hold within device_budget bytes (0: 90% of
  // the device's free memory now); records that need indices (32-bit) at most
  // 2^31 - 1.
  static std::uint64_t capacity_for(const KeyLayout& layout, std::uint64_t device_budget);

  // CUB's selection counts items in int: -u selects larger sorts in pieces.
  static constexpr std::int64_t kSelectPiece = std::int64_t{1} << 30;

  // Allocates the device buffers for `capacity` records. layout.key_words()
  // must be 1 or 2. select_piece (at most kSelectPiece) is for tests of the
  // pieces. Throws CudaError.
  RecordSorter(const KeyLayout& layout, std::uint64_t capacity, TransferRing& ring,
               std::int64_t select_piece = kSelectPiece);
  ~RecordSorter();
  RecordSorter(const RecordSorter&) = delete;
  RecordSorter& operator=(const RecordSorter&) = delete;

  std::uint64_t capacity() const noexcept;
  std::uint64_t device_bytes() const noexcept;
  bool words_only() const noexcept;

  // Uploads up to max_records records to input positions [at, at + ...)
  // through the ring; fill() as TransferRing::Fill, in bytes of whole records.
  std::uint64_t upload(std::uint64_t at, std::uint64_t max_records, const TransferRing::Fill& fill);
  // Sorts input records [at, at + n) where they lie, once the uploads
  // enqueued so far have landed, on a stream of its own, and returns at once:
  // a large input uploaded run by run is presorted run by run while the next
  // runs cross PCIe, and sort() with the runs' ends as segments merges them.
  // The next sort() waits for every presort.
  void presort(std::uint64_t at, std::uint64_t n);
  // A run of input records, [at, at + count).
  struct Piece {
    std::uint64_t at = 0, count = 0;
  };
  // Moves input records so that the k pieces, in the order given, lie back
  // to back from input position 0 (by way of the output area, whose records
  // it replaces): records uploaded as they arrived, put in the order that
  // equal keys must keep before sort() orders them.
  void arrange(const Piece* pieces, std::size_t k);
  // Sorts input records [0, n). No segments (k == 0): the input is in no
  // order; otherwise it is k sorted segments ending at segment_ends[0, k)
  // (ascending, the last one n). Returns the number of output records.
  std::uint64_t sort(std::uint64_t n, const std::uint64_t* segment_ends, std::size_t k, Unique unique);
  // Hands output records [0, count) to drain(), slot by slot, in order.
  void download(std::uint64_t count, const TransferRing::Drain& drain);

  RecordSortTimes times() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace corank::gpu
