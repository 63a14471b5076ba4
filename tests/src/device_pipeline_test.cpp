// The device pipeline's host side against a RecordDevice that sorts in host
// memory: every plan (one run; runs in memory; spilled runs; merge passes),
// tiny staging slots and capacities, -u, --verify's checksum, positional and
// sequential input, compared with std::stable_sort. The device checks what
// the pipeline promises it: merge slabs are sorted segments within capacity.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "corank/device_pipeline.hpp"
#include "corank/errors.hpp"
#include "corank/io/codec.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/key_entry.hpp"
#include "corank/planner.hpp"
#include "../record_reference.hpp"
#include "host_record_device.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;

using test::HostRecordDevice;

class DevicePipeline : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("corank-pipeline-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& n) const { return (dir_ / n).string(); }
  // Whether outputs here are written through a shared mapping (tmpfs), which
  // nothing streams into.
  bool output_is_mapped() const {
    const io::FileDesc d(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    return io::on_memory_file_system(d.get());
  }

  static std::vector<std::byte> read_file(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(f)), {});
    std::vector<std::byte> v(c.size());
    if (!c.empty()) std::memcpy(v.data(), c.data(), c.size());
    return v;
  }

  // Records with few distinct keys when `dups`; the payload tells records apart.
  static std::vector<std::byte> records(std::uint32_t R, std::uint64_t n, bool dups, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::byte> v(n * R);
    for (auto& b : v) b = static_cast<std::byte>(rng());
    if (dups)
      for (std::uint64_t i = 0; i < n; ++i) std::memset(v.data() + i * R, static_cast<int>(rng() % 5), R / 2);
    return v;
  }


  struct Outcome {
    SortStats stats;
    HostRecordDevice device;
    RecordChecksum sum;
  };

  Outcome sort(const RecordFormat& format, const std::vector<std::string>& inputs, std::uint64_t capacity,
               std::uint64_t slot, std::uint64_t budget, bool unique,
               const std::vector<std::span<const std::byte>>& buffers = {}) {
    SortOptions options;
    options.inputs = inputs;
    options.output = path("out");
    options.format = format;
    options.unique = unique;
    options.temp_dirs = {path("tmp")};
    options.io.direct = false;
    options.io.temp_codec = temp_codec_;
    options.io.temp_program = temp_program_;
    const KeyNormalizer norm(format);
    Outcome o{{}, HostRecordDevice(format, capacity, slot), {}};
    RecordSource source = buffers.empty() ? RecordSource(inputs, format.record_size, options.io)
                                          : RecordSource(buffers, format.record_size);
    io::OutputFile output(options.output, options.io);
    io::WorkerPool pool(3);
    Progress progress(false);
    DeviceSortJob job{options, format, norm, o.device, source, output, pool, progress, o.stats, budget, &o.sum};
    sort_on_device(job);
    output.commit();
    return o;
  }

  fs::path dir_;
  io::Codec temp_codec_ = io::Codec::none;  // --compress-temp's codec for spilled runs
  std::string temp_program_;                 // --compress-program's
};

TEST_F(DevicePipeline, EveryPlanEqualsAStableSort) {
  const std::vector<std::pair<const char*, std::vector<std::string>>> formats = {
      {"gensort", {}}, {"u64", {}}, {"fixed:12", {"0:4:i32be:desc", "4:8:u64"}}};
  for (const auto& [name, keys] : formats) {
    const RecordFormat format = parse_format(name, keys);
    const std::uint32_t R = format.record_size;
    for (bool dups : {false, true}) {
      const std::uint64_t n = 3000;
      const auto in = records(R, n, dups, 7 + R);
      std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(in.data()), in.size());
      for (bool unique : {false, true}) {
        const auto want = test::reference_sort(format, in, unique);
        // One run; runs in memory; runs spilled; more runs than one slab merges.
        struct Plan {
          std::uint64_t capacity, slot, budget;
        };
        for (const Plan& p : {Plan{1 << 20, 64, 1 << 30}, Plan{1000, 64, 1 << 30}, Plan{700, 7, 0},
                              Plan{64, 16, 1 << 30}, Plan{16, 3, 0}}) {
          SCOPED_TRACE(std::string(name) + " dups " + std::to_string(dups) + " -u " + std::to_string(unique) +
                       " capacity " + std::to_string(p.capacity) + " slot " + std::to_string(p.slot) + " budget " +
                       std::to_string(p.budget));
          Outcome o = sort(format, {path("in")}, p.capacity, p.slot, p.budget, unique);
          EXPECT_TRUE(read_file(path("out")) == want);
          EXPECT_EQ(o.stats.records_out, want.size() / R);
          EXPECT_EQ(o.stats.records_in, n);
          EXPECT_EQ(o.sum.records, n);  // every record read was checksummed
          EXPECT_EQ(o.stats.runs, (n + p.capacity - 1) / p.capacity);
          if (p.capacity < n) {
            EXPECT_GT(o.device.merges_, 0u);
            EXPECT_GT(o.stats.merge_slabs, 0u);
            EXPECT_EQ(o.stats.spilled_runs > 0, p.budget == 0);
          } else {
            EXPECT_EQ(o.device.merges_, 0u);
            EXPECT_EQ(o.device.uploads_, n);  // one pass: every record goes to the device once
          }
          EXPECT_TRUE(fs::is_empty(path("tmp")));
        }
      }
    }
  }
}

