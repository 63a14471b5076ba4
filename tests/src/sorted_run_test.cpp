// SortedRun (sorted_run.hpp), the run store of binary records. By ranges,
// in host memory and in a plain temporary file alike: records written in
// pieces at any offsets read back exactly, through read() and peek(), for
// records of 1, 12 and 100 bytes and for a run large enough that the worker
// pool cuts its copies into parts; truncate() shortens the run; a failed
// write or read of a spilled run is an io::IoError, and the run's file is
// gone with the run. Front to back: sorted_run_stores_test.cpp.
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

TEST_F(SortedRunTest, ReportsItsShapeAndSpillsOnlyWhenAsked) {
  io::TempDirectories temps({dir_.string()});
  for (bool in_memory : {true, false}) {
    SCOPED_TRACE(storage(in_memory));
    SortedRun run(1000, 4242, 12, store_of(in_memory), temps);
    EXPECT_EQ(run.count(), 1000u);
    EXPECT_EQ(run.base(), 4242u);
    EXPECT_EQ(run.bytes(), 12000u);
    EXPECT_EQ(run.spilled(), !in_memory);
    EXPECT_EQ(run.allocated_bytes(), in_memory ? 12000u : 0u);
    // A spilled run's file never has a name in the directory.
    EXPECT_TRUE(temp_entries().empty());
  }
}

// Pieces of random sizes, written in a random order, cover the run once; the
// run reads back as a whole and in random stretches.
TEST_F(SortedRunTest, PiecesWrittenAtAnyOffsetsReadBackExactly) {
  io::TempDirectories temps({dir_.string()});
  std::mt19937_64 rng(11);
  for (std::uint32_t R : kRecordSizes)
    for (bool in_memory : {true, false})
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{4097}, std::uint64_t{30011}}) {
        SCOPED_TRACE(std::string(storage(in_memory)) + ", R " + std::to_string(R) + ", n " + std::to_string(n));
        const Bytes all = random_bytes(n * R, R * 1000 + static_cast<std::uint32_t>(n));
        SortedRun run(n, 7, R, store_of(in_memory), temps);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces;  // (first, count)
        for (std::uint64_t at = 0; at < n;) {
          const std::uint64_t k = std::min<std::uint64_t>(n - at, 1 + rng() % 3000);
          pieces.emplace_back(at, k);
          at += k;
        }
        std::shuffle(pieces.begin(), pieces.end(), rng);
        for (const auto& [first, k] : pieces) run.write(first, slice(all, R, first, k).data(), k, pool_);
        EXPECT_TRUE(read_all(run, R, pool_) == all);
        for (int i = 0; i < 20; ++i) {
          const std::uint64_t first = rng() % n, k = rng() % (n - first + 1);
          Bytes got(k * R + 1, std::byte{0x5a});  // one byte more: read() stops at its end
          run.read(first, k, got.data(), pool_);
          EXPECT_EQ(got.back(), std::byte{0x5a}) << "read past " << k << " records";
          got.pop_back();
          EXPECT_TRUE(got == slice(all, R, first, k)) << "records [" << first << ", " << first + k << ")";
        }
      }
}

// 3 MiB and more: the worker pool copies in parts of at least 1 MiB, whole
// records each, so part edges fall inside the pieces written and read.
TEST_F(SortedRunTest, LargeRunCopiedInPartsReadsBackExactly) {
  io::TempDirectories temps({dir_.string()});
  io::WorkerPool pool(4);
  for (std::uint32_t R : {12u, 100u})
    for (bool in_memory : {true, false}) {
      SCOPED_TRACE(std::string(storage(in_memory)) + ", R " + std::to_string(R));
      const std::uint64_t n = ((std::uint64_t{5} << 20) + 12345) / R;
      const Bytes all = random_bytes(n * R, 77 + R);
      SortedRun run(n, 0, R, store_of(in_memory), temps);
      // Two pieces whose edge is neither a part's edge nor a round number.
      const std::uint64_t cut = n / 3 + 17;
      run.write(cut, all.data() + cut * R, n - cut, pool);
      run.write(0, all.data(), cut, pool);
      EXPECT_TRUE(read_all(run, R, pool) == all);
      // Stretches that start and end off every part edge.
      for (const auto& [first, k] : {std::pair{std::uint64_t{1}, n - 2}, std::pair{n / 2 - 3, n / 2},
                                     std::pair{n - 1, std::uint64_t{1}}, std::pair{std::uint64_t{0}, n}}) {
        Bytes got(k * R);
        run.read(first, k, got.data(), pool);
        EXPECT_TRUE(got == slice(all, R, first, k)) << "records [" << first << ", " << first + k << ")";
      }
    }
}

