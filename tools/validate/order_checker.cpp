#include "order_checker.hpp"

namespace corank::tools {

OrderChecker::OrderChecker(const corank::RecordFormat& format, bool reverse)
    : normalizer_(format), record_size_(format.record_size), words_(normalizer_.words()), reverse_(reverse) {}

void OrderChecker::add(const std::uint8_t* data, std::uint64_t count) noexcept {
  Key cur{};
  for (std::uint64_t r = 0; r < count; ++r, data += record_size_) {
    normalizer_.normalize(reinterpret_cast<const std::byte*>(data), cur.data());
    if (records_ > 0) {
      int cmp = 0;
      for (std::uint32_t w = 0; w < words_ && cmp == 0; ++w)
        if (prev_[w] != cur[w]) cmp = prev_[w] < cur[w] ? -1 : 1;
      if (cmp == 0) {
        ++duplicates_;
      } else if ((cmp > 0) != reverse_) {
        ++disorders_;
        if (!first_disorder_) first_disorder_ = records_;
      }
    }
    prev_ = cur;
    ++records_;
  }
}

}  // namespace corank::tools