// Input that comes sorted streams into the output: one run, nothing spilled
// or merged, and after the first chunk nothing goes to the device (-S 0:
// pieces of one record). A record out of order ends the stream wherever
// it comes (in the first chunk; at a chunk's start; at the input's end), and
// the output is still the stable sort; -u drops equal keys across the chunks
// streamed. With no host memory for a window (-S 0), what was streamed then
// becomes a run (none at all for a first chunk out of order); with a window,
// the first chunk streams through it, and a later record out of order goes
// to a side run, merged with the output's run at the end.
TEST_F(DevicePipeline, SortedInputStreamsIntoTheOutput) {
  if (output_is_mapped()) GTEST_SKIP() << "an output on a memory file system is mapped, not streamed";
  const RecordFormat format = parse_format("gensort", {});
  const std::uint32_t R = format.record_size;
  const std::uint64_t n = 3000, capacity = 700;
  auto write = [&](const std::vector<std::byte>& v) {
    std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size());
  };
  for (bool dups : {false, true}) {
    const auto sorted = test::reference_sort(format, records(R, n, dups, 53), false);
    write(sorted);
    for (bool unique : {false, true})
      for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{1} << 30}) {
        SCOPED_TRACE("dups " + std::to_string(dups) + " -u " + std::to_string(unique) + " budget " +
                     std::to_string(budget));
        Outcome o = sort(format, {path("in")}, capacity, 64, budget, unique);
        EXPECT_TRUE(read_file(path("out")) == test::reference_sort(format, sorted, unique));
        EXPECT_TRUE(o.stats.one_pass);
        EXPECT_EQ(o.stats.runs, 1u);
        EXPECT_EQ(o.stats.spilled_runs, 0u);
        EXPECT_EQ(o.device.merges_, 0u);
        EXPECT_EQ(o.device.uploads_, capacity);  // the first chunk: the rest goes from the input to the output
        EXPECT_EQ(o.stats.records_in, n);
        EXPECT_TRUE(fs::is_empty(path("tmp")));
      }
  }
  // The smallest record moved to `at`: below the record before it.
  const auto sorted = test::reference_sort(format, records(R, n, false, 59), false);
  for (std::uint64_t at : {std::uint64_t{350}, capacity, std::uint64_t{1000}, n - 1}) {
    std::vector<std::byte> in(sorted.begin() + R, sorted.end());
    in.insert(in.begin() + static_cast<std::ptrdiff_t>(at * R), sorted.begin(), sorted.begin() + R);
    write(in);
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{1} << 30}) {
      SCOPED_TRACE("out of order at " + std::to_string(at) + " budget " + std::to_string(budget));
      Outcome o = sort(format, {path("in")}, capacity, 64, budget, false);
      EXPECT_TRUE(read_file(path("out")) == sorted);
      EXPECT_EQ(o.stats.records_out, n);
      EXPECT_TRUE(fs::is_empty(path("tmp")));
      const std::uint64_t chunks = (n + capacity - 1) / capacity;
      if (budget != 0 && at < capacity) {  // the window takes the first chunk: one pass
        EXPECT_TRUE(o.stats.one_pass);
        EXPECT_EQ(o.stats.runs, 1u);
        EXPECT_EQ(o.device.merges_, 0u);
        EXPECT_EQ(o.stats.side_records, 0u);
        continue;
      }
      EXPECT_FALSE(o.stats.one_pass);
      EXPECT_GT(o.device.merges_, 0u);
      if (budget != 0) {  // the record out of order is a side run of its own
        EXPECT_EQ(o.stats.runs, 2u);
        EXPECT_EQ(o.stats.side_records, 1u);
      } else if (at < capacity) {
        EXPECT_EQ(o.stats.runs, chunks);
      } else {  // what was streamed before the record out of order is one run
        EXPECT_TRUE(o.stats.runs >= 2 && o.stats.runs <= chunks) << o.stats.runs;
        EXPECT_GT(o.stats.spilled_runs, 0u);
      }
    }
  }
}

