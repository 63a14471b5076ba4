#include "corank/mpi/share_cut.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "corank/mpi/agreement.hpp"
#include "corank/mpi/partition.hpp"

namespace corank::mpi {

Share fixed_share(const Inputs& in, unsigned rank, unsigned ranks, std::uint32_t record_size) {
  return {share_begin(in.total(), rank, ranks, record_size), share_begin(in.total(), rank + 1, ranks, record_size)};
}

Share line_share(const Inputs& in, unsigned rank, unsigned ranks, char term, bool escapes) {
  return {line_start_at_or_after(in, share_begin(in.total(), rank, ranks, 1), term, escapes),
          line_start_at_or_after(in, share_begin(in.total(), rank + 1, ranks, 1), term, escapes)};
}

CsvScanner::Map csv_range_map(const Inputs& in, unsigned rank, unsigned ranks, char delimiter) {
  const CsvScanner scanner(delimiter);
  const std::uint64_t b = share_begin(in.total(), rank, ranks, 1), e = share_begin(in.total(), rank + 1, ranks, 1);
  CsvScanner::Map map = CsvScanner::identity();
  std::string buf;
  for (std::size_t f = 0; f < in.files(); ++f) {
    const std::uint64_t s = std::max(b, in.begin[f]), t = std::min(e, in.begin[f + 1]);
    if (s >= t) continue;
    if (s == in.begin[f]) map = CsvScanner::reset();  // a file starts with a row
    for (std::uint64_t at = s; at < t;) {
      buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{4} << 20, t - at)));
      in.read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
      scanner.scan(map, buf.data(), buf.size());
      at += buf.size();
    }
  }
  return map;
}

Share csv_share(const Inputs& in, const std::vector<CsvScanner::Map>& maps, unsigned rank, char delimiter) {
  const CsvScanner scanner(delimiter);
  const unsigned n = static_cast<unsigned>(maps.size());
  const std::uint64_t total = in.total();
  auto nominal = [&](unsigned r) { return share_begin(total, r, n, 1); };
  auto file_start = [&](std::uint64_t x) { return x < total && std::binary_search(in.begin.begin(), in.begin.end(), x); };
  // The row boundary at or after x, where the state is `state`.
  auto boundary = [&](std::uint64_t x, std::uint8_t state) {
    if (x >= total || state == CsvScanner::RowStart) return std::min(x, total);
    const std::uint64_t end = in.begin[in.file_of(x) + 1];
    std::string buf;
    for (std::uint64_t at = x; at < end;) {
      buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(64 * 1024, end - at)));
      in.read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
      const std::size_t k = scanner.row_end(state, buf.data(), buf.size());
      if (k < buf.size() || state == CsvScanner::RowStart) return at + k;
      at += buf.size();
    }
    return end;  // the file's unterminated last row
  };
  Share share;
  std::uint8_t state = CsvScanner::RowStart;  // at nominal(r)
  for (unsigned r = 0;; ++r) {
    if (r == rank) share.begin = boundary(nominal(r), state);
    if (r == rank + 1) {
      share.end = boundary(nominal(r), state);
      break;
    }
    state = file_start(nominal(r + 1)) ? std::uint8_t{CsvScanner::RowStart} : maps[r][state];
  }
  return share;
}

Share cut_csv_share(Communicator& c, const Inputs& in, char delimiter) {
  const unsigned rank = static_cast<unsigned>(c.rank());
  CsvScanner::Map map = CsvScanner::identity();
  phase(c, [&] { map = csv_range_map(in, rank, c.ranks(), delimiter); });
  const std::string all = gather_all(c, std::string(reinterpret_cast<const char*>(map.data()), map.size()));
  std::vector<CsvScanner::Map> maps(c.ranks());
  for (unsigned r = 0; r < c.ranks(); ++r) std::memcpy(maps[r].data(), all.data() + r * map.size(), map.size());
  Share share;
  phase(c, [&] { share = csv_share(in, maps, rank, delimiter); });
  return share;
}

}  // namespace corank::mpi
