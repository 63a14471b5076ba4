#include "corank/verify_output.hpp"

#include <algorithm>
#include <cstring>

#include "corank/io/huge_vector.hpp"
#include "corank/errors.hpp"

namespace corank {

void verify_output(io::ByteSource& written, const SortOptions& options, const RecordFormat& format,
                   const KeyNormalizer& norm, const RecordChecksum& input, std::uint64_t records_out,
                   unsigned threads) {
  const std::uint32_t R = format.record_size;
  const std::uint64_t chunk = std::max<std::uint64_t>(1, (std::uint64_t{16} << 20) / R);
  io::HugeVector<std::byte> buf((chunk + 1) * R);  // slot 0 keeps the previous chunk's last record
  RecordChecksum sum;
  std::uint64_t index = 0;
  for (;;) {
    const std::size_t bytes = written.read(buf.data() + R, static_cast<std::size_t>(chunk * R));
    if (bytes % R != 0) throw InputError("verification failed: the output ends inside a record");
    const std::uint64_t got = bytes / R;
    if (got == 0) break;
    sum += checksum_records(buf.data() + R, got, R, threads);
    for (std::uint64_t j = index == 0 ? 1 : 0; j < got; ++j) {
      const int c = norm.compare(buf.data() + j * R, buf.data() + (j + 1) * R);
      if (c > 0 || (c == 0 && options.unique))
        throw InputError("verification failed: output record " + std::to_string(index + j) + " is out of order");
    }
    std::memcpy(buf.data(), buf.data() + got * R, R);
    index += got;
  }
  if (!options.unique && !(sum == input))
    throw InputError("verification failed: the output's " + std::to_string(sum.records) +
                     " records do not match the input's " + std::to_string(input.records) + " (checksum differs)");
  if (options.unique && sum.records != records_out)
    throw InputError("verification failed: output holds " + std::to_string(sum.records) + " records, expected " +
                     std::to_string(records_out));
}

}  // namespace corank
