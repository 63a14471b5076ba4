// io::MappedInput: which inputs are mapped rather than read, and what a file
// that shrinks under its mapping does (an input error, never a crash).
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "corank/io/direct_fd.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/mapped_input.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/temp_files.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

bool on_memory_file_system(const std::string& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 &&
         (static_cast<unsigned long>(fs.f_type) == TMPFS_MAGIC || static_cast<unsigned long>(fs.f_type) == RAMFS_MAGIC);
}

TEST(MappedInput, MapsAFileWhosePagesAreInMemory) {
  ScratchDir dir;
  const std::string data = pattern(3'000'000);
  write_file(dir.file("in"), data);  // just written: in the page cache
  auto m = MappedInput::map_if_resident(dir.file("in"), IoOptions{}, data.size());
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->size(), data.size());
  EXPECT_EQ(std::memcmp(m->data(), data.data(), data.size()), 0);
}

TEST(MappedInput, ReadsWhatAMappingWouldNotSuit) {
  ScratchDir dir;
  write_file(dir.file("short"), pattern(999));
  write_file(dir.file("empty"), "");
  write_file(dir.file("in.gz"), pattern(1000));
  EXPECT_EQ(MappedInput::map_if_resident(dir.file("short"), IoOptions{}, 1000), nullptr);  // shrank since opened
  EXPECT_EQ(MappedInput::map_if_resident(dir.file("empty"), IoOptions{}, 0), nullptr);
  EXPECT_EQ(MappedInput::map_if_resident(dir.file("in.gz"), IoOptions{}, 1000), nullptr);  // decompressed by reading
  EXPECT_EQ(MappedInput::map_if_resident("-", IoOptions{}, 1000), nullptr);
  EXPECT_EQ(MappedInput::map_if_resident(dir.path(), IoOptions{}, 4096), nullptr);  // a directory
  EXPECT_EQ(MappedInput::map_if_resident(dir.file("missing"), IoOptions{}, 1000), nullptr);  // reading says why
}

TEST(MappedInput, ReadsAFileNotInMemory) {
  ScratchDir dir;
  const std::string path = dir.file("cold");
  write_file(path, pattern(8 << 20));
  if (on_memory_file_system(path)) {
    // A memory file system's pages are always in memory.
    EXPECT_NE(MappedInput::map_if_resident(path, IoOptions{}, 8 << 20), nullptr);
    return;
  }
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::fdatasync(fd), 0);
  ASSERT_EQ(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);  // clean pages leave the cache
  const double share = cached_share(fd, 0, 8 << 20);
  ::close(fd);
  if (share >= 7.0 / 8) GTEST_SKIP() << "this file system keeps the pages cached (" << share << ")";
  EXPECT_EQ(MappedInput::map_if_resident(path, IoOptions{}, 8 << 20), nullptr);
}

// A file that grew since the caller took its size (a log being written):
// the bytes it had then are mapped, as a read would stop there.
TEST(MappedInput, MapsTheSizeAFileHadWhenOpened) {
  ScratchDir dir;
  const std::string data = pattern(10'000);
  write_file(dir.file("log"), data);
  auto m = MappedInput::map_if_resident(dir.file("log"), IoOptions{}, 6000);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->size(), 6000u);
  EXPECT_EQ(std::memcmp(m->data(), data.data(), 6000), 0);
}

TEST(MappedInput, CountsAsOneReadFaultPoint) {
  ScratchDir dir;
  write_file(dir.file("in"), pattern(4096));
  {
    FailAfter failed_device(FaultPoint::read, 1);
    ScopedFaultInjector faults(failed_device);
    EXPECT_THROW(MappedInput::map_if_resident(dir.file("in"), IoOptions{}, 4096), IoError);
    EXPECT_EQ(failed_device.requests(), 1u);
  }
  EXPECT_NE(MappedInput::map_if_resident(dir.file("in"), IoOptions{}, 4096), nullptr);
}

// Cut by less than its last page holds: no SIGBUS, the rest of that page
// reads as zeros. No output is committed over it: the commit names the file
// and both sizes, and the target keeps what it had.
TEST(MappedInput, AFileCutWithinItsLastPageFailsTheCommit) {
  ScratchDir dir;
  const std::string path = dir.file("in.log"), target = dir.file("out");
  write_file(path, pattern(10'000));
  write_file(target, "old");
  auto m = MappedInput::map_if_resident(path, IoOptions{}, 10'000);
  ASSERT_NE(m, nullptr);
  EXPECT_NO_THROW(check_mapped_inputs());
  ASSERT_EQ(::truncate(path.c_str(), 9'000), 0);
  EXPECT_EQ(m->data()[9'500], std::byte{0}) << "the page's tail past the new end";
  const std::string message =
      "read failed: " + path + ": the file shrank while it was being read (from 10000 to 9000 bytes)";
  try {
    check_mapped_inputs();
    ADD_FAILURE() << "no error for a mapped file that shrank";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
  {
    OutputFile out(target, IoOptions{});
    out.sink().write(reinterpret_cast<const char*>(m->data()), 10'000);
    EXPECT_THROW(out.commit(), IoError);
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"in.log", "out"}));
  std::ifstream in(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "old");
  m.reset();
  EXPECT_NO_THROW(check_mapped_inputs()) << "a mapping gone is no longer checked";
}

TEST(MappedInputDeathTest, AFileThatShrinksIsAnInputErrorThatRemovesTemporaryFiles) {
  GTEST_FLAG_SET(death_test_style, "fast");
  ScratchDir dir;
  const std::string path = dir.file("records.dat"), temp = dir.file(".out.corank-test");
  write_file(path, pattern(1'000'000));
  write_file(temp, "partial output");
  const int slot = register_cleanup(temp);
  auto m = MappedInput::map_if_resident(path, IoOptions{}, 1'000'000);
  ASSERT_NE(m, nullptr);
  EXPECT_EXIT(
      {
        if (::truncate(path.c_str(), 0) != 0) std::abort();
        volatile std::byte last = m->data()[m->size() - 1];
        (void)last;
        std::abort();  // not reached: the read above raises SIGBUS
      },
      ::testing::ExitedWithCode(2),
      "read failed: [^\n]*records\\.dat: the file shrank while it was being read \\(from 1000000 to 0 bytes\\)");
  unregister_cleanup(slot);
  EXPECT_NE(::access(temp.c_str(), F_OK), 0) << "the handler left the temporary file";
}

TEST(MappedInputDeathTest, ASigbusElsewhereStillKills) {
  GTEST_FLAG_SET(death_test_style, "fast");
  ScratchDir dir;
  write_file(dir.file("in"), pattern(4096));
  auto m = MappedInput::map_if_resident(dir.file("in"), IoOptions{}, 4096);  // installs the handler
  ASSERT_NE(m, nullptr);
  // Killed by a signal: SIGBUS itself, or under AddressSanitizer (whose
  // handler the earlier disposition is) SIGABRT after its report.
  EXPECT_EXIT(::raise(SIGBUS), [](int status) { return WIFSIGNALED(status); }, "");
}

}  // namespace
}  // namespace corank::io::test
