#include "corank/text/record_starts.hpp"

#include <cstring>
#include <string_view>

#include "corank/parallel.hpp"

namespace corank::text {

std::vector<std::uint64_t> record_starts(const char* base, std::uint64_t from, std::uint64_t end,
                                         const TextFormat& format, unsigned threads) {
  const char eol = format.terminator();
  const unsigned parts = threads < 1 ? 1 : threads;
  std::vector<std::vector<std::uint64_t>> found(parts);
  // Part p tests the lines that begin in its bytes [lo, hi): those after a
  // terminator at lo - 1 or later (the first line of the piece is a record's
  // first whatever it holds, and is not tested).
  parallel_for(parts, [&](unsigned p) {
    const std::uint64_t lo = from + (end - from) * p / parts, hi = from + (end - from) * (p + 1) / parts;
    const void* t = std::memchr(base + lo, eol, static_cast<std::size_t>(end - lo));
    std::uint64_t line = t ? static_cast<std::uint64_t>(static_cast<const char*>(t) - base) + 1 : end;
    if (p > 0 && lo > from && base[lo - 1] == eol) line = lo;
    auto& out = found[p];
    while (line < hi) {
      const void* next = std::memchr(base + line, eol, static_cast<std::size_t>(end - line));
      if (next == nullptr) break;  // not whole yet
      const auto stop = static_cast<std::uint64_t>(static_cast<const char*>(next) - base);
      if (format.starts_record(std::string_view(base + line, static_cast<std::size_t>(stop - line))))
        out.push_back(line);
      line = stop + 1;
    }
  });
  std::vector<std::uint64_t> starts;
  for (const auto& f : found) starts.insert(starts.end(), f.begin(), f.end());
  return starts;
}

}  // namespace corank::text
