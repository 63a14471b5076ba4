// SortedRun (sorted_run.hpp), the run store of binary records. By ranges,
// in host memory and in a plain temporary file alike: records written in
// pieces at any offsets read back exactly, through read() and peek(), for
// records of 1, 12 and 100 bytes and for a run large enough that the worker
// pool cuts its copies into parts; truncate() shortens the run; a failed
// write or read of a spilled run is an io::IoError, and the run's file is
// gone with the run. Front to back, in every store (compressed included):
// a Writer's pieces read back through a Reader's stretches and takes; each
// store keeps its shape; release() frees the run at once.
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

namespace corank {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

constexpr std::uint32_t kRecordSizes[] = {1, 12, 100};

Bytes random_bytes(std::uint64_t n, std::uint32_t seed) {
  Bytes b(n);
  std::mt19937_64 rng(seed);
  for (auto& x : b) x = static_cast<std::byte>(rng());
  return b;
}

// Records [first, first + n) of `all`, records of R bytes.
Bytes slice(const Bytes& all, std::uint32_t R, std::uint64_t first, std::uint64_t n) {
  return Bytes(all.begin() + static_cast<std::ptrdiff_t>(first * R),
               all.begin() + static_cast<std::ptrdiff_t>((first + n) * R));
}

// Descriptors this process holds: a spilled run holds one until it is gone.
std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

const char* storage(bool in_memory) { return in_memory ? "in memory" : "spilled"; }
RunStore store_of(bool in_memory) { return in_memory ? RunStore::memory : RunStore::file; }

class SortedRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-sorted-run-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Every entry of the run's temporary directory.
  std::vector<std::string> temp_entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    return v;
  }

  // The run's records, read back whole.
  static Bytes read_all(const SortedRun& run, std::uint32_t R, io::WorkerPool& pool) {
    Bytes out(run.count() * R);
    run.read(0, run.count(), out.data(), pool);
    return out;
  }

  fs::path dir_;
  io::WorkerPool pool_{3};
};

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
