#pragma once
// A selection of records for tests: records [first, first + n) of each
// range, as a sender's region of received pieces holds its records
// (mpi/arriving_keys.hpp's ReceivedSelection); and records to select from
// whose equal keys show their order.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "corank/record_selection.hpp"

namespace corank::test {

class KeepRanges final : public RecordSelection {
public:
  explicit KeepRanges(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges) : ranges_(std::move(ranges)) {}
  std::uint64_t records() const override {
    std::uint64_t n = 0;
    for (const auto& r : ranges_) n += r.second;
    return n;
  }
  std::uint64_t mark(const std::byte*, std::uint64_t n, std::uint64_t first, std::uint8_t* keep) const override {
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      keep[i] = 0;
      for (const auto& [b, k] : ranges_) keep[i] |= first + i >= b && first + i < b + k;
      kept += keep[i];
    }
    return kept;
  }

private:
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges_;
};

// n 16-byte records: a u64 key below `keys` (ties), then the record's number.
inline std::string numbered_records(std::uint64_t n, std::uint64_t keys, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::string out;
  for (std::uint64_t i = 0; i < n; ++i) {
    char rec[16];
    const std::uint64_t key = rng() % keys;
    std::memcpy(rec, &key, 8);
    std::memcpy(rec + 8, &i, 8);
    out.append(rec, 16);
  }
  return out;
}

}  // namespace corank::test
