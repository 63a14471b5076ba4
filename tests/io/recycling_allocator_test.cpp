// io::RecyclingAllocator: a block given back is handed out again for the same
// size, another size takes a fresh block, blocks in use are never handed out
// twice, and sinks opened one after another through it write every byte.
#include "corank/io/recycling_allocator.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <set>
#include <string>

#include "corank/io/options.hpp"
#include "corank/io/write_behind_sink.hpp"

namespace corank::io {
namespace {

TEST(RecyclingAllocator, GivesBackBlocksOfTheSameSize) {
  RecyclingAllocator a;
  void* p = a.allocate(1 << 20, kDirectAlignment);
  void* q = a.allocate(1 << 20, kDirectAlignment);
  EXPECT_NE(p, q);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kDirectAlignment, 0u);
  a.deallocate(p, 1 << 20);
  EXPECT_EQ(a.allocate(1 << 20, kDirectAlignment), p);
  void* r = a.allocate(2 << 20, kDirectAlignment);  // another size: fresh
  EXPECT_NE(r, p);
  EXPECT_NE(r, q);
  EXPECT_EQ(a.fresh_blocks(), 3u);
  a.deallocate(q, 1 << 20);
  a.deallocate(r, 2 << 20);
  a.deallocate(p, 1 << 20);
}

TEST(RecyclingAllocator, SinksOneAfterAnotherShareTheirBlocks) {
  char name[] = "/tmp/corank-recycling-XXXXXX";
  const int fd = ::mkstemp(name);
  ASSERT_GE(fd, 0);
  RecyclingAllocator a;
  IoOptions opt;
  opt.allocator = &a;
  opt.block_size = 64 << 10;
  opt.queue_depth = 4;
  std::string want;
  for (int s = 0; s < 6; ++s) {
    const std::string part(100'000 + s * 4099, static_cast<char>('a' + s));
    WriteBehindSink sink(fd, name, opt, false, want.size());
    sink.write(part.data(), part.size());
    sink.finish();
    want += part;
  }
  EXPECT_LE(a.fresh_blocks(), 4u);
  std::string got(want.size(), '\0');
  ASSERT_EQ(::pread(fd, got.data(), got.size(), 0), static_cast<ssize_t>(got.size()));
  EXPECT_TRUE(got == want);
  ::close(fd);
  ::unlink(name);
}

}  // namespace
}  // namespace corank::io
