#include "order_checker.hpp"

namespace corank::tools {

OrderChecker::OrderChecker(const corank::RecordFormat& format, bool reverse)
    : normalizer_(format), record_size_(format.record_size), words_(normalizer_.words()), reverse_(reverse) {}

void OrderChecker::account(const Key& before, const Key& at, std::uint64_t index) noexcept {
  int cmp = 0;
  for (std::uint32_t w = 0; w < words_ && cmp == 0; ++w)
    if (before[w] != at[w]) cmp = before[w] < at[w] ? -1 : 1;
  if (cmp == 0) {
    ++duplicates_;
  } else if ((cmp > 0) != reverse_) {
    ++disorders_;
    if (!first_disorder_) first_disorder_ = index;
  }
}

void OrderChecker::add(const std::uint8_t* data, std::uint64_t count) noexcept {
  Key cur{};
  for (std::uint64_t r = 0; r < count; ++r, data += record_size_) {
    normalizer_.normalize(reinterpret_cast<const std::byte*>(data), cur.data());
    if (records_ > 0) {
      account(prev_, cur, records_);
    } else {
      first_ = cur;
    }
    prev_ = cur;
    ++records_;
  }
}

void OrderChecker::append(const OrderChecker& next) noexcept {
  if (next.records_ == 0) return;
  if (records_ > 0) {
    account(prev_, next.first_, records_);  // the seam comes before any of next's findings
  } else {
    first_ = next.first_;
  }
  if (next.first_disorder_ && !first_disorder_) first_disorder_ = records_ + *next.first_disorder_;
  disorders_ += next.disorders_;
  duplicates_ += next.duplicates_;
  prev_ = next.prev_;
  records_ += next.records_;
}

}  // namespace corank::tools
