#include "generator.hpp"

#include <algorithm>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "gensort_keys.hpp"
#include "gensort_record.hpp"
#include "typed_values.hpp"

namespace corank::tools {

namespace {

constexpr std::uint64_t kBlockBytes = std::uint64_t{1} << 20;

}  // namespace

Generator::Generator(const GenSpec& spec)
    : spec_(spec), record_size_(corank::tools::record_size(spec.format)), material_(spec) {}

void Generator::fill(std::uint64_t first, std::uint64_t count, std::uint8_t* out) const noexcept {
  // nearly-sorted: each record takes the sorted key of a rank near its number.
  const bool near = spec_.dist == GenDist::NearlySorted;
  const GenDist dist = near ? GenDist::Sorted : spec_.dist;
  const auto rank = [&](std::uint64_t n) { return near ? nearly_sorted_rank(spec_, n) : n; };
  switch (spec_.format) {
    case GenFormat::Gensort:
      for (std::uint64_t i = 0; i < count; ++i, out += kGensortRecordSize) {
        std::uint8_t key[kGensortKeySize];
        gensort_binary_key(material_, dist, rank(first + i), key);
        write_gensort_binary(out, key, first + i, material_.side_bits(first + i));
      }
      break;
    case GenFormat::GensortAscii:
      for (std::uint64_t i = 0; i < count; ++i, out += kGensortRecordSize) {
        std::uint8_t key[kGensortKeySize];
        gensort_ascii_key(material_, dist, rank(first + i), key);
        write_gensort_ascii(out, key, first + i, material_.side_bits(first + i));
      }
      break;
    default:
      fill_typed_values(material_, spec_, first, count, out);
      break;
  }
}

void write_records(const GenSpec& spec, int fd, const std::string& path) {
  const Generator gen(spec);
  const std::uint64_t per_block = std::max<std::uint64_t>(1, kBlockBytes / gen.record_size());
  std::vector<std::uint8_t> block(per_block * gen.record_size());
  for (std::uint64_t done = 0; done < spec.count;) {
    const std::uint64_t n = std::min(per_block, spec.count - done);
    gen.fill(spec.start + done, n, block.data());
    corank::io::write_full(fd, block.data(), n * gen.record_size(), path);
    done += n;
  }
}

}  // namespace corank::tools
