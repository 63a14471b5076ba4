#include "corank/mpi/boundary_check.hpp"

#include <fcntl.h>

#include <vector>

#include "corank/errors.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/mpi/agreement.hpp"
#include "corank/mpi/share_reader.hpp"

namespace corank::mpi {

std::pair<std::string, std::string> piece_ends(const std::string& path, std::uint64_t begin, std::uint64_t end_at,
                                               std::uint32_t record_size, char term) {
  if (end_at == begin) return {};
  io::FileDesc fd = io::FileDesc::open(path, O_RDONLY);
  auto read_at = [&](std::uint64_t off, std::size_t n) {
    std::string s(n, '\0');
    io::pread_full(fd.get(), s.data(), n, off, path);
    return s;
  };
  if (record_size) return {read_at(begin, record_size), read_at(end_at - record_size, record_size)};
  std::string first;
  for (std::uint64_t at = begin; at < end_at;) {
    std::string b = read_at(at, static_cast<std::size_t>(std::min<std::uint64_t>(4096, end_at - at)));
    const auto t = b.find(term);
    first += b.substr(0, t);
    if (t != std::string::npos) break;
    at += b.size();
  }
  // The last line ends at end_at - 1 (its terminator); it starts after the one before.
  std::string last;
  std::uint64_t end = end_at - 1;
  while (end > begin) {
    const std::uint64_t from = end - begin >= 4096 ? end - 4096 : begin;
    std::string b = read_at(from, static_cast<std::size_t>(end - from));
    const auto t = b.rfind(term);
    if (t != std::string::npos) {
      last = b.substr(t + 1) + last;
      break;
    }
    last = b + last;
    end = from;
  }
  return {first, last};
}

std::pair<std::string, std::string> row_piece_ends(const std::string& path, std::uint64_t from, std::uint64_t end,
                                                   const text::TextFormat& format) {
  Inputs in({path});
  std::pair<std::string, std::string> ends;
  TextReading reading;
  reading.format = &format;
  reading.rows_by_format = true;
  ShareReader reader(in, from, end, 0, '\n', std::uint64_t{16} << 20, reading);
  std::vector<ShareRecord> records;
  bool first = true;
  while (reader.next(records)) {
    if (records.empty()) continue;
    if (first) ends.first.assign(records.front().data, records.front().size), first = false;
    ends.second.assign(records.back().data, records.back().size);
  }
  return ends;
}

void verify_boundaries(Communicator& c, const Job& job, const SortedPiece& piece, std::uint64_t read_bytes,
                       std::uint64_t output_bytes) {
  if (!job.verify) return;
  std::string mine;
  phase(c, [&] {
    const bool has = piece.end > piece.begin;
    auto [first, last] = !has    ? std::pair<std::string, std::string>()
                         : job.rows_by_format() ? row_piece_ends(piece.file, piece.begin, piece.end, *job.text_format)
                                   : piece_ends(piece.file, piece.begin, piece.end, job.record_size, job.term);
    put_u64(mine, has ? 1 : 0);
    put_u64(mine, first.size());
    mine += first;
    put_u64(mine, last.size());
    mine += last;
  });
  const std::uint64_t in_total = c.sum(read_bytes);
  const std::string all = gather_all(c, mine);
  phase(c, [&] {
    if (c.rank() != 0) return;
    if (!job.local.unique && in_total + job.header.size() != output_bytes)
      throw InputError("verification failed: " + std::to_string(in_total) + " bytes read, " +
                       std::to_string(output_bytes) + " written");
    std::string prev;
    bool have_prev = false;
    unsigned r = 0;
    for (const char *p = all.data(), *end = all.data() + all.size(); p < end; ++r) {
      const bool has = get_u64(p) != 0;
      std::uint64_t len = get_u64(p);
      std::string first(p, static_cast<std::size_t>(len));
      p += len;
      len = get_u64(p);
      std::string last(p, static_cast<std::size_t>(len));
      p += len;
      if (!has) continue;
      if (have_prev) {
        const int cmp = job.order->compare(prev, first);
        if (cmp > 0 || (job.local.unique && cmp == 0))
          throw InputError("verification failed: rank " + std::to_string(r) + "'s first record is out of order");
      }
      prev = last, have_prev = true;
    }
  });
}

}  // namespace corank::mpi
