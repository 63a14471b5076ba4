#pragma once
// --check: is the input already sorted? (GNU sort -c / -C.)
#include <cstdint>
#include <string>

#include "corank/format.hpp"
#include "corank/io/options.hpp"

namespace corank {

struct CheckResult {
  bool sorted = true;
  std::uint64_t first_disorder = 0;  // index of the first record smaller than its predecessor
  std::uint64_t records = 0;
};

// Under `unique`, equal neighbours count as disorder too (GNU sort -c -u).
CheckResult check_sorted(const std::string& path, const RecordFormat& format, bool reverse, bool unique,
                         const io::IoOptions& io);

}  // namespace corank
