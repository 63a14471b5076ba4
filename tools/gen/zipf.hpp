#pragma once
// Zipf(s) ranks 1..n in O(1) per draw by rejection-inversion (Hörmann and
// Derflinger, "Rejection-inversion to generate variates from monotone discrete
// distributions", 1996). No table: memory stays constant whatever n is.
#include <cstdint>

#include "counter_rng.hpp"

namespace corank::tools {

class ZipfSampler {
public:
  ZipfSampler(std::uint64_t n, double exponent);
  // A rank in [1, n]; rank 1 is the most frequent.
  std::uint64_t sample(RecordRng& rng) const noexcept;

private:
  double h(double x) const noexcept;
  double h_integral(double x) const noexcept;
  double h_integral_inverse(double x) const noexcept;

  std::uint64_t n_;
  double s_;
  double h_integral_x1_;
  double h_integral_n_;
  double squeeze_;
};

}  // namespace corank::tools
