#include "corank/check.hpp"

#include <cstring>
#include <memory>

#include "corank/normalize.hpp"
#include "corank/record_input.hpp"

namespace corank {

CheckResult check_sorted(const std::string& path, const RecordFormat& format_in, bool reverse, bool unique,
                         const io::IoOptions& io) {
  const RecordFormat format = in_sort_order(format_in, reverse);
  const KeyNormalizer norm(format);
  const std::uint32_t R = format.record_size;
  RecordInput in({path}, R, io);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, (std::uint64_t{4} << 20) / R);
  // Slot 0 holds the last record of the previous chunk.
  auto buf = std::make_unique<std::byte[]>((chunk + 1) * R);
  CheckResult result;
  for (;;) {
    const std::uint64_t got = in.read(buf.get() + R, chunk);
    if (got == 0) break;
    for (std::uint64_t j = result.records == 0 ? 1 : 0; j < got; ++j) {
      int c = norm.compare(buf.get() + j * R, buf.get() + (j + 1) * R);
      if (c > 0 || (c == 0 && unique)) {
        result.sorted = false;
        result.first_disorder = result.records + j;
        return result;
      }
    }
    std::memcpy(buf.get(), buf.get() + got * R, R);
    result.records += got;
  }
  return result;
}

}  // namespace corank
