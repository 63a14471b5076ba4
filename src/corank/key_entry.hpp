#pragma once
// The unit the sorter sorts: a record's normalized key words and its position.
// The position is unique within whatever is being sorted or merged, and it is
// the last tie-breaker, so (key, pos) is a strict total order and every sort
// and merge built on it is stable by construction.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace corank {

template <unsigned W>
struct KeyEntry {
  static constexpr unsigned kWords = W;
  std::uint64_t key[W];
  std::uint64_t pos;

  // Key order alone (ties are equal keys).
  friend bool key_less(const KeyEntry& a, const KeyEntry& b) noexcept {
    for (unsigned i = 0; i < W; ++i)
      if (a.key[i] != b.key[i]) return a.key[i] < b.key[i];
    return false;
  }
  friend bool key_equal(const KeyEntry& a, const KeyEntry& b) noexcept {
    for (unsigned i = 0; i < W; ++i)
      if (a.key[i] != b.key[i]) return false;
    return true;
  }
  // Total order: key, then position.
  friend bool operator<(const KeyEntry& a, const KeyEntry& b) noexcept {
    for (unsigned i = 0; i < W; ++i)
      if (a.key[i] != b.key[i]) return a.key[i] < b.key[i];
    return a.pos < b.pos;
  }
};

inline constexpr unsigned kMaxKeyWords = 8;

// Calls f(std::integral_constant<unsigned, W>{}) for the runtime word count,
// so the hot loops are compiled for each key width.
template <class F>
decltype(auto) dispatch_key_words(unsigned words, F&& f) {
  switch (words) {
    case 1: return f(std::integral_constant<unsigned, 1>{});
    case 2: return f(std::integral_constant<unsigned, 2>{});
    case 3: return f(std::integral_constant<unsigned, 3>{});
    case 4: return f(std::integral_constant<unsigned, 4>{});
    case 5: return f(std::integral_constant<unsigned, 5>{});
    case 6: return f(std::integral_constant<unsigned, 6>{});
    case 7: return f(std::integral_constant<unsigned, 7>{});
    case 8: return f(std::integral_constant<unsigned, 8>{});
    default: throw std::invalid_argument("unsupported key width: " + std::to_string(words) + " words");
  }
}

}  // namespace corank
