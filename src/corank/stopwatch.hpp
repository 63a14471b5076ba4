#pragma once
// The clock the sorter times its stages with (--stats, -v).
#include <chrono>

namespace corank {

using Clock = std::chrono::steady_clock;

// Wall-clock seconds from t0 to now.
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace corank