// Records displaced less than the window (a quarter of the device's
// capacity here), as much as it, far more, and one in 50 held back five
// windows: below and at the window, one pass, nothing merged; held back, the
// late records go to side runs merged with the output's run; far displaced,
// the first chunk does not look nearly sorted and runs form as before. A
// sorted start followed by random records: the window takes over where the
// order breaks, and gives up when most of a chunk comes late. Every output is
// the stable sort, with and without -u, with few distinct keys too.
TEST_F(DevicePipeline, AWindowTakesRecordsDisplacedLessThanIt) {
  if (output_is_mapped()) GTEST_SKIP() << "an output on a memory file system is mapped, not streamed";
  const RecordFormat format = parse_format("gensort", {});
  const std::uint32_t R = format.record_size;
  const std::uint64_t n = 6000, capacity = 800, window = capacity / 4;
  for (bool dups : {false, true}) {
    const auto sorted = test::reference_sort(format, records(R, n, dups, 61), false);
    for (int shape = 0; shape < 5; ++shape) {
      std::vector<std::byte> in = sorted;
      std::mt19937_64 rng(shape + 3);
      auto rec = [&](std::uint64_t i) { return in.begin() + static_cast<std::ptrdiff_t>(i * R); };
      const std::uint64_t d = shape == 0 ? window / 2 : shape == 1 ? window : 4 * capacity;
      if (shape < 3) {  // shuffled within blocks of d + 1 records: each at most d from its place
        for (std::uint64_t b = 0; b < n; b += d + 1)
          for (std::uint64_t i = std::min(n, b + d + 1) - 1; i > b; --i)
            std::swap_ranges(rec(i), rec(i + 1), rec(b + rng() % (i - b + 1)));
      } else if (shape == 3) {
        for (std::uint64_t i = 0; i + 5 * window < n; i += 50) std::rotate(rec(i), rec(i + 1), rec(i + 5 * window + 1));
      } else {  // sorted, then random from 1500 on
        for (std::uint64_t i = n - 1; i > 1500; --i) std::swap_ranges(rec(i), rec(i + 1), rec(1500 + rng() % (i - 1500 + 1)));
      }
      std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(in.data()), in.size());
      for (bool unique : {false, true}) {
        SCOPED_TRACE("dups " + std::to_string(dups) + " shape " + std::to_string(shape) + " -u " +
                     std::to_string(unique));
        Outcome o = sort(format, {path("in")}, capacity, 64, std::uint64_t{1} << 30, unique);
        EXPECT_TRUE(read_file(path("out")) == test::reference_sort(format, in, unique));
        EXPECT_EQ(o.stats.records_in, n);
        EXPECT_EQ(o.sum.records, n);
        EXPECT_TRUE(fs::is_empty(path("tmp")));
        if (dups && unique) continue;  // five keys: -u keeps five records, whatever the order
        if (shape < 2) {
          EXPECT_TRUE(o.stats.one_pass);
          EXPECT_EQ(o.stats.runs, 1u);
          EXPECT_EQ(o.stats.side_records, 0u);
          EXPECT_EQ(o.device.merges_, 0u);
        } else {
          EXPECT_FALSE(o.stats.one_pass);
          EXPECT_GT(o.device.merges_, 0u);
        }
        if (shape == 2) EXPECT_EQ(o.stats.runs, (n + capacity - 1) / capacity);  // no window
        if (shape == 3) EXPECT_GT(o.stats.side_records, 0u);
      }
    }
  }
}

