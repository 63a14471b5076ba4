#include "corank/prepared_keys.hpp"

#include "corank/key_words_only.hpp"
#include "corank/parallel.hpp"

namespace corank {

std::unique_ptr<PreparedKeys> PreparedKeys::make(const SortOptions& options, const std::byte* records,
                                                 std::uint64_t capacity) {
  const RecordFormat format = in_sort_order(options.format, options.reverse);
  if (sorts_as_key_words(format)) return nullptr;
  std::unique_ptr<PreparedKeys> keys;
  dispatch_key_words(format.key_words(), [&](auto words) {
    keys = std::make_unique<PreparedKeysOf<decltype(words)::value>>(format, records, capacity);
  });
  return keys;
}

void PreparedKeys::fill(std::uint64_t first, std::uint64_t n, unsigned threads) {
  const unsigned t = threads_for(n, threads);
  parallel_for(t, [&](unsigned i) { make(first + n * i / t, n * (i + 1) / t - n * i / t); });
  filled(first, n);
}

}  // namespace corank