// peek() gives a stretch to the calling thread: a pointer into the run held
// in memory (no copy), or the scratch buffer filled from the file.
TEST_F(SortedRunTest, PeekGivesStretchesOfTheRun) {
  io::TempDirectories temps({dir_.string()});
  std::mt19937_64 rng(5);
  for (std::uint32_t R : kRecordSizes)
    for (bool in_memory : {true, false}) {
      SCOPED_TRACE(std::string(storage(in_memory)) + ", R " + std::to_string(R));
      const std::uint64_t n = 20000;
      const Bytes all = random_bytes(n * R, 3 + R);
      SortedRun run(n, 0, R, store_of(in_memory), temps);
      run.write(0, all.data(), n, pool_);
      Bytes scratch;
      const std::byte* whole = run.peek(0, n, scratch);
      EXPECT_TRUE(std::equal(all.begin(), all.end(), whole));
      for (int i = 0; i < 50; ++i) {
        const std::uint64_t first = i == 0 ? n - 1 : rng() % n;
        const std::uint64_t k = i == 0 ? 1 : 1 + rng() % (n - first);
        const std::byte* p = run.peek(first, k, scratch);
        const Bytes want = slice(all, R, first, k);
        EXPECT_TRUE(std::equal(want.begin(), want.end(), p)) << "records [" << first << ", " << first + k << ")";
        if (in_memory) {
          EXPECT_EQ(p, whole + first * R);
        } else {
          EXPECT_EQ(p, scratch.data());
          EXPECT_EQ(scratch.size(), k * R);
        }
      }
    }
}

// A -u merge keeps fewer records than the run was made for: the run ends
// after them, and its records up to there are unchanged.
TEST_F(SortedRunTest, TruncateEndsTheRunAfterItsFirstRecords) {
  io::TempDirectories temps({dir_.string()});
  for (bool in_memory : {true, false}) {
    SCOPED_TRACE(storage(in_memory));
    const std::uint32_t R = 12;
    const std::uint64_t n = 5000, kept = 1234;
    const Bytes all = random_bytes(n * R, 9);
    SortedRun run(n, 100, R, store_of(in_memory), temps);
    run.write(0, all.data(), kept, pool_);
    run.truncate(kept);
    EXPECT_EQ(run.count(), kept);
    EXPECT_EQ(run.bytes(), kept * R);
    EXPECT_EQ(run.base(), 100u);
    // The memory is still held: the run was made for n records.
    EXPECT_EQ(run.allocated_bytes(), in_memory ? n * R : 0u);
    EXPECT_TRUE(read_all(run, R, pool_) == slice(all, R, 0, kept));
    // Never longer than it was.
    run.truncate(n);
    EXPECT_EQ(run.count(), kept);
    run.truncate(0);
    EXPECT_EQ(run.count(), 0u);
    EXPECT_EQ(run.bytes(), 0u);
  }
}

TEST_F(SortedRunTest, EmptyRunReadsNothing) {
  io::TempDirectories temps({dir_.string()});
  for (bool in_memory : {true, false}) {
    SCOPED_TRACE(storage(in_memory));
    SortedRun run(0, 9, 100, store_of(in_memory), temps);
    EXPECT_EQ(run.count(), 0u);
    EXPECT_EQ(run.bytes(), 0u);
    EXPECT_EQ(run.allocated_bytes(), 0u);
    EXPECT_EQ(run.spilled(), !in_memory);
    std::byte sentinel{0x33};
    run.write(0, &sentinel, 0, pool_);
    run.read(0, 0, &sentinel, pool_);
    EXPECT_EQ(sentinel, std::byte{0x33});
    Bytes scratch;
    run.peek(0, 0, scratch);
    EXPECT_TRUE(scratch.empty());
  }
}

