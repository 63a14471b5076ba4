// FileRange: threads fill a file from the range's start on at offsets of
// their own, through the page cache, the engine or a mapping, and the bytes
// before the start stay as they were.
#include "corank/io/positional_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

// Starts and cuts on and off page and sector boundaries.
constexpr std::uint64_t kStarts[] = {0, 1, 4096, 70001};
constexpr std::uint64_t kCuts[] = {0, 1, 4096, 5000, 200001, 700000};
constexpr std::uint64_t kBytes = (std::uint64_t{1} << 20) + 12345;

class FileRangeTest : public ::testing::Test {
protected:
  // Fills [start, start + kBytes) of a file that holds `start` bytes already,
  // one thread a part, each writing through `fill`(range, offset, bytes).
  template <typename Fill>
  void check_parts(const char* what, Fill fill) {
    for (std::uint64_t start : kStarts) {
      SCOPED_TRACE(std::string(what) + " from " + std::to_string(start));
      const std::string path = dir_.file(what);
      const std::string before = pattern(start, 3), data = pattern(kBytes, 4);
      spit(path, before);
      FileDesc fd = FileDesc::open(path, O_RDWR);
      const FileRange range(fd.get(), start, path);
      EXPECT_EQ(range.name(), path);
      std::vector<std::jthread> writers;
      for (std::size_t p = 0; p < std::size(kCuts); ++p) {
        const std::uint64_t from = kCuts[p], to = p + 1 < std::size(kCuts) ? kCuts[p + 1] : kBytes;
        writers.emplace_back([&, from, to] { fill(range, from, std::string_view(data).substr(from, to - from)); });
      }
      writers.clear();
      EXPECT_TRUE(slurp(path) == before + data);
    }
  }
  ScratchDir dir_;
};

TEST_F(FileRangeTest, PageCacheSinksFillPartsAtOnce) {
  check_parts("sink_at", [](const FileRange& range, std::uint64_t offset, std::string_view bytes) {
    const auto sink = range.sink_at(offset);
    sink->write(bytes.data(), bytes.size());
    sink->finish();
    EXPECT_EQ(sink->bytes_written(), bytes.size());
  });
}

// Engine sinks write whole aligned blocks O_DIRECT and the rest buffered:
// each engine in turn.
class FileRangeEngineTest : public FileRangeTest, public ::testing::WithParamInterface<Engine> {
protected:
  void SetUp() override { CORANK_REQUIRE_ENGINE(GetParam()); }
};

TEST_P(FileRangeEngineTest, EngineSinksFillPartsAtOnce) {
  const IoOptions io = options_for(GetParam(), std::size_t{64} << 10, 3);
  check_parts("engine_sink_at", [&](const FileRange& range, std::uint64_t offset, std::string_view bytes) {
    const auto sink = range.engine_sink_at(offset, io);
    // Uneven write sizes, so blocks fill in different ways.
    for (std::size_t at = 0; at < bytes.size();) {
      const std::size_t n = std::min<std::size_t>(bytes.size() - at, 1 + (at * 7919) % 30000);
      sink->write(bytes.data() + at, n);
      at += n;
    }
    sink->finish();
  });
}

TEST_F(FileRangeTest, MappingsFillAllocatedPartsAtOnce) {
  check_parts("map", [](const FileRange& range, std::uint64_t offset, std::string_view bytes) {
    if (bytes.empty()) return;
    if (!range.allocate(offset, bytes.size())) {
      // No allocation ahead on this file system: the file grows by a write.
      const auto sink = range.sink_at(offset);
      sink->write(bytes.data(), bytes.size());
      return;
    }
    FileRange::Mapping map = range.map(offset, bytes.size());
    ASSERT_TRUE(map);
    // A moved mapping stays mapped once; the moved-from one is empty.
    FileRange::Mapping moved = std::move(map);
    EXPECT_FALSE(map);
    std::copy(bytes.begin(), bytes.end(), moved.data());
  });
}

INSTANTIATE_TEST_SUITE_P(Engines, FileRangeEngineTest, ::testing::Values(Engine::uring, Engine::pread),
                         [](const auto& info) { return std::string(info.param == Engine::uring ? "uring" : "pread"); });

TEST_F(FileRangeTest, NoMappingOfAPipe) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  const FileDesc read_end(p[0]), write_end(p[1]);
  EXPECT_FALSE(FileRange(write_end.get(), 0, "pipe").map(0, 4096));
}

}  // namespace
}  // namespace corank::io::test
