#pragma once
// What src/ sees of a GPU: the two devices it drives, as interfaces. The CUDA
// build implements them in gpu_backend_cuda.cpp; a build without CUDA links
// gpu_backend_none.cpp, whose devices never open. Whether one is opened at
// all is the GPU gate's decision (gpu_gate.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/sort_options.hpp"

namespace corank {

enum class KeepEqual {
  all,        // keep every record
  first,      // keep the first record of each key (-u)
  continued,  // likewise, and drop records equal to the last one the previous sort kept
};

// Sorts fixed-size records in its own memory (gpu/corank/gpu/record_sorter.cuh):
// whole records go in through staging slots, sorted records come out. Every
// member throws GpuError for a device failure; errors thrown by fill or drain
// pass through unchanged.
class RecordDevice {
public:
  // fill(dst, first, max): writes up to max records of the transfer, from its
  // record `first` on, to dst; returns how many. Fewer than max ends it.
  using Fill = std::function<std::uint64_t(std::byte* dst, std::uint64_t first, std::uint64_t max)>;
  // drain(src, first, count): records [first, first + count) of the transfer.
  using Drain = std::function<void(const std::byte* src, std::uint64_t first, std::uint64_t count)>;

  virtual ~RecordDevice() = default;
  // Records one sort holds.
  virtual std::uint64_t capacity() const = 0;
  // Host memory of the staging slots (page-locked), counted in -S.
  virtual std::uint64_t staging_bytes() const = 0;
  // Uploads up to max records to input positions [at, ...); returns how many.
  virtual std::uint64_t upload(std::uint64_t at, std::uint64_t max, const Fill& fill) = 0;
  // Input records [at, at + count).
  struct Piece {
    std::uint64_t at = 0, count = 0;
  };
  // Moves input records so that the pieces, in the order given, lie back to
  // back from position 0; the output's records are lost. For records
  // uploaded in another order than the one equal keys keep.
  virtual void arrange(std::span<const Piece> pieces) = 0;
  // Sorts input records [0, n): in no order (segment_ends empty), or sorted
  // segments ending at segment_ends (ascending, the last n) to merge, the
  // earlier segment first among equal keys. Returns the output's record count.
  virtual std::uint64_t sort(std::uint64_t n, std::span<const std::uint64_t> segment_ends, KeepEqual keep) = 0;
  // Hands output records [0, count) to drain, in order.
  virtual void download(std::uint64_t count, const Drain& drain) = 0;
  // Stage times so far; setup stays 0 (the gate measures it).
  virtual GpuTimes times() const = 0;
  virtual std::string describe() const = 0;
};

// Sorts the 4-word key prefixes of text records on the GPU
// (gpu/corank/gpu/prefix_sort.cuh): the stable order of the keys, ties left in
// input order. Every member throws GpuError.
class GpuPrefixSort {
public:
  static constexpr unsigned kWords = 4;
  // pack(first, count, words) writes keys [first, first + count), kWords each.
  using Pack = std::function<void(std::uint64_t first, std::uint64_t count, std::uint64_t* words)>;
  virtual ~GpuPrefixSort() = default;
  // The most keys one sort() takes.
  virtual std::uint64_t max_records() const = 0;
  // order[i] = the index of the i-th smallest of keys [0, n); only their low
  // key_bits bits may differ.
  virtual void sort(std::uint64_t n, const Pack& pack, unsigned key_bits, std::uint32_t* order) = 0;
  // Summed over sorts; busy is their wall time.
  virtual GpuTimes times() const = 0;
  virtual std::string describe() const = 0;
};

// The backend the build links (CUDA or none). Only the gate calls these.
namespace gpu_backend {

// Empty when a device is usable, else why not.
std::string unavailable_reason();
// Whether records of `format` can be sorted on the device at all (key width, fields).
bool sorts_records_of(const RecordFormat& format);
// A record device of up to device_budget bytes (0: most of the free memory)
// holding at most max_records records a sort (0: as many as fit), with
// `slots` staging slots of slot_bytes each. Throws GpuError.
std::unique_ptr<RecordDevice> open_record_device(const RecordFormat& format, std::uint64_t device_budget,
                                                 std::uint64_t max_records, std::size_t slot_bytes, unsigned slots);
// Throws GpuError.
std::unique_ptr<GpuPrefixSort> open_prefix_sort(std::uint64_t device_budget);

}  // namespace gpu_backend

}  // namespace corank
