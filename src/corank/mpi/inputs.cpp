#include "corank/mpi/inputs.hpp"

#include <algorithm>
#include <cstring>

namespace corank::mpi {

Inputs::Inputs(const std::vector<std::string>& paths) : data(std::make_unique<io::PositionalInput>(paths)) {
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < data->files(); ++i) begin.push_back(at), at += data->file_size(i);
  begin.push_back(at);
}

std::size_t Inputs::file_of(std::uint64_t x) const {
  return static_cast<std::size_t>(std::upper_bound(begin.begin(), begin.end(), x) - begin.begin()) - 1;
}

std::uint64_t line_of(const Inputs& in, std::uint64_t x) {
  const std::uint64_t from = in.begin[in.file_of(x)];
  std::uint64_t lines = 1;
  std::string buf;
  for (std::uint64_t at = from; at < x;) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(1 << 20, x - at)));
    in.data->read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    lines += static_cast<std::uint64_t>(std::count(buf.begin(), buf.end(), '\n'));
    at += buf.size();
  }
  return lines;
}

std::string csv_row_at(const Inputs& in, std::uint64_t at, const text::TextFormat& format) {
  const std::size_t f = in.file_of(at);
  const std::uint64_t end = in.begin[f + 1];
  std::string buf;
  for (std::uint64_t n = std::min<std::uint64_t>(4096, end - at);; n = std::min(2 * n, end - at)) {
    buf.resize(static_cast<std::size_t>(n));
    in.data->read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    if (const std::size_t len = format.record_length(buf.data(), buf.data() + buf.size())) return buf.substr(0, len - 1);
    if (at + n == end) {
      format.check_unterminated(buf, in.data->name(f), line_of(in, at));
      return buf;
    }
  }
}

std::uint64_t line_start_at_or_after(const Inputs& in, std::uint64_t x, char term) {
  if (x >= in.total()) return in.total();
  std::size_t f = 0;
  while (!(x < in.begin[f + 1])) ++f;  // skips empty files too
  if (x == in.begin[f]) return x;
  const std::uint64_t end = in.begin[f + 1];
  std::string buf;
  for (std::uint64_t at = x - 1; at < end;) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(64 * 1024, end - at)));
    in.data->read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    if (const void* p = std::memchr(buf.data(), term, buf.size()))
      return at + static_cast<std::uint64_t>(static_cast<const char*>(p) - buf.data()) + 1;
    at += buf.size();
  }
  return end;
}

std::uint64_t line_start_at_or_before(const Inputs& in, std::uint64_t x, char term) {
  std::size_t f = 0;
  while (!(x < in.begin[f + 1])) ++f;
  const std::uint64_t file_begin = in.begin[f];
  std::string buf;
  for (std::uint64_t end = x; end > file_begin;) {  // looks at [file_begin, x) backwards
    const std::uint64_t from = end - std::min<std::uint64_t>(64 * 1024, end - file_begin);
    buf.resize(static_cast<std::size_t>(end - from));
    in.data->read(from, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    if (const void* p = ::memrchr(buf.data(), term, buf.size()))
      return from + static_cast<std::uint64_t>(static_cast<const char*>(p) - buf.data()) + 1;
    end = from;
  }
  return file_begin;
}

std::string record_at(const Inputs& in, std::uint64_t at, std::uint32_t record_size, char term) {
  std::string rec;
  if (record_size) {
    rec.resize(record_size);
    in.data->read(at, reinterpret_cast<std::byte*>(rec.data()), record_size);
    return rec;
  }
  std::size_t f = 0;
  while (!(at < in.begin[f + 1])) ++f;
  const std::uint64_t end = in.begin[f + 1];
  std::string buf;
  for (std::uint64_t p = at; p < end;) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(4096, end - p)));
    in.data->read(p, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    if (const void* t = std::memchr(buf.data(), term, buf.size())) {
      rec.append(buf.data(), static_cast<std::size_t>(static_cast<const char*>(t) - buf.data()));
      return rec;
    }
    rec += buf;
    p += buf.size();
  }
  return rec;  // a file's last line, unterminated
}

}  // namespace corank::mpi
