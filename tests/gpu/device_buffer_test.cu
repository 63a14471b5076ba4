// RAII owners of device and pinned memory, and the CudaError boundary.
#include "corank/gpu/device_buffer.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "corank/gpu/cuda_error.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "gpu_test_support.cuh"

namespace corank::gpu {
namespace {

TEST(DeviceBuffer, RoundTripAndMove) {
  CORANK_SKIP_WITHOUT_GPU();
  std::vector<std::uint64_t> h(1000);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = i * 7;
  DeviceBuffer<std::uint64_t> d(1000);
  ASSERT_NE(d.data(), nullptr);
  check_cuda(cudaMemcpy(d.data(), h.data(), d.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  DeviceBuffer<std::uint64_t> moved(std::move(d));
  EXPECT_EQ(d.data(), nullptr);
  EXPECT_EQ(d.size(), 0);
  EXPECT_EQ(moved.size(), 1000);
  std::vector<std::uint64_t> back(1000);
  check_cuda(cudaMemcpy(back.data(), moved.data(), moved.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  EXPECT_EQ(back, h);
  DeviceBuffer<std::uint64_t> assigned(10);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.size(), 1000);
  EXPECT_EQ(moved.data(), nullptr);
}

TEST(DeviceBuffer, EmptyOwnsNothing) {
  DeviceBuffer<int> d(0);
  EXPECT_EQ(d.data(), nullptr);
  EXPECT_EQ(d.bytes(), 0u);
}

TEST(DeviceBuffer, AllocationFailureNamesTheCall) {
  CORANK_SKIP_WITHOUT_GPU();
  try {
    DeviceBuffer<unsigned char> huge(std::int64_t(1) << 52);  // 4 PiB
    FAIL() << "allocation of 4 PiB succeeded";
  } catch (const CudaError& e) {
    EXPECT_EQ(std::string(e.what()), "cudaMalloc failed: out of memory");
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
  }
  // The failure must not linger and be blamed on the next launch.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

__global__ void noop_kernel() {}

TEST(CudaError, BadLaunchNamesTheKernel) {
  CORANK_SKIP_WITHOUT_GPU();
  noop_kernel<<<1, 4096>>>();  // more threads per block than any GPU allows
  try {
    check_launch("noop_kernel");
    FAIL() << "invalid launch was not reported";
  } catch (const CudaError& e) {
    // The runtime's wording for this varies by version; the call name and
    // the runtime's own message for the code must both be there.
    EXPECT_NE(e.code(), cudaSuccess);
    EXPECT_EQ(std::string(e.what()), std::string("noop_kernel launch failed: ") + cudaGetErrorString(e.code()));
  }
  noop_kernel<<<1, 32>>>();
  EXPECT_NO_THROW(check_launch("noop_kernel"));
  EXPECT_NO_THROW(check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"));
}

TEST(CudaError, CheckPassesSuccessThrough) {
  EXPECT_NO_THROW(check_cuda(cudaSuccess, "anything"));
  EXPECT_THROW(check_cuda(cudaErrorInvalidValue, "cudaMemcpy"), CudaError);
}

TEST(PinnedBuffer, HostAccessibleAndMovable) {
  CORANK_SKIP_WITHOUT_GPU();
  PinnedBuffer<std::uint32_t> p(4096);
  for (std::int64_t i = 0; i < p.size(); ++i) p[i] = std::uint32_t(i);
  DeviceBuffer<std::uint32_t> d(4096);
  check_cuda(cudaMemcpy(d.data(), p.data(), 4096 * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  PinnedBuffer<std::uint32_t> q(std::move(p));
  EXPECT_EQ(p.data(), nullptr);
  for (auto& x : q) x = 0;
  check_cuda(cudaMemcpy(q.data(), d.data(), 4096 * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (std::int64_t i = 0; i < q.size(); ++i) ASSERT_EQ(q[i], std::uint32_t(i));
}

}  // namespace
}  // namespace corank::gpu
