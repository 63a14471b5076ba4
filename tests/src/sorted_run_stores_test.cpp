// SortedRun (sorted_run.hpp) front to back, in every store (compressed
// included): a Writer's pieces read back through a Reader's stretches and
// takes; a run that reads back short ended early; each store keeps its shape;
// the spill store follows the options; release() frees the run at once; a
// split run is found through its index.
#include "corank/sorted_run.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/io/segment_reader.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/format.hpp"
#include "corank/key_entry.hpp"
#include "corank/normalize.hpp"

#include "sorted_run_test_util.hpp"

namespace corank {
namespace {

using namespace corank::sorted_run_test;

const char* store_name(RunStore store) {
  switch (store) {
    case RunStore::memory: return "memory";
    case RunStore::file: return "file";
    case RunStore::compressed: return "compressed";
  }
  return "?";
}

io::IoOptions zstd_runs() {
  io::IoOptions opt;
  opt.direct = false;
  opt.temp_codec = io::Codec::zstd;
  return opt;
}

// Every store written front to back by a Writer, in pieces, reads back front
// to back through a Reader: stretches ahead of the records taken (what a slab
// cut searches), then the records up to a point (what a slab takes), in steps
// of any size, with and without a pool. A plain file's records can instead be
// taken later, by a segment that an io::SegmentReader reads with others.
TEST_F(SortedRunTest, EveryStoreReadsBackFrontToBackThroughAReader) {
  io::TempDirectories temps({dir_.string()});
  const io::IoOptions opt = zstd_runs();
  std::mt19937_64 rng(17);
  for (std::uint32_t R : {1u, 100u})
    for (RunStore store : {RunStore::memory, RunStore::file, RunStore::compressed})
      for (bool later : {false, true}) {
        SCOPED_TRACE(std::string(store_name(store)) + ", R " + std::to_string(R) + (later ? ", later" : ""));
        const std::uint64_t n = 40000;
        const Bytes all = random_bytes(n * R, 5 + R);
        SortedRun run(n, 0, R, store, temps);
        {
          SortedRun::Writer writer(run, opt, pool_);
          for (std::uint64_t at = 0; at < n;) {
            const std::uint64_t k = std::min<std::uint64_t>(n - at, rng() % 5000);
            writer.append(all.data() + at * R, k);
            at += k;
          }
          writer.finish();
        }
        EXPECT_EQ(run.count(), n);
        SortedRun::Reader reader(run, opt);
        io::SegmentReader segments(opt, "temporary file");
        Bytes got(n * R);
        for (std::uint64_t at = 0; at < n;) {
          // A stretch somewhere ahead, then the records up to a point beyond
          // it (or past what was read ahead); or a take with no stretch first.
          const std::uint64_t first = at + rng() % std::min<std::uint64_t>(n - at, 3000);
          const std::uint64_t last = std::min(n, first + 1 + rng() % 700);
          const bool search = rng() % 4 != 0;
          if (search) {
            const std::byte* p = reader.stretch(first, last);
            const Bytes want = slice(all, R, first, last - first);
            ASSERT_TRUE(std::equal(want.begin(), want.end(), p)) << "stretch [" << first << ", " << last << ")";
          }
          const std::uint64_t upto = std::min(n, search && rng() % 2 ? last + rng() % 3 : last + rng() % 2000);
          if (auto segment = later ? reader.take_later(upto, got.data() + at * R) : std::nullopt) {
            EXPECT_EQ(store, RunStore::file);
            segments.read(std::span<const io::Segment>(&*segment, 1));
          } else {
            EXPECT_FALSE(later && store == RunStore::file) << "a plain file's records are taken later";
            reader.take(upto, got.data() + at * R, rng() % 2 ? &pool_ : nullptr);
          }
          EXPECT_EQ(reader.taken(), upto);
          at = upto;
        }
        EXPECT_TRUE(got == all);
      }
}

// A spilled run whose file ends before its records (a read that finds the
// end of the file early, injected) is "run ended early" on every way a merge
// reads it, CPU and device alike: by ranges, through a Reader's stretches and
// takes, by a segment read later, and compressed; on both I/O engines.
TEST_F(SortedRunTest, ARunThatReadsBackShortEndedEarly) {
  io::TempDirectories temps({dir_.string()});
  const std::uint32_t R = 100;
  const std::uint64_t n = 30000;
  const Bytes all = random_bytes(n * R, 23);
  for (bool uring : {true, false})
    for (RunStore store : {RunStore::file, RunStore::compressed})
      for (std::uint64_t nth : {1u, 2u, 5u}) {
        SCOPED_TRACE(std::string(uring ? "io_uring, " : "pread, ") + store_name(store) + ", read request " +
                     std::to_string(nth) + " finds the end");
        io::IoOptions opt = zstd_runs();
        opt.use_uring = uring;
        opt.block_size = 64 << 10;  // many requests to a run
        SortedRun run(n, 0, R, store, temps);
        {
          SortedRun::Writer writer(run, opt, pool_);
          writer.append(all.data(), n);
          writer.finish();
        }
        const auto expect_ended_early = [&](const char* how, auto&& read) {
          SCOPED_TRACE(how);
          io::FailAfter early_end(io::FaultPoint::early_end, nth);
          io::ScopedFaultInjector scope(early_end);
          try {
            read();
            ADD_FAILURE() << "a run that read back short was taken whole";
          } catch (const io::IoError& e) {
            EXPECT_EQ(std::string(e.what()), "read failed: temporary file: run ended early");
          }
        };
        Bytes got(n * R), scratch;
        expect_ended_early("take", [&] {
          SortedRun::Reader reader(run, opt);
          for (std::uint64_t at = 0; at < n; at += 1000) reader.take(at + 1000, got.data() + at * R);
        });
        expect_ended_early("stretch", [&] {
          SortedRun::Reader reader(run, opt);
          for (std::uint64_t at = 0; at < n; at += 1000) reader.stretch(at, at + 1000);
        });
        if (store != RunStore::file) continue;
        expect_ended_early("read", [&] {
          for (std::uint64_t at = 0; at < n; at += 1000) run.read(at, 1000, got.data() + at * R, pool_);
        });
        expect_ended_early("peek", [&] {
          for (std::uint64_t at = 0; at < n; at += 1000) run.peek(at, 1000, scratch);
        });
        expect_ended_early("segment", [&] {
          SortedRun::Reader reader(run, opt);
          io::SegmentReader segments(opt, "temporary file");
          const auto segment = reader.take_later(n, got.data());
          ASSERT_TRUE(segment);
          segments.read(std::span<const io::Segment>(&*segment, 1));
        });
      }
}

// A Writer given fewer records than the run was made for (a -u merge) ends
// the run after them.
TEST_F(SortedRunTest, WriterEndsTheRunAfterTheRecordsAppended) {
  io::TempDirectories temps({dir_.string()});
  const io::IoOptions opt = zstd_runs();
  for (RunStore store : {RunStore::memory, RunStore::file, RunStore::compressed}) {
    SCOPED_TRACE(store_name(store));
    const std::uint32_t R = 12;
    const Bytes all = random_bytes(100 * R, 2);
    SortedRun run(100, 3, R, store, temps);
    SortedRun::Writer writer(run, opt, pool_);
    writer.append(all.data(), 60);
    writer.finish();
    EXPECT_EQ(run.count(), 60u);
    SortedRun::Reader reader(run, opt);
    Bytes got(60 * R);
    reader.take(60, got.data());
    EXPECT_TRUE(got == slice(all, R, 0, 60));
  }
}

// A compressed run is stored compressed, a plain one plain whatever the
// options say; a compressed run has no access by ranges, a run in memory no
// sink, and no reader goes back.
TEST_F(SortedRunTest, StoresKeepTheirShape) {
  io::TempDirectories temps({dir_.string()});
  const io::IoOptions opt = zstd_runs();
  const std::uint32_t R = 100;
  const std::uint64_t n = 10000;
  const Bytes zeros(n * R);
  for (RunStore store : {RunStore::file, RunStore::compressed}) {
    SCOPED_TRACE(store_name(store));
    SortedRun run(n, 0, R, store, temps);
    auto sink = run.sink(opt);
    sink->write(zeros.data(), zeros.size());
    sink->finish();
    EXPECT_EQ(sink->bytes_written(), n * R);
    if (store == RunStore::compressed)
      EXPECT_LT(sink->stored_bytes(), n * R / 10);
    else
      EXPECT_EQ(sink->stored_bytes(), n * R);
    SortedRun::Reader reader(run, opt);
    reader.stretch(10, 20);
    Bytes got(20 * R);
    reader.take(20, got.data());
    EXPECT_THROW(reader.stretch(19, 25), std::logic_error);
    EXPECT_THROW(reader.take(19, got.data()), std::logic_error);
    EXPECT_EQ(reader.taken(), 20u);
  }
  SortedRun packed(n, 0, R, RunStore::compressed, temps);
  Bytes buf(R);
  std::vector<std::byte> scratch;
  EXPECT_THROW(packed.write(0, buf.data(), 1, pool_), std::logic_error);
  EXPECT_THROW(packed.read(0, 1, buf.data(), pool_), std::logic_error);
  EXPECT_THROW(packed.peek(0, 1, scratch), std::logic_error);
  SortedRun memory(n, 0, R, RunStore::memory, temps);
  EXPECT_THROW(memory.sink(opt), std::logic_error);
}

// What spill_store picks: compressed under either way of compressing
// temporaries, plain otherwise.
TEST_F(SortedRunTest, SpillStoreFollowsTheOptions) {
  io::IoOptions opt;
  EXPECT_EQ(spill_store(opt), RunStore::file);
  opt.temp_codec = io::Codec::gzip;
  EXPECT_EQ(spill_store(opt), RunStore::compressed);
  opt.temp_codec = io::Codec::none;
  opt.temp_program = "lz4";
  EXPECT_EQ(spill_store(opt), RunStore::compressed);
}

// release() frees the run's memory or file at once.
TEST_F(SortedRunTest, ReleaseFreesTheRunsMemoryAndFile) {
  io::TempDirectories temps({dir_.string()});
  const std::size_t descriptors = open_descriptors();
  SortedRun spilled(100, 0, 8, RunStore::file, temps);
  SortedRun held(100, 0, 8, RunStore::memory, temps);
  EXPECT_EQ(open_descriptors(), descriptors + 1);
  EXPECT_TRUE(held.in_memory());
  EXPECT_EQ(held.allocated_bytes(), 800u);
  spilled.release();
  held.release();
  EXPECT_EQ(open_descriptors(), descriptors);
  EXPECT_FALSE(held.in_memory());
  EXPECT_EQ(held.allocated_bytes(), 0u);
  EXPECT_EQ(held.count(), 0u);
}

// split_run, over an index made by sample_records, finds where a run splits
// at any key, in every store, as a search of the whole run would: the index
// narrows the search to a stretch, and only that stretch is read.
TEST_F(SortedRunTest, SplitRunFindsTheSplitThroughTheIndex) {
  io::TempDirectories temps({dir_.string()});
  const io::IoOptions opt = zstd_runs();
  const RecordFormat format = parse_format("u64", {});
  const KeyNormalizer norm(format);
  using E = KeyEntry<1>;
  const std::uint32_t R = format.record_size;
  std::mt19937_64 rng(23);
  for (RunStore store : {RunStore::memory, RunStore::file, RunStore::compressed})
    for (std::uint64_t stride : {1u, 7u, 64u}) {
      SCOPED_TRACE(std::string(store_name(store)) + ", stride " + std::to_string(stride));
      const std::uint64_t n = 5000, base = 1000;
      // Keys 0..99 (little-endian u64 records), many ties, sorted.
      std::vector<std::uint64_t> keys(n);
      for (auto& k : keys) k = rng() % 100;
      std::sort(keys.begin(), keys.end());
      Bytes records(n * R);
      std::memcpy(records.data(), keys.data(), n * R);
      IndexedRun<E> run{SortedRun(n, base, R, store, temps), {}};
      SortedRun::Writer writer(run.records, opt, pool_);
      for (std::uint64_t at = 0; at < n; at += 1000) {
        writer.append(records.data() + at * R, 1000);
        sample_records(run, norm, records.data() + at * R, at, 1000, stride);
      }
      writer.finish();
      ASSERT_EQ(run.samples.size(), (n + stride - 1) / stride);
      // Boundaries in increasing order, as a merge asks them.
      std::vector<E> all(n);
      for (std::uint64_t i = 0; i < n; ++i) {
        norm.normalize(records.data() + i * R, all[i].key);
        all[i].pos = base + i;
      }
      SortedRun::Reader reader(run.records, opt);
      std::uint64_t lo = 0;
      for (std::uint64_t key = 0; key <= 100; key += 1 + rng() % 9) {
        E v;
        norm.normalize(records.data() + std::min<std::uint64_t>(n - 1, key * 50) * R, v.key);
        v.pos = base + rng() % (n + 1);
        const auto want = static_cast<std::uint64_t>(std::lower_bound(all.begin(), all.end(), v) - all.begin());
        if (want < lo) continue;  // a merge never asks below its last split
        const std::uint64_t got = split_run(run, reader, v, lo, stride, norm);
        EXPECT_EQ(got, want) << "key " << key << " pos " << v.pos;
        lo = got;
      }
    }
}


}  // namespace
}  // namespace corank
