// The merge implementations a caller can pick; automatic is the fastest
// measured (tuned).
#pragma once

namespace corank::gpu {

enum class MergeVariant { automatic, basic, tiled, circular, tuned };

inline const char* to_string(MergeVariant v) {
  switch (v) {
    case MergeVariant::automatic: return "automatic";
    case MergeVariant::basic: return "basic";
    case MergeVariant::tiled: return "tiled";
    case MergeVariant::circular: return "circular";
    case MergeVariant::tuned: return "tuned";
  }
  return "?";
}

}  // namespace corank::gpu
