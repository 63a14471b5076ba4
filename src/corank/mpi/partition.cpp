#include "corank/mpi/partition.hpp"

#include <algorithm>

namespace corank::mpi {

int BinaryOrder::compare(std::string_view a, std::string_view b) const {
  const int c = keys_.compare(reinterpret_cast<const std::byte*>(a.data()), reinterpret_cast<const std::byte*>(b.data()));
  return reverse_ ? -c : c;
}

bool Partitioner::precedes(std::string_view record, std::uint64_t position, const Sample& s) const {
  const int c = order_.compare(record, s.record);
  if (c != 0) return c < 0;
  return by_position_ && position < s.position;
}

void Partitioner::choose_splitters(std::vector<Sample> samples, unsigned parts) {
  splitters_.clear();
  if (samples.empty() || parts < 2) return;
  std::sort(samples.begin(), samples.end(), [this](const Sample& a, const Sample& b) {
    const int c = order_.compare(a.record, b.record);
    return c != 0 ? c < 0 : a.position < b.position;
  });
  // Cut i lies at weight total*i/parts: where that sample would be were each
  // sample repeated as often as its weight says.
  std::uint64_t total = 0;
  for (auto& s : samples) total += s.weight = std::max<std::uint64_t>(s.weight, 1);
  std::size_t j = 0;
  std::uint64_t before = 0;  // the weight of samples[0, j)
  for (unsigned i = 1; i < parts; ++i) {
    const auto cut = static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * i / parts);
    while (before + samples[j].weight <= cut) before += samples[j++].weight;
    splitters_.push_back(samples[j]);
  }
}

unsigned Partitioner::part_of(std::string_view record, std::uint64_t position) const {
  // The first splitter the record precedes; splitters are in order.
  auto it = std::partition_point(splitters_.begin(), splitters_.end(),
                                 [&](const Sample& s) { return !precedes(record, position, s); });
  return static_cast<unsigned>(it - splitters_.begin());
}

std::vector<std::uint64_t> regular_sample(std::uint64_t count, std::uint64_t want) {
  std::vector<std::uint64_t> at;
  if (count == 0 || want == 0) return at;
  const std::uint64_t k = std::min(count, want);
  at.reserve(k);
  // The middle of each of k equal strides: no bias towards a share's start.
  for (std::uint64_t i = 0; i < k; ++i)
    at.push_back(static_cast<std::uint64_t>((static_cast<unsigned __int128>(2 * i + 1) * count) / (2 * k)));
  return at;
}

std::uint64_t share_begin(std::uint64_t total, unsigned rank, unsigned ranks, std::uint64_t unit) {
  const std::uint64_t units = total / unit;
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(units) * rank / ranks) * unit;
}

double partition_skew(const std::vector<std::uint64_t>& sizes) {
  if (sizes.empty()) return 1.0;
  std::uint64_t sum = 0, largest = 0;
  for (auto s : sizes) sum += s, largest = std::max(largest, s);
  if (sum == 0) return 1.0;
  return static_cast<double>(largest) * static_cast<double>(sizes.size()) / static_cast<double>(sum);
}

}  // namespace corank::mpi
