#pragma once
// Merging spilled runs of fixed-size records slab by slab (external_sort.cpp):
// sampled splitters cut the runs into slabs (slab_split.hpp); each slab's
// segments are read from the runs, their keys normalized, and merged on all
// threads; the next slab loads on the loader thread while one is merged.
// Every run is read front to back: compressed runs each through a small
// stream of their own, plain ones by segments, every request of every run in
// flight together.
#include <cstddef>
#include <cstdint>
#include <future>
#include <span>
#include <stdexcept>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/io/options.hpp"
#include "corank/io/segment_reader.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/kway_merge.hpp"
#include "corank/normalize.hpp"
#include "corank/parallel.hpp"
#include "corank/slab_split.hpp"
#include "corank/sorted_run.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

struct SlabMergeJob {
  const KeyNormalizer& norm;
  const io::IoOptions& io;
  std::uint32_t record_size;
  std::uint64_t slab_records;  // the plan's target
  std::uint64_t stride;        // the runs' sample stride
  unsigned threads;
  io::TaskThread& loader;      // loads the next slab while one is merged
  double& read_seconds;        // advanced by the time spent loading
  std::uint64_t& slabs;        // advanced by the slabs merged
};

// Merges `runs` (consecutive in merge order): deliver(entries, count, records)
// gets each slab's merged entries, whose pos indexes the slab's `records`,
// which stay in place until deliver returns.
template <class E, class Deliver>
void merge_spilled_runs(std::span<IndexedRun<E>> runs, const SlabMergeJob& job, Deliver&& deliver) {
  // A slab as loaded from the runs: their segments back to back, in run
  // order, with their entries; entry pos = index in `records`.
  struct Slab {
    io::HugeVector<std::byte> records;
    io::HugeVector<E> entries;
    std::vector<std::span<const E>> segments;
    std::uint64_t count = 0;
  };
  using Run = IndexedRun<E>;
  const std::size_t k = runs.size();
  const std::uint64_t stride = job.stride;
  const std::uint32_t R = job.record_size;
  std::uint64_t n = 0;
  std::vector<std::uint64_t> counts;
  std::vector<SortedRun::Reader> readers;
  readers.reserve(k);
  for (const auto& r : runs) {
    n += r.records.count();
    counts.push_back(r.records.count());
    readers.emplace_back(r.records, job.io);
  }
  SlabCut<E> cut(slab_boundaries<E>(std::span<const Run>(runs),
                                    [](const Run& r) -> const std::vector<E>& { return r.samples; },
                                    job.slab_records, stride),
                 std::move(counts));
  const std::uint64_t capacity = std::min(n, (job.slab_records / stride + k + 1) * stride);
  job.slabs += cut.slabs();

  Slab slabs[2];
  for (auto& s : slabs) {
    s.records = io::HugeVector<std::byte>(capacity * R);
    s.entries = io::HugeVector<E>(capacity);
  }
  io::HugeVector<E> merged(capacity);
  io::SegmentReader segment_reader(job.io, "temporary file");
  std::vector<io::Segment> segments;
  auto split = [&](std::size_t i, const E& v, std::uint64_t lo) {
    return split_run(runs[i], readers[i], v, lo, stride, job.norm);
  };

  // Loads the next slab into `slab`. The runs split at once, one thread
  // each; plain runs' segments are read together on one ring, and
  // compressed runs decompress into the slab at once, one thread each.
  auto each_run = [](std::size_t runs, auto&& f) {
    parallel_for(static_cast<unsigned>(runs), [&](unsigned i) { f(i); });
  };
  std::vector<std::byte*> later(k);  // where a compressed run's segment goes (null: read on the ring)
  auto load = [&](Slab& slab) {
    auto t0 = Clock::now();
    slab.count = cut.next(split, each_run);
    if (slab.count > capacity) throw std::logic_error("merge slab over its capacity");
    segments.clear();
    std::uint64_t off = 0;
    for (std::size_t i = 0; i < k; ++i) {
      std::byte* dst = slab.records.data() + off * R;
      auto segment = readers[i].take_later(cut.hi()[i], dst);
      if (segment) segments.push_back(*segment);
      later[i] = segment ? nullptr : dst;
      off += cut.hi()[i] - cut.lo()[i];
    }
    each_run(k, [&](std::size_t i) {
      if (later[i]) readers[i].take(cut.hi()[i], later[i]);
    });
    segment_reader.read(segments);
    job.read_seconds += seconds_since(t0);
    slab.segments.assign(k, {});
    off = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const std::uint64_t len = cut.hi()[i] - cut.lo()[i];
      normalize_records(job.norm, slab.records.data(), R, off, off + len, 0, slab.entries.data());
      slab.segments[i] = std::span<const E>(slab.entries.data() + off, len);
      off += len;
    }
  };

  const io::TaskThread::Drain loads_done(job.loader);  // no load outlives the slabs
  std::future<void> loading = job.loader.run([&] { load(slabs[0]); });
  for (std::size_t s = 0; s < cut.slabs(); ++s) {
    loading.get();
    Slab& slab = slabs[s % 2];
    if (!cut.done()) loading = job.loader.run([&, s] { load(slabs[(s + 1) % 2]); });
    merge_kway_parallel(std::span<const std::span<const E>>(slab.segments), merged.data(), job.threads);
    deliver(merged.data(), slab.count, slab.records.data());
  }
}

}  // namespace corank
