#include "corank/mpi/inputs.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"

namespace corank::mpi {

void Inputs::check_and_place() {
  begin.assign(1, 0);
  for (std::size_t i = 0; i < files(); ++i) {
    if (!positional_.regular(i))
      throw UsageError("'" + name(i) + "' is not a regular file: corank-mpi reads regular uncompressed files (each rank "
                       "reads its own byte range)");
    begin.push_back(begin.back() + positional_.file_size(i));
  }
}

Inputs::Inputs(const std::vector<std::string>& paths) : positional_(paths) { check_and_place(); }

Inputs::Inputs(const std::vector<std::string>& paths, const std::vector<std::uint64_t>& snapshot)
    : positional_(paths, snapshot) {
  check_and_place();
  for (std::size_t i = 0; i < files(); ++i)
    // Shorter: this rank cannot read its share as the others cut it. Longer
    // (appended to since): the snapshot's prefix is read, as on every rank.
    if (positional_.found_size(i) < snapshot[i])
      throw InputError(paths[i] + ": shorter (" + std::to_string(positional_.found_size(i)) +
                       " bytes) than when the sort started (" + std::to_string(snapshot[i]) + " bytes on rank 0)");
}

std::vector<std::uint64_t> Inputs::sizes() const {
  std::vector<std::uint64_t> s;
  for (std::size_t i = 0; i < files(); ++i) s.push_back(file_size(i));
  return s;
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
    in.read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
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
    in.read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    if (const std::size_t len = format.record_length(buf.data(), buf.data() + buf.size())) return buf.substr(0, len - 1);
    if (at + n == end) {
      format.check_unterminated(buf, in.name(f), line_of(in, at));
      return buf;
    }
  }
}

namespace {

// Whether the terminator at byte t (of the file that begins at file_begin)
// ends a line: unless `escapes`, always; else where the run of backslashes
// just before it is even. `before` is the byte at t - 1 where the caller has
// it (-1: not at hand), which settles the common case without a read.
bool ends_line(const Inputs& in, std::uint64_t t, std::uint64_t file_begin, bool escapes, int before) {
  if (!escapes || t == file_begin || (before >= 0 && before != '\\')) return true;
  std::uint64_t run = 0;
  char buf[256];
  for (std::uint64_t end = t; end > file_begin;) {
    const std::uint64_t from = end - std::min<std::uint64_t>(sizeof buf, end - file_begin);
    in.read(from, reinterpret_cast<std::byte*>(buf), static_cast<std::size_t>(end - from));
    std::size_t k = static_cast<std::size_t>(end - from);
    while (k > 0 && buf[k - 1] == '\\') --k, ++run;
    if (k > 0) break;
    end = from;
  }
  return run % 2 == 0;
}

int byte_before(const std::string& buf, std::size_t i) { return i > 0 ? static_cast<unsigned char>(buf[i - 1]) : -1; }

}  // namespace

std::uint64_t line_start_at_or_after(const Inputs& in, std::uint64_t x, char term, bool escapes) {
  if (x >= in.total()) return in.total();
  std::size_t f = 0;
  while (!(x < in.begin[f + 1])) ++f;  // skips empty files too
  if (x == in.begin[f]) return x;
  const std::uint64_t end = in.begin[f + 1];
  std::string buf;
  for (std::uint64_t at = x - 1; at < end;) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(64 * 1024, end - at)));
    in.read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    for (std::size_t i = 0; const void* p = std::memchr(buf.data() + i, term, buf.size() - i);) {
      const auto k = static_cast<std::size_t>(static_cast<const char*>(p) - buf.data());
      if (ends_line(in, at + k, in.begin[f], escapes, byte_before(buf, k))) return at + k + 1;
      i = k + 1;
    }
    at += buf.size();
  }
  return end;
}

std::uint64_t line_start_at_or_before(const Inputs& in, std::uint64_t x, char term, bool escapes) {
  std::size_t f = 0;
  while (!(x < in.begin[f + 1])) ++f;
  const std::uint64_t file_begin = in.begin[f];
  std::string buf;
  // Looks at [file_begin, x) backwards: a few hundred bytes first (most
  // lines are shorter; a sample per few hundred bytes of a small share must
  // not read 64 KiB each), then 64 KiB at a time.
  std::uint64_t step = 256;
  for (std::uint64_t end = x; end > file_begin; step = 64 * 1024) {
    const std::uint64_t from = end - std::min<std::uint64_t>(step, end - file_begin);
    buf.resize(static_cast<std::size_t>(end - from));
    in.read(from, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    for (std::size_t n = buf.size(); const void* p = ::memrchr(buf.data(), term, n);) {
      const auto k = static_cast<std::size_t>(static_cast<const char*>(p) - buf.data());
      if (ends_line(in, from + k, file_begin, escapes, byte_before(buf, k))) return from + k + 1;
      n = k;
    }
    end = from;
  }
  return file_begin;
}

std::string record_at(const Inputs& in, std::uint64_t at, std::uint32_t record_size, char term, bool escapes) {
  std::string rec;
  if (record_size) {
    rec.resize(record_size);
    in.read(at, reinterpret_cast<std::byte*>(rec.data()), record_size);
    return rec;
  }
  std::size_t f = 0;
  while (!(at < in.begin[f + 1])) ++f;
  const std::uint64_t end = in.begin[f + 1];
  std::string buf;
  for (std::uint64_t p = at; p < end;) {
    buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(4096, end - p)));
    in.read(p, reinterpret_cast<std::byte*>(buf.data()), buf.size());
    for (std::size_t i = 0; const void* t = std::memchr(buf.data() + i, term, buf.size() - i);) {
      const auto k = static_cast<std::size_t>(static_cast<const char*>(t) - buf.data());
      const int before = k > 0 ? static_cast<unsigned char>(buf[k - 1]) : rec.empty() ? -1 : static_cast<unsigned char>(rec.back());
      if (ends_line(in, p + k, in.begin[f], escapes, before)) {
        rec.append(buf.data(), k);
        return rec;
      }
      i = k + 1;
    }
    rec += buf;
    p += buf.size();
  }
  return rec;  // a file's last line, unterminated
}

}  // namespace corank::mpi
