#include <cstdio>
#include <string>

#include "corank/sort_options.hpp"

namespace corank {

std::string stats_to_json(const SortStats& s) {
  auto rate = [&](std::uint64_t bytes) { return s.seconds.total > 0 ? bytes / s.seconds.total : 0.0; };
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "{\n"
                "  \"mode\": \"%s\",\n  \"backend\": \"%s\",\n  \"threads\": %u,\n  \"memory_budget\": %llu,\n"
                "  \"records_in\": %llu,\n  \"records_out\": %llu,\n  \"bytes_in\": %llu,\n  \"bytes_out\": %llu,\n"
                "  \"runs\": %llu,\n  \"spilled_runs\": %llu,\n  \"spill_bytes\": %llu,\n  \"merge_slabs\": %llu,\n"
                "  \"seconds\": {\"read\": %.6f, \"run_formation\": %.6f, \"merge\": %.6f, \"write\": %.6f, "
                "\"verify\": %.6f, \"total\": %.6f},\n"
                "  \"gpu_seconds\": {\"setup\": %.6f, \"h2d\": %.6f, \"sort\": %.6f, \"d2h\": %.6f, \"merge\": %.6f, "
                "\"pin\": %.6f, \"busy\": %.6f, \"overlapped\": %.6f},\n"
                "  \"gpu_bytes\": {\"h2d\": %.0f, \"d2h\": %.0f},\n"
                "  \"throughput_bytes_per_second\": %.1f\n"
                "}\n",
                s.mode.c_str(), s.backend.c_str(), s.threads, static_cast<unsigned long long>(s.memory_budget),
                static_cast<unsigned long long>(s.records_in), static_cast<unsigned long long>(s.records_out),
                static_cast<unsigned long long>(s.bytes_in), static_cast<unsigned long long>(s.bytes_out),
                static_cast<unsigned long long>(s.runs), static_cast<unsigned long long>(s.spilled_runs),
                static_cast<unsigned long long>(s.spill_bytes), static_cast<unsigned long long>(s.merge_slabs),
                s.seconds.read, s.seconds.run_formation, s.seconds.merge, s.seconds.write, s.seconds.verify,
                s.seconds.total, s.gpu_seconds.setup, s.gpu_seconds.h2d, s.gpu_seconds.sort, s.gpu_seconds.d2h, s.gpu_seconds.merge,
                s.gpu_seconds.pin, s.gpu_seconds.busy, s.gpu_seconds.overlapped(), s.gpu_seconds.h2d_bytes, s.gpu_seconds.d2h_bytes,
                rate(s.bytes_in));
  return buf;
}

}  // namespace corank
