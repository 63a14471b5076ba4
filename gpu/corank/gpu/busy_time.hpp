// How long the GPU pipeline had work in flight: the length of the union of
// per-chunk (or per-slab) intervals [copy in starts, copy out ends], measured
// by CUDA events against one origin event. With two slots on two streams the
// intervals overlap; the summed stage times minus this union is the stage time
// that ran while the other slot's stages were running, i.e. what the
// double-buffering hid.
//
// Plain C++17 (no CUDA), so host-only code and tests can use it.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace corank::gpu {

class BusyTime {
 public:
  // One interval in milliseconds after the origin; end <= begin counts as
  // nothing. Intervals may come in any order; they usually come in time order,
  // which makes this O(1).
  void add(double begin_ms, double end_ms) {
    if (!(end_ms > begin_ms)) return;
    // The first span that ends at or after begin_ms: it and the ones after
    // it that start by end_ms touch the new interval and merge into it.
    auto first = std::lower_bound(spans_.begin(), spans_.end(), begin_ms,
                                  [](const Span& s, double v) { return s.second < v; });
    auto last = first;
    for (; last != spans_.end() && last->first <= end_ms; ++last) {
      begin_ms = std::min(begin_ms, last->first);
      end_ms = std::max(end_ms, last->second);
      total_ -= last->second - last->first;
    }
    first = spans_.erase(first, last);
    spans_.insert(first, Span(begin_ms, end_ms));
    total_ += end_ms - begin_ms;
  }

  // Length of the union of every interval added, in milliseconds.
  double total_ms() const noexcept { return total_; }

 private:
  using Span = std::pair<double, double>;
  std::vector<Span> spans_;  // disjoint, in order
  double total_ = 0;
};

}  // namespace corank::gpu
