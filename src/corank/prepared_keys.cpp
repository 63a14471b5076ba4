#include "corank/prepared_keys.hpp"

#include "corank/key_words_only.hpp"

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

}  // namespace corank