// Under --compress-temp the spilled runs are compressed and read back front
// to back through every merge, merge passes included: the output is the
// stable sort, as with plain runs, and no run file is left.
TEST_F(DevicePipeline, CompressedSpilledRunsEqualAStableSort) {
  const RecordFormat format = parse_format("gensort", {});
  const std::uint32_t R = format.record_size;
  const std::uint64_t n = 3000;
  for (bool dups : {false, true}) {
    const auto in = records(R, n, dups, 31);
    std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(in.data()), in.size());
    for (io::Codec codec : {io::Codec::zstd, io::Codec::gzip}) {
      temp_codec_ = codec;
      for (bool unique : {false, true}) {
        const auto want = test::reference_sort(format, in, unique);
        // Runs spilled and merged once; more runs than a slab merges (merge passes).
        for (std::uint64_t capacity : {700u, 16u}) {
          SCOPED_TRACE(std::string(io::codec_name(codec)) + " dups " + std::to_string(dups) + " -u " +
                       std::to_string(unique) + " capacity " + std::to_string(capacity));
          Outcome o = sort(format, {path("in")}, capacity, 5, 0, unique);
          EXPECT_TRUE(read_file(path("out")) == want);
          EXPECT_EQ(o.stats.records_out, want.size() / R);
          EXPECT_EQ(o.stats.runs, (n + capacity - 1) / capacity);
          EXPECT_GT(o.stats.spilled_runs, 0u);
          EXPECT_TRUE(fs::is_empty(path("tmp")));
        }
      }
    }
  }
}

// Under --compress-program every spilled run goes through the program once
// and comes back through `PROG -d` once, in the merge that reads it; a
// program that logs each start counts them.
TEST_F(DevicePipeline, SpilledRunsGoThroughTheCompressProgramAndBack) {
  if (std::system("command -v gzip > /dev/null") != 0) GTEST_SKIP() << "no gzip command";
  const std::string prog = path("pack"), log = path("pack.log");
  std::ofstream(prog) << "#!/bin/sh\nif [ \"$1\" = -d ]; then echo d >> " << log
                      << "; exec gzip -dc; fi\necho c >> " << log << "\nexec gzip -c -1\n";
  fs::permissions(prog, fs::perms::owner_all);
  temp_program_ = prog;
  const RecordFormat format = parse_format("gensort", {});
  const std::uint64_t n = 3000;
  const auto in = records(format.record_size, n, true, 41);
  std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(in.data()), in.size());
  const auto want = test::reference_sort(format, in, false);
  // One merge of 10 runs; more runs than a slab merges (merge passes).
  for (std::uint64_t capacity : {300u, 40u}) {
    SCOPED_TRACE("capacity " + std::to_string(capacity));
    fs::remove(log);
    Outcome o = sort(format, {path("in")}, capacity, 64, 0, false);
    EXPECT_TRUE(read_file(path("out")) == want);
    std::ifstream f(log);
    const std::string starts((std::istreambuf_iterator<char>(f)), {});
    EXPECT_EQ(std::count(starts.begin(), starts.end(), 'c'), static_cast<long>(o.stats.spilled_runs));
    EXPECT_EQ(std::count(starts.begin(), starts.end(), 'd'), static_cast<long>(o.stats.spilled_runs));
    if (capacity == 40) EXPECT_GT(o.stats.spilled_runs, o.stats.runs);  // merge passes wrote runs too
    EXPECT_TRUE(fs::is_empty(path("tmp")));
  }
}

