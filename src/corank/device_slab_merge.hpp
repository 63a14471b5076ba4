#pragma once
// Sorted runs merged on a RecordDevice slab by slab (device_pipeline.cpp):
// sampled keys in merged order cut the runs' records into slabs of at most
// the device's capacity (slab_split.hpp); a slab's k segments (one per run,
// cut at the first record not below the slab's boundary key) go to the device
// back to back and are merged there (co-rank partitions, pairwise merge
// rounds), and the merged slab comes back in order.
#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/gpu_backend.hpp"
#include "corank/io/options.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/normalize.hpp"
#include "corank/sorted_run.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

struct DeviceSlabMerge {
  RecordDevice& device;
  const io::IoOptions& io;
  io::WorkerPool& pool;
  const KeyNormalizer& norm;
  std::uint64_t stride;       // of the runs' samples
  std::uint64_t host_budget;  // bytes of host memory for runs
  bool unique;                // -u: the first of equal keys, across the slabs too
};

// Records a merge slab aims at: the device's capacity, unless a run is
// compressed. A compressed run is read front to back, so its segment of a
// slab waits in host memory (its reader's buffer) from the slab's cut until
// its upload: slabs then aim at a quarter of the host budget, 16 MiB to 256
// MiB, rather than at the device's gigabytes.
template <class Run>
std::uint64_t device_slab_records(std::span<const Run> runs, std::uint64_t capacity, std::uint32_t R,
                                  std::uint64_t host_budget) {
  const bool compressed =
      std::any_of(runs.begin(), runs.end(), [](const Run& r) { return r.records.store() == RunStore::compressed; });
  if (!compressed) return capacity;
  const std::uint64_t bytes =
      std::clamp<std::uint64_t>(host_budget / 4, std::uint64_t{16} << 20, std::uint64_t{256} << 20);
  return std::clamp<std::uint64_t>(bytes / R, 1, capacity);
}

// Merges `runs` (IndexedRun<E>: records and samples) slab by slab on m's
// device; every merged slab goes to sink(src, count), and after it to
// slab_done(records merged). Returns the seconds spent reading the runs.
template <class E, class Run, class Sink, class SlabDone>
double merge_slabs_on_device(const DeviceSlabMerge& m, std::span<const Run> runs, Sink&& sink, SlabDone&& slab_done) {
  const std::size_t k = runs.size();
  const std::uint64_t C = m.device.capacity();
  std::vector<std::uint64_t> counts;
  std::vector<SortedRun::Reader> readers;
  readers.reserve(k);
  for (const Run& r : runs) {
    counts.push_back(r.records.count());
    readers.emplace_back(r.records, m.io);
  }
  const std::uint32_t R = k ? runs[0].records.record_size() : 0;
  SlabCut<E> cut(slab_boundaries<E>(runs, [](const Run& r) -> const std::vector<E>& { return r.samples; },
                                    device_slab_records(runs, C, R, m.host_budget), m.stride),
                 std::move(counts));
  auto split = [&](std::size_t i, const E& v, std::uint64_t lo) {
    return split_run(runs[i], readers[i], v, lo, m.stride, m.norm);
  };
  // The runs split, and compressed runs decompress, at once: one thread each.
  auto each_run = [&](std::size_t n, auto&& f) {
    m.pool.run(static_cast<unsigned>(n), [&](unsigned i) { f(i); });
  };

  double read_s = 0;
  std::vector<std::uint64_t> ends;
  bool continuing = false;
  while (!cut.done()) {
    const auto t0 = Clock::now();
    const std::uint64_t n = cut.next(split, each_run);
    if (n > C) throw std::logic_error("merge slab over the device's capacity");
    if (n == 0) continue;
    each_run(k, [&](std::size_t i) { readers[i].prefetch(cut.hi()[i]); });
    ends.clear();
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const std::uint64_t from = cut.lo()[i], len = cut.hi()[i] - from;
      if (len == 0) continue;
      SortedRun::Reader& reader = readers[i];
      m.device.upload(at, len, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
        if (from + first != reader.taken()) throw std::logic_error("a slab's segment uploaded out of order");
        reader.take(from + first + max, dst, &m.pool);
        return max;
      });
      at += len;
      ends.push_back(at);
    }
    read_s += seconds_since(t0);
    const KeepEqual keep = !m.unique ? KeepEqual::all : continuing ? KeepEqual::continued : KeepEqual::first;
    const std::uint64_t kept = m.device.sort(n, ends, keep);
    continuing = true;
    m.device.download(kept, [&](const std::byte* src, std::uint64_t, std::uint64_t count) { sink(src, count); });
    slab_done(n);
  }
  return read_s;
}

}  // namespace corank
