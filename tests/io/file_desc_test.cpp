#include "corank/io/file_desc.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "corank/io/error.hpp"
#include "io_test_util.hpp"

TEST(FileDesc, OpenMissingFileNamesPathAndReason) {
  try {
    corank::io::FileDesc::open("/nonexistent/corank-test", O_RDONLY);
    FAIL() << "open of a missing file succeeded";
  } catch (const corank::io::IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/corank-test"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos);
  }
}

// Appends of many sizes at unaligned ends, with 1 to 4 threads: the file is
// the bytes in order. On tmpfs the large ones go through a mapping (the
// slices' pages populated by their threads), elsewhere through pwrite.
void check_appends(const std::string& dir, bool memory_fs) {
  using corank::io::test::pattern;
  using corank::io::test::slurp;
  for (unsigned threads : {1u, 3u, 4u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const std::string path = dir + "/appended-" + std::to_string(threads);
    corank::io::FileDesc fd = corank::io::FileDesc::open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    std::string want;
    std::uint64_t end = 0;
    const std::vector<std::size_t> sizes = {7, (9u << 20) + 123, 4096, (13u << 20) + 1, 1, 5u << 20, 0, 3};
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::string piece = pattern(sizes[i], static_cast<std::uint32_t>(i + 7 * threads));
      const bool mapped = corank::io::append_in_parallel(fd.get(), end, piece.data(), piece.size(), threads, path);
      // A mapping only pays with a slice of 4 MiB for each of two threads or more.
      EXPECT_EQ(mapped, memory_fs && threads > 1 && piece.size() >= (8u << 20)) << "append " << i;
      want += piece;
      end += piece.size();
    }
    EXPECT_TRUE(slurp(path) == want);
  }
}

TEST(AppendInParallel, OnTmpfsThroughAMapping) {
  char tmpl[] = "/dev/shm/corank-append-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) GTEST_SKIP() << "no /dev/shm";
  const std::string dir = tmpl;
  struct statfs fs {};
  const bool tmpfs = ::statfs(tmpl, &fs) == 0 && static_cast<unsigned long>(fs.f_type) == TMPFS_MAGIC;
  if (tmpfs) check_appends(dir, true);
  std::system(("rm -rf '" + dir + "'").c_str());
  if (!tmpfs) GTEST_SKIP() << "/dev/shm is not tmpfs";
}

TEST(AppendInParallel, ElsewhereThroughPwrite) {
  corank::io::test::ScratchDir dir;
  struct statfs fs {};
  ASSERT_EQ(::statfs(dir.path().c_str(), &fs), 0);
  if (static_cast<unsigned long>(fs.f_type) == TMPFS_MAGIC) GTEST_SKIP() << "/tmp is tmpfs here";
  check_appends(dir.path(), false);
}

TEST(AppendInParallel, AWriteOnlyDescriptorIsWrittenAsUsual) {
  char tmpl[] = "/dev/shm/corank-append-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) GTEST_SKIP() << "no /dev/shm";
  const std::string path = std::string(tmpl) + "/f";
  {
    corank::io::FileDesc fd = corank::io::FileDesc::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const std::string piece = corank::io::test::pattern(9u << 20, 5);
    EXPECT_FALSE(corank::io::append_in_parallel(fd.get(), 0, piece.data(), piece.size(), 4, path));
    EXPECT_TRUE(corank::io::test::slurp(path) == piece);
  }
  std::system(("rm -rf '" + std::string(tmpl) + "'").c_str());
}