// Several inputs, and input read sequentially (a compressed file, whose size
// is unknown until it ends), sort as their concatenation.
TEST_F(DevicePipeline, SeveralAndSequentialInputs) {
  const RecordFormat format = parse_format("gensort", {});
  const auto a = records(100, 1234, true, 1), b = records(100, 777, false, 2);
  std::ofstream(path("a"), std::ios::binary).write(reinterpret_cast<const char*>(a.data()), a.size());
  std::ofstream(path("b"), std::ios::binary).write(reinterpret_cast<const char*>(b.data()), b.size());
  ASSERT_EQ(std::system(("gzip -c " + path("b") + " > " + path("b.gz")).c_str()), 0);
  std::vector<std::byte> all = a;
  all.insert(all.end(), b.begin(), b.end());
  const auto want = test::reference_sort(format, all, false);
  for (std::uint64_t capacity : {std::uint64_t{1} << 20, std::uint64_t{500}, std::uint64_t{2011}}) {
    SCOPED_TRACE(capacity);
    sort(format, {path("a"), path("b")}, capacity, 50, 1 << 30, false);
    EXPECT_TRUE(read_file(path("out")) == want);
    Outcome o = sort(format, {path("a"), path("b.gz")}, capacity, 50, 0, false);
    EXPECT_TRUE(read_file(path("out")) == want);
    EXPECT_EQ(o.stats.records_in, 2011u);
  }
}

// Records in memory, in several pieces (some empty), sort as their
// concatenation on every plan; one piece with records is taken where it lies.
TEST_F(DevicePipeline, InputBuffers) {
  const RecordFormat format = parse_format("gensort", {});
  const auto all = records(100, 2500, true, 3);
  const auto want = test::reference_sort(format, all, false);
  const std::span<const std::byte> whole(all);
  const std::vector<std::vector<std::span<const std::byte>>> layouts = {
      {whole},
      {whole.subspan(0, 0), whole, whole.subspan(0, 0)},
      {whole.subspan(0, 100 * 1000), whole.subspan(100 * 1000, 0), whole.subspan(100 * 1000)},
  };
  for (const auto& pieces : layouts)
    for (std::uint64_t capacity : {std::uint64_t{1} << 20, std::uint64_t{600}}) {
      SCOPED_TRACE(std::to_string(pieces.size()) + " pieces, capacity " + std::to_string(capacity));
      Outcome o = sort(format, {}, capacity, 50, capacity > 2500 ? 1 << 30 : 0, false, pieces);
      EXPECT_TRUE(read_file(path("out")) == want);
      EXPECT_EQ(o.stats.records_in, 2500u);
      EXPECT_EQ(o.sum.records, 2500u);
    }
  RecordSource one({whole.subspan(0, 0), whole}, 100);
  EXPECT_EQ(one.map_whole(), whole.data());
  RecordSource two({whole.subspan(0, 100), whole.subspan(100)}, 100);
  EXPECT_EQ(two.map_whole(), nullptr);
  EXPECT_THROW(RecordSource({whole.subspan(0, 150)}, 100), InputError);
}

TEST_F(DevicePipeline, EmptyInput) {
  const RecordFormat format = parse_format("u32", {});
  std::ofstream(path("in"), std::ios::binary).flush();
  Outcome o = sort(format, {path("in")}, 100, 10, 1 << 20, false);
  EXPECT_TRUE(read_file(path("out")).empty());
  EXPECT_EQ(o.stats.runs, 0u);
  EXPECT_EQ(o.stats.records_out, 0u);
}

// Each spilled run is an open file: under a low limit on open files the runs
// that reach it are merged early instead of failing with "Too many open files".
TEST_F(DevicePipeline, SpilledRunsStayWithinTheOpenFileLimit) {
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &old), 0);
  if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 128) GTEST_SKIP() << "the hard limit is below 128";
  struct Restore {
    rlimit limit;
    ~Restore() { ::setrlimit(RLIMIT_NOFILE, &limit); }
  } const restore{old};
  rlimit low = old;
  low.rlim_cur = 128;  // max_open_runs() = 32
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  const RecordFormat format = parse_format("gensort", {});
  const std::uint64_t n = 3000;
  const auto in = records(format.record_size, n, true, 11);
  std::ofstream(path("in"), std::ios::binary).write(reinterpret_cast<const char*>(in.data()), in.size());
  // 188 runs of 16 records, every one spilled (no host budget).
  Outcome o = sort(format, {path("in")}, 16, 4, 0, false);
  EXPECT_TRUE(read_file(path("out")) == test::reference_sort(format, in, false));
  EXPECT_LE(o.stats.runs, max_open_runs());
  EXPECT_GT(o.stats.merge_passes, 0u);
  EXPECT_TRUE(fs::is_empty(path("tmp")));
}

}  // namespace
}  // namespace corank