// A spilled run read beyond the records written to its file has nothing to
// give there: that is an error, never bytes of no record.
TEST_F(SortedRunTest, SpilledRunReadBeyondItsWrittenRecordsThrows) {
  io::TempDirectories temps({dir_.string()});
  const std::uint32_t R = 100;
  const Bytes all = random_bytes(10 * R, 4);
  SortedRun run(10, 0, R, RunStore::file, temps);
  run.write(0, all.data(), 6, pool_);
  Bytes got(10 * R);
  EXPECT_THROW(run.read(0, 10, got.data(), pool_), io::IoError);
  Bytes scratch;
  EXPECT_THROW(run.peek(5, 2, scratch), io::IoError);
  run.read(0, 6, got.data(), pool_);
  EXPECT_TRUE(std::equal(got.begin(), got.begin() + 6 * R, all.begin()));
}

// A full disk while a run spills: the write throws io::IoError saying so, and
// once the run is gone so is its file (no entry in the directory, no open
// descriptor). A run in memory makes no request that could fail.
TEST_F(SortedRunTest, FailedWriteIsAnIoErrorAndLeavesNoFile) {
  io::TempDirectories temps({dir_.string()});
  io::WorkerPool pool(4);
  const std::uint32_t R = 12;
  const std::uint64_t n = (std::uint64_t{4} << 20) / R;  // several parts, so several write requests
  const Bytes all = random_bytes(n * R, 21);
  {
    SortedRun warm(1, 0, R, RunStore::file, temps);  // the thread pool started before descriptors are counted
    warm.write(0, all.data(), 1, pool);
  }
  const std::size_t descriptors = open_descriptors();
  for (std::uint64_t nth : {1u, 2u, 3u}) {
    SCOPED_TRACE("write request " + std::to_string(nth) + " fails");
    {
      SortedRun run(n, 0, R, RunStore::file, temps);
      io::FailAfter full_disk(io::FaultPoint::write, nth);
      io::ScopedFaultInjector scope(full_disk);
      try {
        run.write(0, all.data(), n, pool);
        ADD_FAILURE() << "the write did not fail";
      } catch (const io::IoError& e) {
        EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("temporary file"), std::string::npos) << e.what();
      }
      EXPECT_GE(full_disk.requests(), nth);
    }
    EXPECT_TRUE(temp_entries().empty());
    EXPECT_EQ(open_descriptors(), descriptors) << "the run's file is still open";
  }
  SortedRun run(n, 0, R, RunStore::memory, temps);
  io::FailAfter full_disk(io::FaultPoint::write, 1);
  io::ScopedFaultInjector scope(full_disk);
  run.write(0, all.data(), n, pool);
  EXPECT_TRUE(read_all(run, R, pool) == all);
  EXPECT_EQ(full_disk.requests(), 0u);
}

// A failed device while a spilled run is read back: read() and peek() throw
// io::IoError saying so, and the run's file goes with the run.
TEST_F(SortedRunTest, FailedReadIsAnIoErrorAndLeavesNoFile) {
  io::TempDirectories temps({dir_.string()});
  io::WorkerPool pool(4);
  const std::uint32_t R = 100;
  const std::uint64_t n = (std::uint64_t{3} << 20) / R;
  const Bytes all = random_bytes(n * R, 22);
  {
    SortedRun warm(1, 0, R, RunStore::file, temps);
    warm.write(0, all.data(), 1, pool);
  }
  const std::size_t descriptors = open_descriptors();
  for (std::uint64_t nth : {1u, 2u}) {
    SCOPED_TRACE("read request " + std::to_string(nth) + " fails");
    {
      SortedRun run(n, 0, R, RunStore::file, temps);
      run.write(0, all.data(), n, pool);
      Bytes got(n * R), scratch;
      {
        io::FailAfter failed_device(io::FaultPoint::read, nth);
        io::ScopedFaultInjector scope(failed_device);
        try {
          run.read(0, n, got.data(), pool);
          ADD_FAILURE() << "the read did not fail";
        } catch (const io::IoError& e) {
          EXPECT_NE(std::string(e.what()).find("Input/output error"), std::string::npos) << e.what();
        }
        // Every later request fails as well.
        EXPECT_THROW(run.peek(1, 10, scratch), io::IoError);
      }
      // The device back, the run reads as written.
      EXPECT_TRUE(read_all(run, R, pool) == all);
    }
    EXPECT_TRUE(temp_entries().empty());
    EXPECT_EQ(open_descriptors(), descriptors) << "the run's file is still open";
  }
}


}  // namespace
}  // namespace corank
