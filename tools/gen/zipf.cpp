#include "zipf.hpp"

#include <cmath>

namespace corank::tools {

namespace {

// log1p(x)/x and expm1(x)/x, with their series near 0 where the quotient loses precision.
double log1p_over_x(double x) noexcept {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}
double expm1_over_x(double x) noexcept {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(std::uint64_t n, double exponent) : n_(n), s_(exponent) {
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  squeeze_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

// h(x) = x^-s, the unnormalized density.
double ZipfSampler::h(double x) const noexcept { return std::exp(-s_ * std::log(x)); }

// H(x) = (x^(1-s) - 1) / (1-s), an antiderivative of h that stays finite at s = 1.
double ZipfSampler::h_integral(double x) const noexcept {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - s_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const noexcept {
  double t = x * (1.0 - s_);
  if (t < -1.0) t = -1.0;  // rounding can push t just past the domain edge
  return std::exp(log1p_over_x(t) * x);
}

std::uint64_t ZipfSampler::sample(RecordRng& rng) const noexcept {
  for (;;) {
    const double u = h_integral_n_ + rng.uniform() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double kd = std::floor(x + 0.5);
    if (kd < 1.0) kd = 1.0;
    if (kd > static_cast<double>(n_)) kd = static_cast<double>(n_);
    if (kd - x <= squeeze_ || u >= h_integral(kd + 0.5) - h(kd)) return static_cast<std::uint64_t>(kd);
  }
}

}  // namespace corank::tools
