// OutputFile in a region of an existing file (IoOptions::output_region): every
// write path (the sink, a reserved range, the mapping) lands at the region's
// offset, bytes outside it stay as they were, the file is neither truncated
// nor removed, and read_back() yields exactly the region.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/write_behind_sink.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

// Offsets on and off page and sector boundaries; sizes around them.
constexpr std::uint64_t kOffsets[] = {0, 1, 4095, 4096, 70000};
constexpr std::uint64_t kSizes[] = {0, 1, 4095, 4097, (std::uint64_t{1} << 20) + 3};

std::string read_all(ByteSource& s) {
  std::string out, buf(std::size_t{1} << 16, '\0');
  for (;;) {
    const std::size_t k = s.read(buf.data(), buf.size());
    out.append(buf.data(), k);
    if (k < buf.size()) return out;
  }
}

IoOptions region_options(std::uint64_t offset, std::uint64_t size) {
  IoOptions o;
  o.block_size = std::size_t{64} << 10;
  o.queue_depth = 4;
  o.output_region = OutputRegion{offset, size};
  return o;
}

// A file of `before` + size + `after` bytes of one pattern; what it must hold
// once the region [before, before + size) is written with `data`.
struct RegionFile {
  std::string path, old, expected;
  RegionFile(std::string p, std::uint64_t before, const std::string& data, std::uint64_t after)
      : path(std::move(p)), old(pattern(before + data.size() + after, 99)) {
    spit(path, old);
    expected = old.substr(0, before) + data + old.substr(before + data.size());
  }
};

class OutputRegionTest : public ::testing::Test {
protected:
  ScratchDir dir_;
};

TEST_F(OutputRegionTest, SinkWritesLandAtTheOffsetAndNothingElseChanges) {
  for (std::uint64_t off : kOffsets)
    for (std::uint64_t n : kSizes) {
      const std::string data = pattern(n, static_cast<std::uint32_t>(n + off));
      RegionFile f(dir_.file("shared"), off, data, 5000);
      {
        OutputFile out(f.path, region_options(off, n));
        // Uneven pieces, so block boundaries fall inside writes.
        for (std::size_t at = 0, piece = 1; at < n; at += piece, piece = piece * 3 + 1)
          out.sink().write(data.data() + at, std::min<std::size_t>(piece, n - at));
        out.finish_writing();
        EXPECT_EQ(read_all(*out.read_back(region_options(off, n))), data) << "offset " << off << " size " << n;
        out.commit();
      }
      EXPECT_EQ(slurp(f.path), f.expected) << "offset " << off << " size " << n;
      EXPECT_EQ(dir_.entries(), std::vector<std::string>{"shared"}) << "a temporary file, or the file renamed";
    }
}

TEST_F(OutputRegionTest, ReservedRangeContinuesAfterTheSinkInsideTheRegion) {
  const std::string data = pattern(300001, 5);
  const std::uint64_t off = 12345, head = 777, split = 100000;
  RegionFile f(dir_.file("shared"), off, data, 4096);
  {
    OutputFile out(f.path, region_options(off, data.size()));
    ASSERT_TRUE(out.can_reserve_range());
    out.sink().write(data.data(), head);
    const std::optional<FileRange> range = out.reserve_range();
    ASSERT_TRUE(range);
    // Two writers at offsets of their own, counted from the range's start.
    const auto back = range->sink_at(split - head);
    back->write(data.data() + split, data.size() - split);
    const auto front = range->sink_at(0);
    front->write(data.data() + head, split - head);
    out.commit();
  }
  EXPECT_EQ(slurp(f.path), f.expected);
}

TEST_F(OutputRegionTest, ReservedRangeIsNeverWrittenDirect) {
  // A page the region shares with a neighbour's region must go through the
  // page cache, even where the engine would write whole blocks O_DIRECT.
  const std::string data = pattern(1 << 20, 7);
  const std::uint64_t off = 1 << 16;
  RegionFile f(dir_.file("shared"), off, data, 4096);
  {
    IoOptions opt = region_options(off, data.size());
    OutputFile out(f.path, opt);
    const std::optional<FileRange> range = out.reserve_range();
    ASSERT_TRUE(range);
    opt.direct = true;
    auto sink = range->engine_sink_at(0, opt);
    sink->write(data.data(), data.size());
    EXPECT_FALSE(dynamic_cast<WriteBehindSink&>(*sink).direct());
    sink->finish();
    out.commit();
  }
  EXPECT_EQ(slurp(f.path), f.expected);
}

TEST_F(OutputRegionTest, UncommittedRegionLeavesTheFileInPlace) {
  const std::string data = pattern(10000, 6);
  RegionFile f(dir_.file("shared"), 100, data, 100);
  {
    OutputFile out(f.path, region_options(100, data.size()));
    out.sink().write(data.data(), data.size());
  }  // a failed sort: its creator removes the file, not the OutputFile
  EXPECT_EQ(slurp(f.path).size(), f.old.size());
}

TEST_F(OutputRegionTest, RefusesARegionPastTheEndAndACompressedRegion) {
  spit(dir_.file("short"), std::string(100, 'x'));
  EXPECT_THROW(OutputFile(dir_.file("short"), region_options(50, 51)), IoError);
  EXPECT_THROW(OutputFile(dir_.file("missing"), region_options(0, 0)), IoError);
  IoOptions zstd = region_options(0, 10);
  zstd.output_codec = Codec::zstd;
  EXPECT_THROW(OutputFile(dir_.file("short"), zstd), IoError);
  EXPECT_EQ(slurp(dir_.file("short")), std::string(100, 'x'));
}

// The mapping needs a memory file system: /dev/shm where it is one.
class OutputRegionMappedTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/dev/shm/corank-region-test-XXXXXX";
    struct statfs fs {};
    if (::mkdtemp(tmpl) == nullptr) GTEST_SKIP() << "no /dev/shm to map an output on";
    dir_ = tmpl;
    if (::statfs(tmpl, &fs) != 0 || static_cast<unsigned long>(fs.f_type) != TMPFS_MAGIC)
      GTEST_SKIP() << "/dev/shm is not tmpfs: outputs are not mapped there";
  }
  void TearDown() override {
    if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  std::string dir_;
};

TEST_F(OutputRegionMappedTest, MappedWritesCountFromTheRegionStart) {
  for (std::uint64_t off : kOffsets)
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4097}, (std::uint64_t{3} << 20) + 5}) {
      const std::string data = pattern(n, static_cast<std::uint32_t>(n ^ off));
      RegionFile f(dir_ + "/shared", off, data, 3000);
      {
        OutputFile out(f.path, region_options(off, n));
        EXPECT_THROW(out.map_for_writing(n + 1), IoError) << "a mapping past the region";
        ASSERT_TRUE(out.map_for_writing(n));
        // One half copied in, the other built in place, a page's worth at a time.
        const std::uint64_t half = n / 2;
        out.write_mapped(0, data.data(), static_cast<std::size_t>(half));
        for (std::uint64_t at = half; at < n; at += 4096) {
          const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(4096, n - at));
          std::memcpy(out.mapped_range(at, k), data.data() + at, k);
        }
        EXPECT_THROW(out.mapped_range(n, 1), IoError);
        out.finish_writing();
        EXPECT_EQ(read_all(*out.read_back(region_options(off, n))), data) << "offset " << off << " size " << n;
        out.commit();
      }
      EXPECT_EQ(slurp(f.path), f.expected) << "offset " << off << " size " << n;
    }
}

}  // namespace
}  // namespace corank::io::test
