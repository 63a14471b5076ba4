#include "corank/mpi/part_finder.hpp"

#include <array>

namespace corank::mpi {

PartFinder::PartFinder(const BinaryOrder& order, const Partitioner& partitioner)
    : keys_(order.keys()), reverse_(order.reverse()), by_position_(partitioner.by_position()),
      words_(order.keys().words()) {
  for (const Sample& s : partitioner.splitters()) {
    splitter_words_.resize(splitter_words_.size() + words_);
    keys_.normalize(reinterpret_cast<const std::byte*>(s.record.data()), splitter_words_.data() + splitter_words_.size() - words_);
    positions_.push_back(s.position);
  }
}

bool PartFinder::precedes(const std::uint64_t* key, std::uint64_t position, std::size_t s) const noexcept {
  const std::uint64_t* split = splitter_words_.data() + s * words_;
  for (std::uint32_t w = 0; w < words_; ++w)
    if (key[w] != split[w]) return (key[w] < split[w]) != reverse_;
  return by_position_ && position < positions_[s];
}

unsigned PartFinder::part_of(const std::byte* record, std::uint64_t position) const noexcept {
  std::array<std::uint64_t, 8> key;  // KeyNormalizer: at most 64 bytes of keys
  keys_.normalize(record, key.data());
  // The first splitter the record precedes; they are in order.
  std::size_t lo = 0, hi = positions_.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (precedes(key.data(), position, mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return static_cast<unsigned>(lo);
}

}  // namespace corank::mpi
