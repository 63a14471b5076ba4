#pragma once
// Checks that records arrive in key order, exactly as the sorter defines it:
// keys are compared through corank::KeyNormalizer, the sorter's own normalization.
#include <array>
#include <cstdint>
#include <optional>

#include "corank/format.hpp"
#include "corank/normalize.hpp"

namespace corank::tools {

class OrderChecker {
public:
  // reverse: the whole order is expected descending (the sorter's -r).
  OrderChecker(const corank::RecordFormat& format, bool reverse);

  // Feeds `count` contiguous records; blocks may be any size, order carries over.
  void add(const std::uint8_t* records, std::uint64_t count) noexcept;
  // Appends the findings of a checker that saw the records right after this
  // one's, as if this checker had seen them all: blocks can be checked in parallel.
  void append(const OrderChecker& next) noexcept;

  std::uint64_t records() const noexcept { return records_; }
  // Index (0-based) of the first record whose key sorts before its predecessor's.
  std::optional<std::uint64_t> first_disorder() const noexcept { return first_disorder_; }
  // Records whose key sorts before their predecessor's.
  std::uint64_t disorders() const noexcept { return disorders_; }
  // Records whose key equals their predecessor's.
  std::uint64_t duplicates() const noexcept { return duplicates_; }

private:
  using Key = std::array<std::uint64_t, 8>;  // parse_format caps keys at 64 bytes

  // Records the relation of the record numbered `index` to its predecessor.
  void account(const Key& before, const Key& at, std::uint64_t index) noexcept;

  corank::KeyNormalizer normalizer_;
  std::uint32_t record_size_;
  std::uint32_t words_;
  bool reverse_;
  Key first_{};
  Key prev_{};
  std::uint64_t records_ = 0;
  std::uint64_t disorders_ = 0;
  std::uint64_t duplicates_ = 0;
  std::optional<std::uint64_t> first_disorder_;
};

}  // namespace corank::tools
