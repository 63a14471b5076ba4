// corank-bench pcie: pinned host <-> device copy bandwidth, the ceiling of GPU
// run formation (each byte crosses PCIe once each way per pass).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/event.cuh"
#include "corank/gpu/pinned_buffer.cuh"
#include "corank/gpu/stream.cuh"

using namespace corank::gpu;

int bench_pcie(int argc, char** argv) {
  std::uint64_t bytes = std::uint64_t{1} << 30;
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--bytes" && i + 1 < argc) {
      bytes = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: corank-bench pcie [--bytes N] [--reps N]\n"
                           "  pinned H2D and D2H cudaMemcpy bandwidth of N bytes (median of reps)\n");
      return a == "--help" ? 0 : 2;
    }
  }
  try {
    PinnedBuffer<std::byte> host(static_cast<std::int64_t>(bytes));
    DeviceBuffer<std::byte> dev(static_cast<std::int64_t>(bytes));
    std::memset(host.data(), 1, bytes);
    Stream stream;
    Event a, b;
    auto median_ms = [&](cudaMemcpyKind kind) {
      std::vector<float> ms;
      for (int r = 0; r < reps + 1; ++r) {  // the first is a warm-up
        a.record(stream.get());
        if (kind == cudaMemcpyHostToDevice)
          check_cuda(cudaMemcpyAsync(dev.data(), host.data(), bytes, kind, stream.get()), "cudaMemcpyAsync");
        else
          check_cuda(cudaMemcpyAsync(host.data(), dev.data(), bytes, kind, stream.get()), "cudaMemcpyAsync");
        b.record(stream.get());
        b.synchronize();
        if (r > 0) ms.push_back(b.elapsed_ms_since(a));
      }
      std::sort(ms.begin(), ms.end());
      return ms[ms.size() / 2];
    };
    const float h2d = median_ms(cudaMemcpyHostToDevice), d2h = median_ms(cudaMemcpyDeviceToHost);
    std::printf("pcie bytes=%llu h2d_ms=%.3f h2d_GBps=%.2f d2h_ms=%.3f d2h_GBps=%.2f\n",
                static_cast<unsigned long long>(bytes), h2d, bytes / (h2d * 1e6), d2h, bytes / (d2h * 1e6));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-bench pcie: %s\n", e.what());
    return 1;
  }
  return 0;
}
