// io::populate_pays and the populating calls (fresh_pages.hpp): the rule
// follows what a fault costs, CORANK_POPULATE=0/1 overrides it, and a range
// populated keeps what was written in it before, for writing and for reading.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "corank/io/file_desc.hpp"
#include "corank/io/fresh_pages.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

TEST(FreshPages, PopulateWhereAFaultLeavesTheGuest) {
  EXPECT_TRUE(populate_pays(kCostlyFaultMicroseconds * 3, nullptr));  // the dev VM's PVM: 10-16 us
  EXPECT_FALSE(populate_pays(2.0, nullptr));                          // the H200 machine's VM: about 1.2 us
  EXPECT_FALSE(populate_pays(0.3, nullptr));                          // bare metal
  EXPECT_TRUE(populate_pays(0.3, "1"));
  EXPECT_FALSE(populate_pays(50.0, "0"));
  EXPECT_TRUE(populate_pays(50.0, "yes"));  // not 0 or 1: the rule decides
  EXPECT_GT(fault_microseconds(), 0.0);
}

// Populated (the environment says so, before the choice is first made in this
// process), a range half written already keeps its bytes, and the rest is
// zero, as fresh memory reads.
TEST(FreshPages, PopulatingForWritingKeepsWhatIsThere) {
  ASSERT_EQ(::setenv("CORANK_POPULATE", "1", 1), 0);
  ASSERT_TRUE(populate_pays());
  const std::size_t bytes = 4 * kPopulateFrom;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* p = static_cast<unsigned char*>(m);
  for (std::size_t i = 0; i < bytes / 2; ++i) p[i] = static_cast<unsigned char>(i * 7 + 1);
  populate_for_writing(p + 3, bytes - 3);  // not page-aligned: widened to whole pages
  bool kept = true, zero = true;
  for (std::size_t i = 0; i < bytes / 2; ++i) kept &= p[i] == static_cast<unsigned char>(i * 7 + 1);
  for (std::size_t i = bytes / 2; i < bytes; ++i) zero &= p[i] == 0;
  EXPECT_TRUE(kept);
  EXPECT_TRUE(zero);
  ::munmap(m, bytes);
}

TEST(FreshPages, PopulatingForReadingLeavesTheFileAsItIs) {
  ASSERT_EQ(::setenv("CORANK_POPULATE", "1", 1), 0);
  ScratchDir dir;
  const std::string path = dir.file("input");
  std::string text(2 * kPopulateFrom + 123, 'x');
  for (std::size_t i = 0; i < text.size(); i += 97) text[i] = '\n';
  std::ofstream(path, std::ios::binary) << text;
  FileDesc fd = FileDesc::open(path, O_RDONLY);
  void* m = ::mmap(nullptr, text.size(), PROT_READ, MAP_SHARED, fd.get(), 0);
  ASSERT_NE(m, MAP_FAILED);
  populate_for_reading(static_cast<const char*>(m) + 5, text.size() - 5);  // widened to whole pages
  EXPECT_EQ(std::memcmp(m, text.data(), text.size()), 0);
  // The file cut short while mapped: the pages past its end are left alone
  // (touching them would raise SIGBUS); what is left reads as it was.
  ASSERT_EQ(::truncate(path.c_str(), 100), 0);
  populate_for_reading(m, text.size());
  EXPECT_EQ(std::memcmp(m, text.data(), 100), 0);
  ::munmap(m, text.size());
}

}  // namespace
}  // namespace corank::io::test
