// Stream and Event owners: ordering, timing, moves.
#include "corank/gpu/stream.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "gpu_test_support.cuh"

namespace corank::gpu {
namespace {

TEST(Stream, OrdersWorkAndMoves) {
  CORANK_SKIP_WITHOUT_GPU();
  Stream s;
  ASSERT_NE(s.get(), nullptr);
  DeviceBuffer<std::uint32_t> d(1 << 20);
  std::vector<std::uint32_t> h(1 << 20, 0);
  check_cuda(cudaMemsetAsync(d.data(), 0x01, d.bytes(), s.get()), "cudaMemsetAsync");
  check_cuda(cudaMemcpyAsync(h.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost, s.get()), "cudaMemcpyAsync");
  Stream moved(std::move(s));
  EXPECT_EQ(s.get(), nullptr);
  moved.synchronize();
  for (auto x : h) ASSERT_EQ(x, 0x01010101u);
}

TEST(Event, TimesWorkOnAStream) {
  CORANK_SKIP_WITHOUT_GPU();
  Stream s;
  Event start, stop;
  DeviceBuffer<unsigned char> d(1 << 26);
  start.record(s.get());
  check_cuda(cudaMemsetAsync(d.data(), 0, d.bytes(), s.get()), "cudaMemsetAsync");
  stop.record(s.get());
  stop.synchronize();
  EXPECT_GE(stop.elapsed_ms_since(start), 0.0f);
  Event moved(std::move(stop));
  EXPECT_EQ(stop.get(), nullptr);
  EXPECT_NE(moved.get(), nullptr);
}

}  // namespace
}  // namespace corank::gpu
