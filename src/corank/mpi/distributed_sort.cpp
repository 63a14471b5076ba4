#include "corank/mpi/distributed_sort.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "corank/errors.hpp"
#include "corank/io/diagnostics.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/positional_input.hpp"
#include "corank/mpi/partition.hpp"
#include "corank/mpi/received_pieces.hpp"
#include "corank/parallel.hpp"
#include "corank/text_format_of.hpp"
#include "corank/version.hpp"

namespace corank::mpi {

namespace {

// Samples each rank contributes: about this many per part on average, so a
// part's size is off by ~1/sqrt(16384) < 1% (one standard deviation).
constexpr std::uint64_t kSamplesPerRank = 16384;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kMaxRoundBytes = std::uint64_t{1} << 30;  // Alltoallv's int counts and displacements
constexpr std::uint64_t kChunkBytes = 64 * kMiB;   // input read and binned at once
constexpr std::uint64_t kRoundBytes = 128 * kMiB;  // received by a rank in one Alltoallv round
static_assert(kRoundBytes <= kMaxRoundBytes);

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Another rank (or this one) failed; the message is the failing rank's.
struct RankFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Comm {
  MPI_Comm comm;
  int rank = 0, size = 1;
  explicit Comm(MPI_Comm c) : comm(c) {
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
  }
  unsigned ranks() const { return static_cast<unsigned>(size); }
};

// The phase boundary: every rank learns whether one failed, and if one did,
// every rank throws RankFailed with the message of the lowest failing rank.
void agree(const Comm& c, const std::string& local_error) {
  const int mine = local_error.empty() ? 0 : c.size - c.rank;
  int worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, c.comm);
  if (worst == 0) return;
  const int root = c.size - worst;
  std::string msg = c.rank == root ? local_error : std::string();
  int len = static_cast<int>(msg.size());
  MPI_Bcast(&len, 1, MPI_INT, root, c.comm);
  msg.resize(static_cast<std::size_t>(len));
  MPI_Bcast(msg.data(), len, MPI_CHAR, root, c.comm);
  throw RankFailed(root == 0 ? msg : "rank " + std::to_string(root) + ": " + msg);
}

std::string what_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "memory exhausted (try a smaller -S)";
  } catch (const std::exception& x) {
    return x.what()[0] ? x.what() : "unknown error";
  }
}

// Runs this rank's part of a phase, then agrees with the others.
template <class F>
void phase(const Comm& c, F&& work) {
  std::string err;
  try {
    work();
  } catch (...) {
    err = what_of(std::current_exception());
  }
  agree(c, err);
}

// A rank's private directory of received and sorted data; removed with
// everything in it on every exit path.
class ScratchDir {
public:
  explicit ScratchDir(const std::vector<std::string>& temp_dirs) {
    std::string root = !temp_dirs.empty() ? temp_dirs[0] : "";
    if (root.empty())
      if (const char* t = std::getenv("TMPDIR"); t && *t) root = t;
    if (root.empty()) root = "/tmp";
    std::string templ = root + "/corank-mpi-XXXXXX";
    if (!::mkdtemp(templ.data())) throw io::IoError("cannot create temporary directory", templ, errno);
    path_ = templ;
  }
  ~ScratchDir() {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(path_.c_str());
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

private:
  std::string path_;
  std::vector<std::string> files_;
};

// A file that is removed unless committed (the shared output's temporary,
// a part file before its rename).
struct RemoveUnlessKept {
  std::string path;
  bool keep = false;
  ~RemoveUnlessKept() {
    if (!path.empty() && !keep) ::unlink(path.c_str());
  }
};

std::string dir_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}
std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string part_name(const std::string& out, unsigned rank) {
  char n[16];
  std::snprintf(n, sizeof n, "%05u", rank);
  return out + ".part-" + n;
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw io::IoError("stat failed", path, errno);
  return static_cast<std::uint64_t>(st.st_size);
}

// The inputs as one byte range, with each file's start in it.
struct Inputs {
  std::unique_ptr<io::PositionalInput> data;
  std::vector<std::uint64_t> begin;  // per file, plus the total at the end

  explicit Inputs(const std::vector<std::string>& paths) : data(std::make_unique<io::PositionalInput>(paths)) {
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < data->files(); ++i) begin.push_back(at), at += data->file_size(i);
    begin.push_back(at);
  }
  std::uint64_t total() const { return begin.back(); }
  // The file that holds byte x < total (never an empty one).
  std::size_t file_of(std::uint64_t x) const {
    return static_cast<std::size_t>(std::upper_bound(begin.begin(), begin.end(), x) - begin.begin()) - 1;
  }
};

// The 1-based line of byte x in its file, as the single-process reader numbers
// lines in its messages (every newline counts, quoted ones too). Only for
// messages: it reads the file up to x.
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

// The CSV row that starts at `at` (a row start), without its newline; a
// file's unterminated last row is checked as the single-process reader checks it.
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

// The first line start at or after byte x: x itself at a file's start, else
// just past the next terminator in x's file (or the file's end).
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

// The start of the line that holds byte x (x < total): sampling the line at
// each of regular byte offsets weighs a line by its length, so the parts come
// out even in bytes.
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

// The record that starts at `at` (a record start), without a text terminator.
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
      rec.append(buf.data(), static_cast<const char*>(t) - buf.data());
      return rec;
    }
    rec += buf;
    p += buf.size();
  }
  return rec;  // a file's last line, unterminated
}

// How a share's text records are read.
struct TextReading {
  const text::TextFormat* format = nullptr;
  bool csv = false;           // rows end where the format says (a quoted field may hold newlines)
  bool skip_headers = false;  // every file's first record is its header, no record to sort
  bool check = false;         // records pass the format's checks as the single-process reader's do
};

// Reads a rank's share [begin, end) chunk by chunk and hands each record to a
// callback with its position. Text chunks end at a record's end; a record
// longer than a chunk grows the chunk. A chunk is read by `threads` threads,
// each a slice of it: one thread's reads fall far short of memory and fast
// storage.
class ShareReader {
public:
  ShareReader(const Inputs& in, std::uint64_t begin, std::uint64_t end, std::uint32_t record_size, char term,
              std::uint64_t chunk, TextReading text = {}, unsigned threads = 1)
      : in_(in), record_size_(record_size), term_(term), text_(text), threads_(std::max(threads, 1u)) {
    chunk_ = record_size ? std::max<std::uint64_t>(chunk / record_size, 1) * record_size : std::max<std::uint64_t>(chunk, 1);
    // Text records never span files, so the share is read file by file.
    for (std::size_t f = 0; f + 1 < in.begin.size(); ++f) {
      const std::uint64_t s = std::max(begin, in.begin[f]), e = std::min(end, in.begin[f + 1]);
      if (s < e) segments_.push_back({s, e});
    }
    if (record_size && begin < end) segments_ = {{begin, end}};
    if (!segments_.empty()) start_segment();
  }

  // f(record, position) for every record of the next chunk; false at the end.
  template <class F>
  bool next(F&& f) {
    if (segment_ >= segments_.size()) return false;
    const std::uint64_t e = segments_[segment_].second;
    std::uint64_t n = std::min(chunk_, e - cursor_);
    std::size_t cut = 0;
    for (;;) {
      buf_.resize(static_cast<std::size_t>(n));
      read(cursor_, buf_.data(), buf_.size());
      const bool at_end = cursor_ + n == e;
      if (text_.csv) {
        // Whole rows; at the segment's end (a file's end or the share's, a
        // row boundary) the rest is the file's unterminated last row.
        ends_.clear();
        for (std::size_t i = 0; i < buf_.size();) {
          const std::size_t len = text_.format->record_length(buf_.data() + i, buf_.data() + buf_.size());
          if (len == 0) break;
          ends_.push_back(i += len);
        }
        cut = at_end ? buf_.size() : ends_.empty() ? 0 : ends_.back();
        if (cut) break;
      } else if (record_size_ || at_end) {
        cut = buf_.size();
        break;
      } else if (const void* p = ::memrchr(buf_.data(), term_, buf_.size())) {
        cut = static_cast<std::size_t>(static_cast<const char*>(p) - buf_.data()) + 1;
        break;
      }
      n = std::min(2 * n, e - cursor_);
    }
    const char* b = buf_.data();
    if (record_size_) {
      for (std::size_t i = 0; i < cut; i += record_size_) f(std::string_view(b + i, record_size_), cursor_ + i);
    } else if (text_.csv) {
      std::size_t i = 0;
      for (std::size_t end : ends_) {
        text_record(f, std::string_view(b + i, end - i - 1), i);
        i = end;
      }
      if (i < cut) {
        const std::string_view tail(b + i, cut - i);
        if (text_.check) checked(cursor_ + i, [&](std::uint64_t line) {
          text_.format->check_unterminated(tail, in_.data->name(in_.file_of(cursor_ + i)), line);
        });
        text_record(f, tail, i);
      }
    } else {
      for (std::size_t i = 0; i < cut;) {
        const void* t = std::memchr(b + i, term_, cut - i);
        const std::size_t len = t ? static_cast<std::size_t>(static_cast<const char*>(t) - (b + i)) : cut - i;
        text_record(f, std::string_view(b + i, len), i);
        i += len + 1;
      }
    }
    cursor_ += cut;
    if (cursor_ == e && ++segment_ < segments_.size()) start_segment();
    return true;
  }

  // Fixed-size records: f(data, bytes, position) once for the next chunk,
  // whole records; false at the end.
  template <class F>
  bool next_block(F&& f) {
    if (segment_ >= segments_.size()) return false;
    const std::uint64_t e = segments_[segment_].second;
    const std::uint64_t n = std::min(chunk_, e - cursor_);
    buf_.resize(static_cast<std::size_t>(n));
    read(cursor_, buf_.data(), buf_.size());
    f(static_cast<const char*>(buf_.data()), n, cursor_);
    cursor_ += n;
    if (cursor_ == e && ++segment_ < segments_.size()) start_segment();
    return true;
  }

private:
  // Bytes [at, at + n) of the inputs, in slices of at least 4 MiB, a thread each.
  void read(std::uint64_t at, char* dst, std::size_t n) const {
    const unsigned slices = static_cast<unsigned>(std::clamp<std::uint64_t>(n / (4 * kMiB), 1, threads_));
    parallel_for(slices, [&](unsigned i) {
      const std::size_t b = n * i / slices, e = n * (i + 1) / slices;
      in_.data->read(at + b, reinterpret_cast<std::byte*>(dst + b), e - b);
    });
  }

  void start_segment() {
    cursor_ = segments_[segment_].first;
    skip_next_ = text_.skip_headers && cursor_ == in_.begin[in_.file_of(cursor_)];
  }

  // Runs check(line) with no line number first: the number costs a read of
  // the file up to the record, paid only when there is a message to give.
  template <class Check>
  void checked(std::uint64_t pos, Check&& check) {
    try {
      check(0);
    } catch (const InputError&) {
      check(line_of(in_, pos));
      throw;
    }
  }

  // A text record at offset i of the chunk: a file's header is dropped, the
  // rest checked (when asked) and handed on.
  template <class F>
  void text_record(F& f, std::string_view rec, std::size_t i) {
    if (skip_next_) {
      skip_next_ = false;
      return;
    }
    if (text_.check && text_.format->checks_records())
      checked(cursor_ + i, [&](std::uint64_t line) {
        text_.format->check_record(rec, in_.data->name(in_.file_of(cursor_ + i)), line);
      });
    f(rec, cursor_ + i);
  }

  const Inputs& in_;
  std::uint32_t record_size_;
  char term_;
  TextReading text_;
  unsigned threads_;
  bool skip_next_ = false;
  std::vector<std::size_t> ends_;
  std::uint64_t chunk_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> segments_;
  std::size_t segment_ = 0;
  std::uint64_t cursor_ = 0;
  std::string buf_;
};

void put_u64(std::string& s, std::uint64_t v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
std::uint64_t get_u64(const char*& p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

// Every rank's bytes, concatenated in rank order, on every rank.
std::string allgather_bytes(const Comm& c, const std::string& mine, std::vector<int>* sizes_out = nullptr) {
  const std::uint64_t n = mine.size();
  std::vector<std::uint64_t> sizes(c.ranks());
  MPI_Allgather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, c.comm);
  std::uint64_t total = 0;
  for (auto s : sizes) total += s;
  if (total >= kMaxRoundBytes * 2) throw InputError("the gathered samples exceed 2 GiB (records too long)");
  std::vector<int> counts(c.ranks()), displs(c.ranks());
  for (unsigned r = 0, at = 0; r < c.ranks(); ++r) {
    counts[r] = static_cast<int>(sizes[r]);
    displs[r] = static_cast<int>(at);
    at += static_cast<unsigned>(sizes[r]);
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), counts[c.rank], MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, c.comm);
  if (sizes_out) *sizes_out = counts;
  return all;
}

// One record's bytes from each end of a sorted piece, bytes [begin, end) of
// its file (without a text terminator); "" for an empty piece.
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

// The first and last CSV rows of a sorted piece, bytes [from, end) of its file
// (past its header); "" when it has none. Reads the whole piece: rows are
// found from the start.
std::pair<std::string, std::string> csv_piece_ends(const std::string& path, std::uint64_t from, std::uint64_t end,
                                                   const text::TextFormat& format) {
  Inputs in({path});
  std::pair<std::string, std::string> ends;
  bool first = true;
  TextReading reading;
  reading.format = &format;
  reading.csv = true;
  ShareReader reader(in, from, end, 0, '\n', 16 * kMiB, reading);
  std::string_view last;
  while (reader.next([&](std::string_view rec, std::uint64_t) {
    if (first) ends.first.assign(rec), first = false;
    last = rec;
  }))
    ends.second.assign(last);
  return ends;
}

// Copies file `from`, less its first `skip` bytes, to offset `at` of the
// open descriptor `to` with `threads` threads, each taking the next 64 MiB
// piece: one thread moves a few GB/s through its buffer, far below what
// memory and fast storage take.
void copy_into(const std::string& from, int to, const std::string& to_name, std::uint64_t at, std::uint64_t skip,
               unsigned threads) {
  io::FileDesc in = io::FileDesc::open(from, O_RDONLY);
  const std::uint64_t whole = file_size(from);
  const std::uint64_t size = whole > skip ? whole - skip : 0;
  constexpr std::uint64_t kPiece = 64 * kMiB;
  const std::uint64_t pieces = (size + kPiece - 1) / kPiece;
  std::atomic<std::uint64_t> next{0};
  parallel_for(static_cast<unsigned>(std::clamp<std::uint64_t>(pieces, 1, std::max(threads, 1u))), [&](unsigned) {
    std::vector<char> buf(8 * kMiB);
    for (std::uint64_t p; (p = next.fetch_add(1)) < pieces;) {
      const std::uint64_t end = std::min(size, (p + 1) * kPiece);
      for (std::uint64_t off = p * kPiece; off < end;) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), end - off));
        const std::size_t n = io::pread_full(in.get(), buf.data(), want, skip + off, from);
        if (n != want) throw io::IoError("read failed", from, "the file shrank while it was copied");
        io::pwrite_full(to, buf.data(), n, at + off, to_name);
        off += n;
      }
    }
  });
}

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 4ULL << 30;
}

struct RankTimes {
  double setup = 0, sample = 0, exchange = 0, sort = 0, write = 0, total = 0;
  // The exchange's parts: reading the share, finding each record's part and
  // grouping the records by part, MPI, and keeping what arrives (and what stays).
  double exchange_read = 0, exchange_bin = 0, exchange_mpi = 0, exchange_keep = 0;
};

class DistributedSort {
public:
  DistributedSort(MPI_Comm comm, const DistributedRequest& request) : c_(comm), req_(request) {}

  void run() {
    const auto start = Clock::now();
    auto t = start;
    // Collectives stay outside the phases' local work: a rank that fails
    // early must not leave the others waiting in one.
    MPI_Comm node;
    MPI_Comm_split_type(c_.comm, MPI_COMM_TYPE_SHARED, c_.rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size_);
    MPI_Comm_free(&node);
    phase(c_, [&] { setup(); });
    if (csv_) cut_csv_shares();
    times_.setup = seconds_since(t), t = Clock::now();
    choose_splitters();
    times_.sample = seconds_since(t), t = Clock::now();
    exchange();
    times_.exchange = seconds_since(t), t = Clock::now();
    // Without -u a piece holds what its rank received (and rank 0's the
    // header): the offsets are known before the sorts, so each sort writes
    // straight into its place in the shared output, and no piece is copied.
    // Under -u, compressed, or into part files, a piece is sorted into a file
    // of its own and moved into place afterwards.
    in_place_ = !req_.part_files && !local_.unique &&
                (!local_.io.output_codec || *local_.io.output_codec == io::Codec::none);
    if (in_place_) {
      place_pieces(received_->total() + (c_.rank == 0 ? header_.size() : 0));
      create_shared_output(false);
      times_.write = seconds_since(t), t = Clock::now();
    }
    phase(c_, [&] { local_sort(); });
    times_.sort = seconds_since(t), t = Clock::now();
    write_output();
    times_.write += seconds_since(t);
    times_.total = seconds_since(start);
    report();
  }

private:
  bool text() const { return record_size_ == 0; }

  TextReading reading(bool check) const {
    TextReading t;
    t.format = text_format_;
    t.csv = csv_;
    t.skip_headers = !header_.empty();
    t.check = check;
    return t;
  }

  // The CSV shares' row boundaries (CsvScanner, partition.hpp): each rank maps
  // the automaton's states over its nominal byte range, the ranks gather the
  // maps, and each composes those before it into the states at its range's
  // two ends; a cut whose state is not RowStart moves on to the end of the row
  // under way (the next newline outside quotes).
  void cut_csv_shares() {
    const CsvScanner scanner(delimiter_);
    const unsigned n = c_.ranks();
    const std::uint64_t total = inputs_->total();
    auto nominal = [&](unsigned r) { return share_begin(total, r, n, 1); };
    CsvScanner::Map map = CsvScanner::identity();
    phase(c_, [&] {
      const std::uint64_t b = nominal(static_cast<unsigned>(c_.rank)), e = nominal(static_cast<unsigned>(c_.rank) + 1);
      std::string buf;
      for (std::size_t f = 0; f + 1 < inputs_->begin.size(); ++f) {
        const std::uint64_t s = std::max(b, inputs_->begin[f]), t = std::min(e, inputs_->begin[f + 1]);
        if (s >= t) continue;
        if (s == inputs_->begin[f]) map = CsvScanner::reset();  // a file starts with a row
        for (std::uint64_t at = s; at < t;) {
          buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(4 * kMiB, t - at)));
          inputs_->data->read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
          scanner.scan(map, buf.data(), buf.size());
          at += buf.size();
        }
      }
    });
    std::vector<std::uint8_t> maps(static_cast<std::size_t>(CsvScanner::kStates) * n);
    MPI_Allgather(map.data(), CsvScanner::kStates, MPI_BYTE, maps.data(), CsvScanner::kStates, MPI_BYTE, c_.comm);
    phase(c_, [&] {
      auto file_start = [&](std::uint64_t x) {
        return x < total && std::binary_search(inputs_->begin.begin(), inputs_->begin.end(), x);
      };
      // The row boundary at or after x, where the state is `state`.
      auto boundary = [&](std::uint64_t x, std::uint8_t state) {
        if (x >= total || state == CsvScanner::RowStart) return std::min(x, total);
        const std::uint64_t end = inputs_->begin[inputs_->file_of(x) + 1];
        std::string buf;
        for (std::uint64_t at = x; at < end;) {
          buf.resize(static_cast<std::size_t>(std::min<std::uint64_t>(64 * 1024, end - at)));
          inputs_->data->read(at, reinterpret_cast<std::byte*>(buf.data()), buf.size());
          const std::size_t k = scanner.row_end(state, buf.data(), buf.size());
          if (k < buf.size() || state == CsvScanner::RowStart) return at + k;
          at += buf.size();
        }
        return end;  // the file's unterminated last row
      };
      std::uint8_t state = CsvScanner::RowStart;  // at nominal(r)
      for (unsigned r = 0;; ++r) {
        if (r == static_cast<unsigned>(c_.rank)) share_begin_ = boundary(nominal(r), state);
        if (r == static_cast<unsigned>(c_.rank) + 1) {
          share_end_ = boundary(nominal(r), state);
          break;
        }
        state = file_start(nominal(r + 1)) ? std::uint8_t{CsvScanner::RowStart} : maps[r * CsvScanner::kStates + state];
      }
    });
  }

  void setup() {
    SortRequest& r = local_;
    r = req_.sort;
    r.io.diagnostics = nullptr;  // the ranks' own sorts stay quiet
    const bool is_text = is_text_format(r.format);
    verify_ = r.verify;
    if (is_text) r.verify = false;  // the library verifies binary pieces; text gets the boundary check only
    if (r.output.empty() || r.output == "-") throw UsageError("corank-mpi writes a file: give -o FILE");
    struct stat out_st {};
    if (::lstat(r.output.c_str(), &out_st) == 0 && !S_ISREG(out_st.st_mode))
      throw UsageError("'" + r.output + "' is not a regular file: the output is written beside it and renamed onto it");
    if (r.inputs.empty() || std::find(r.inputs.begin(), r.inputs.end(), "-") != r.inputs.end())
      throw UsageError("corank-mpi reads files on a shared path, not standard input");
    if (r.merge_only) throw UsageError("-m is not distributed: merge with corank");
    if (r.debug) throw UsageError("--debug is not distributed: use corank");
    if (is_text && r.random_source.empty() &&
        (r.ordering.find('R') != std::string::npos ||
         std::any_of(r.keys.begin(), r.keys.end(), [](const std::string& k) { return k.find('R') != std::string::npos; })))
      throw UsageError("-R needs --random-source FILE under corank-mpi, so that every rank draws the same order");
    validate(r);
    if (!io::PositionalInput::suits(r.inputs, r.io))
      throw UsageError("corank-mpi reads regular uncompressed files (each rank reads its own byte range)");
    if (c_.rank == 0 && !req_.stats_file.empty() && req_.stats_file != "-") {
      const std::string& f = req_.stats_file;
      if (::access(f.c_str(), F_OK) == 0 ? ::access(f.c_str(), W_OK) != 0
                                         : ::access(dir_of(f).c_str(), W_OK | X_OK) != 0)
        throw io::IoError("cannot write statistics", f, errno);
    }

    // Each process of a node gets its share of the node's threads and memory.
    if (r.threads == 0) r.threads = std::max(1u, std::thread::hardware_concurrency() / static_cast<unsigned>(node_size_));
    if (r.memory_budget == 0) r.memory_budget = physical_memory() / 2 / static_cast<std::uint64_t>(node_size_);
    r.progress = false;

    inputs_ = std::make_unique<Inputs>(r.inputs);
    if (is_text) {
      auto f = text_format_of(r);
      term_ = f->terminator();
      csv_ = r.format == "csv" || r.format == "tsv";
      if (csv_) delimiter_ = !r.delimiter.empty() ? r.delimiter[0] : r.format == "tsv" ? '\t' : ',';
      // The header: the first row of the first input that has one (every
      // input's first row is its header). It names the columns here, leads
      // every received file so that each rank's sort names them alike, and
      // heads the output once.
      if (f->has_header())
        for (std::size_t i = 0; i < inputs_->data->files(); ++i)
          if (inputs_->data->file_size(i) > 0) {
            const std::string h = csv_row_at(*inputs_, inputs_->begin[i], *f);
            f->set_header(h, inputs_->data->name(i));
            header_ = h + '\n';
            break;
          }
      text_format_ = f.get();
      order_ = std::make_unique<TextOrder>(std::move(f));
    } else {
      const RecordFormat format = parse_format(r.format, r.keys);
      record_size_ = format.record_size;
      order_ = std::make_unique<BinaryOrder>(format, r.reverse);
    }
    partitioner_ = std::make_unique<Partitioner>(*order_, !r.unique);
    if (!text())
      for (std::size_t i = 0; i < inputs_->data->files(); ++i)
        if (inputs_->data->file_size(i) % record_size_ != 0)
          throw InputError(inputs_->data->name(i) + ": size " + std::to_string(inputs_->data->file_size(i)) +
                           " is not a multiple of the record size " + std::to_string(record_size_));
    const std::uint64_t unit = text() ? 1 : record_size_;
    share_begin_ = share_begin(inputs_->total(), c_.rank, c_.ranks(), unit);
    share_end_ = share_begin(inputs_->total(), c_.rank + 1, c_.ranks(), unit);
    if (text() && !csv_) {  // CSV rows are cut by cut_csv_shares
      share_begin_ = line_start_at_or_after(*inputs_, share_begin_, term_);
      share_end_ = line_start_at_or_after(*inputs_, share_end_, term_);
    }
    scratch_ = std::make_unique<ScratchDir>(r.temp_dirs);

    // Buffers of a few tens of MiB, reused chunk after chunk, stay in cache and
    // fault their pages in once; larger ones only cost page faults.
    const std::uint64_t quarter = std::max<std::uint64_t>(r.memory_budget / 4, kMiB);
    chunk_bytes_ = std::min(quarter, kChunkBytes);
    round_quota_ = std::max<std::uint64_t>(std::min(quarter, kRoundBytes) / c_.ranks(), 1);
  }

  void choose_splitters() {
    std::string mine;
    phase(c_, [&] {
      if (csv_) {
        sample_rows(mine);
        return;
      }
      std::vector<std::uint64_t> at;
      if (text()) {
        // A line longer than the stride is sampled more than once: its weight.
        for (std::uint64_t i : regular_sample(share_end_ - share_begin_, kSamplesPerRank))
          at.push_back(line_start_at_or_before(*inputs_, share_begin_ + i, term_));
      } else {
        for (std::uint64_t i : regular_sample((share_end_ - share_begin_) / record_size_, kSamplesPerRank))
          at.push_back(share_begin_ + i * record_size_);
      }
      for (std::uint64_t pos : at) {
        const std::string rec = record_at(*inputs_, pos, record_size_, term_);
        // A record the format refuses is no splitter; the exchange, which
        // checks every record, reports it.
        if (text_format_ && text_format_->checks_records()) try {
            text_format_->check_record(rec, "", 0);
          } catch (const InputError&) {
            continue;
          }
        put_u64(mine, pos);
        put_u64(mine, rec.size());
        mine += rec;
      }
    });
    std::vector<Sample> samples;
    phase(c_, [&] {
      const std::string all = allgather_bytes(c_, mine);
      for (const char *p = all.data(), *end = all.data() + all.size(); p < end;) {
        Sample s;
        s.position = get_u64(p);
        const std::uint64_t len = get_u64(p);
        s.record.assign(p, static_cast<std::size_t>(len));
        p += len;
        samples.push_back(std::move(s));
      }
      partitioner_->choose_splitters(std::move(samples), c_.ranks());
    });
  }

  // CSV samples: rows start only where a scan from the share's start finds
  // them, so the share is read through; the row holding each of the regular
  // byte offsets is taken (a long row as often as it spans offsets).
  void sample_rows(std::string& mine) {
    const auto offsets = regular_sample(share_end_ - share_begin_, kSamplesPerRank);
    std::size_t k = 0;
    ShareReader reader(*inputs_, share_begin_, share_end_, 0, term_, chunk_bytes_, reading(false));
    while (reader.next([&](std::string_view rec, std::uint64_t pos) {
      for (const std::uint64_t end = pos + rec.size() + 1; k < offsets.size() && share_begin_ + offsets[k] < end; ++k) {
        put_u64(mine, pos);
        put_u64(mine, rec.size());
        mine.append(rec);
      }
    })) {
    }
  }

  void exchange() {
    const unsigned n = c_.ranks();
    const unsigned threads = std::max(local_.threads, 1u);
    std::string err;
    try {
      ReceivedPieces::Plan plan;
      plan.senders = n;
      plan.header = header_;
      plan.threads = threads;
      plan.file_name = [&](unsigned s) { return scratch_->file("from-" + std::to_string(s)); };
      // Fixed-size records stay in memory while they take at most half of
      // the rank's budget; the sort then has the other half.
      if (!text()) {
        for (unsigned s = 0; s < n; ++s)
          plan.most_from.push_back(share_begin(inputs_->total(), s + 1, n, record_size_) -
                                   share_begin(inputs_->total(), s, n, record_size_));
        plan.memory_limit = local_.memory_budget / 2;
      }
      received_ = std::make_unique<ReceivedPieces>(std::move(plan));
    } catch (...) {
      err = what_of(std::current_exception());
    }
    agree(c_, err);

    // Records received from rank s go to the end of its piece.
    auto append = [&](unsigned s, const char* data, std::uint64_t bytes) { received_->append(s, data, bytes); };
    ShareReader reader(*inputs_, share_begin_, share_end_, record_size_, term_, chunk_bytes_, reading(true), threads);
    // The chunk's records grouped by destination: region d is
    // [region[d], region[d] + size[d]) of `grouped`, sent[d] bytes of it gone.
    struct Binned {
      const char* data;
      std::uint32_t len;
      std::uint32_t dest;
      std::uint64_t position;
    };
    std::vector<Binned> binned;
    std::vector<std::vector<std::uint64_t>> slice_bytes;  // [slice][destination]
    std::vector<char> grouped;
    std::vector<std::uint64_t> region(n), size(n, 0), sent(n, 0);
    std::vector<int> send_counts(n), recv_counts(n), send_displs(n), recv_displs(n);
    std::vector<char> recv_buf;
    const std::uint32_t extra = text() ? 1 : 0;  // the terminator each text record gets back
    const unsigned self = static_cast<unsigned>(c_.rank);
    bool input_left = true;
    for (;;) {
      bool pending = false;
      if (err.empty()) {
        try {
          bool drained = true;
          for (unsigned d = 0; d < n; ++d) drained = drained && sent[d] == size[d];
          if (drained && input_left) {
            std::fill(size.begin(), size.end(), 0);
            std::fill(sent.begin(), sent.end(), 0);
            auto t = Clock::now();
            // Fixed-size records are listed by the threads below (a chunk
            // holds hundreds of thousands); text records as they are found.
            const char* block = nullptr;
            std::uint64_t block_at = 0;
            if (record_size_) {
              input_left = reader.next_block([&](const char* data, std::uint64_t bytes, std::uint64_t pos) {
                block = data;
                block_at = pos;
                binned.resize(static_cast<std::size_t>(bytes / record_size_));  // no shrinking: filled below
              });
              if (!input_left) binned.clear();
            } else {
              binned.clear();
              input_left = reader.next([&](std::string_view rec, std::uint64_t pos) {
                binned.push_back({rec.data(), static_cast<std::uint32_t>(rec.size()), 0, pos});
              });
            }
            times_.exchange_read += seconds_since(t), t = Clock::now();
            // Each thread takes a run of the chunk's records: first their
            // parts (a search among the splitters, the costly step), then,
            // once the runs' byte counts have placed them, their copies into
            // the parts' regions. The runs keep their order within a region,
            // so `grouped` is what one thread would have made.
            const unsigned slices =
                static_cast<unsigned>(std::clamp<std::size_t>(binned.size() / 4096, 1, threads));
            slice_bytes.assign(slices, std::vector<std::uint64_t>(n, 0));
            auto slice = [&](unsigned t) {
              return std::pair(binned.size() * t / slices, binned.size() * (t + 1) / slices);
            };
            parallel_for(slices, [&](unsigned t) {
              const auto [b, e] = slice(t);
              for (std::size_t i = b; i < e; ++i) {
                Binned& r = binned[i];
                if (block) r = {block + i * record_size_, record_size_, 0, block_at + i * record_size_};
                r.dest = partitioner_->part_of(std::string_view(r.data, r.len), r.position);
                slice_bytes[t][r.dest] += r.len + extra;
              }
            });
            std::uint64_t at = 0;
            for (unsigned d = 0; d < n; ++d) {
              region[d] = at;
              size[d] = 0;
              for (unsigned t = 0; t < slices; ++t) {
                const std::uint64_t bytes = slice_bytes[t][d];
                slice_bytes[t][d] = at;  // now where slice t's records for d start
                at += bytes;
                size[d] += bytes;
              }
            }
            if (at > kMaxRoundBytes) throw InputError("a line of over 1 GiB cannot be exchanged");
            grouped.resize(static_cast<std::size_t>(at));
            // What stays on this rank goes straight into its piece where
            // that is in memory: one copy less, and no trip through MPI.
            times_.exchange_bin += seconds_since(t), t = Clock::now();
            std::byte* kept = size[self] ? received_->room(self, size[self]) : nullptr;
            times_.exchange_keep += seconds_since(t), t = Clock::now();
            parallel_for(slices, [&](unsigned t) {
              const auto [b, e] = slice(t);
              std::vector<std::uint64_t>& to = slice_bytes[t];
              for (std::size_t i = b; i < e; ++i) {
                const Binned& r = binned[i];
                char* dst = kept && r.dest == self ? reinterpret_cast<char*>(kept) + (to[self] - region[self])
                                                   : grouped.data() + to[r.dest];
                std::memcpy(dst, r.data, r.len);
                if (extra) dst[r.len] = term_;
                to[r.dest] += r.len + extra;
              }
            });
            if (kept) {
              received_->appended(self, size[self]);
              sent[self] = size[self];
            }
            times_.exchange_bin += seconds_since(t);
            read_bytes_ += at;
          }
        } catch (...) {
          err = what_of(std::current_exception());
        }
      }
      // What stays on this rank and did not go straight into its piece
      // skips MPI all the same: added to its piece all at once.
      if (err.empty() && sent[self] < size[self]) {
        try {
          const auto t = Clock::now();
          const std::uint64_t k = size[self] - sent[self];
          append(self, grouped.data() + region[self] + sent[self], k);
          sent[self] += k;
          times_.exchange_keep += seconds_since(t);
        } catch (...) {
          err = what_of(std::current_exception());
        }
      }
      for (unsigned d = 0; d < n; ++d) {
        const std::uint64_t k = err.empty() && d != self ? std::min(size[d] - sent[d], round_quota_) : 0;
        send_displs[d] = static_cast<int>(region[d] + sent[d]);
        send_counts[d] = static_cast<int>(k);
        sent[d] += k;
        pending = pending || sent[d] < size[d];
      }
      auto t_mpi = Clock::now();
      MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, c_.comm);
      std::size_t total = 0;
      for (unsigned s = 0; s < n; ++s) recv_displs[s] = static_cast<int>(total), total += static_cast<std::size_t>(recv_counts[s]);
      recv_buf.resize(total);
      MPI_Alltoallv(grouped.data(), send_counts.data(), send_displs.data(), MPI_BYTE, recv_buf.data(),
                    recv_counts.data(), recv_displs.data(), MPI_BYTE, c_.comm);
      times_.exchange_mpi += seconds_since(t_mpi);
      if (err.empty()) {
        try {
          const auto t = Clock::now();
          for (unsigned s = 0; s < n; ++s) {
            if (recv_counts[s] == 0) continue;
            append(s, recv_buf.data() + recv_displs[s], static_cast<std::uint64_t>(recv_counts[s]));
          }
          times_.exchange_keep += seconds_since(t);
        } catch (...) {
          err = what_of(std::current_exception());
        }
      }
      // [more to send anywhere, lowest failing rank as size - rank]
      int local[2] = {err.empty() && (pending || input_left) ? 1 : 0, err.empty() ? 0 : c_.size - c_.rank};
      int global[2];
      MPI_Allreduce(local, global, 2, MPI_INT, MPI_MAX, c_.comm);
      if (global[1] != 0 || global[0] == 0) break;
    }
    grouped = std::vector<char>();
    recv_buf = std::vector<char>();
    try {
      received_->close();
    } catch (...) {
      if (err.empty()) err = what_of(std::current_exception());
    }
    agree(c_, err);
  }

  void local_sort() {
    SortRequest r = local_;
    if (received_->in_memory()) {
      r.inputs.clear();
      // The sort counts them in its budget: they are part of this process's
      // resident memory, which the sort's memory plan takes off -S.
      r.input_buffers = received_->buffers();
    } else {
      r.inputs = received_->files();
    }
    if (in_place_) {
      r.output = shared_name_;
      r.io.output_region = io::OutputRegion{piece_offset_, piece_bytes_};
      r.write_header = c_.rank == 0;  // the others' sorts read it to name the columns
      stats_ = sort(r);
      received_->release();
      // The region was sized from the bytes received; a sort that wrote
      // otherwise left a gap or overran the next rank's region.
      if (stats_.bytes_out != piece_bytes_)
        throw std::runtime_error("the sorted piece holds " + std::to_string(stats_.bytes_out) + " bytes, not the " +
                                 std::to_string(piece_bytes_) + " expected");
      piece_file_ = shared_name_;
      piece_begin_ = piece_offset_ + (c_.rank == 0 ? header_.size() : 0);
      piece_end_ = piece_offset_ + piece_bytes_;
      return;
    }
    // Every rank's sort writes the header first; the output keeps rank 0's.
    piece_header_ = header_.size();
    const std::uint64_t drop = c_.rank == 0 ? 0 : piece_header_;
    std::string part_temp;
    if (req_.part_files) {
      const std::string part = part_name(req_.sort.output, static_cast<unsigned>(c_.rank));
      piece_.path = dir_of(part) + "/." + base_of(part) + ".corank-mpi-" + std::to_string(::getpid());
      part_temp = piece_.path;
    }
    r.output = req_.part_files && drop == 0 ? part_temp : scratch_->file("sorted");
    stats_ = sort(r);
    piece_file_ = r.output;
    received_->release();  // the sort has read them; free the space now
    piece_skip_ = drop;
    if (req_.part_files && drop) {  // the part file without the header
      io::FileDesc out = io::FileDesc::open(part_temp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
      copy_into(piece_file_, out.get(), part_temp, 0, drop, local_.threads);
      if (::close(out.release()) != 0) throw io::IoError("close failed", part_temp, errno);
      ::unlink(piece_file_.c_str());
      piece_file_ = part_temp;
      piece_skip_ = piece_header_ = 0;
    }
    piece_end_ = file_size(piece_file_);
    piece_begin_ = piece_header_;
    piece_bytes_ = piece_end_ - piece_skip_;
  }

  // This rank's offset in the output (the sizes of the pieces before it) and
  // the output's size.
  void place_pieces(std::uint64_t bytes) {
    piece_bytes_ = bytes;
    std::uint64_t offset = 0;
    MPI_Exscan(&bytes, &offset, 1, MPI_UINT64_T, MPI_SUM, c_.comm);
    piece_offset_ = c_.rank == 0 ? 0 : offset;
    MPI_Allreduce(&bytes, &total_bytes_, 1, MPI_UINT64_T, MPI_SUM, c_.comm);
  }

  // Rank 0 creates the shared output beside the target, total_bytes_ long,
  // and every rank learns its name. With rename_piece, rank 0's sorted piece,
  // the output's first bytes as they stand, becomes that file where it lies
  // on the target's file system (renamed over the empty one just made)
  // instead of being copied into it; returns whether it did.
  bool create_shared_output(bool rename_piece) {
    bool renamed = false;
    phase(c_, [&] {
      if (c_.rank != 0) return;
      const std::string& out = req_.sort.output;
      // A new file gets 0666 less the umask from the kernel: no umask
      // juggling, which would race with other threads.
      std::string templ;
      int fd = -1;
      for (unsigned n = 0; fd < 0; ++n) {
        templ = dir_of(out) + "/." + base_of(out) + ".corank-mpi-" + std::to_string(::getpid()) + "-" + std::to_string(n);
        fd = ::open(templ.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || n == 100)) throw io::IoError("cannot create output", out, errno);
      }
      shared_.path = templ;
      if (rename_piece && piece_skip_ == 0 && ::rename(piece_file_.c_str(), templ.c_str()) == 0) {
        ::close(fd);
        fd = ::open(templ.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw io::IoError("cannot write output", out, errno);
        renamed = true;
      } else if (rename_piece && piece_skip_ == 0 && errno != EXDEV) {
        const int e = errno;
        ::close(fd);
        throw io::IoError("rename failed", templ, e);
      }
      io::FileDesc owner(fd);
      // An existing target keeps its mode (a renamed piece was made 0666
      // less the umask too).
      struct stat st {};
      if (::stat(out.c_str(), &st) == 0 && ::fchmod(fd, st.st_mode & 07777) != 0)
        throw io::IoError("fchmod failed", templ, errno);
      if (::ftruncate(fd, static_cast<off_t>(total_bytes_)) != 0) throw io::IoError("cannot write output", out, errno);
    });
    shared_name_ = shared_.path;
    int len = static_cast<int>(shared_name_.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, c_.comm);
    shared_name_.resize(static_cast<std::size_t>(len));
    MPI_Bcast(shared_name_.data(), len, MPI_CHAR, 0, c_.comm);
    return renamed;
  }

  void write_output() {
    if (!in_place_) place_pieces(piece_bytes_);
    // The pieces are checked as sorted, before any is moved.
    verify_boundaries();
    if (!req_.part_files && !in_place_) {
      const bool renamed = create_shared_output(true);
      phase(c_, [&] {
        if (piece_bytes_ == 0 || renamed) return;
        io::FileDesc out = io::FileDesc::open(shared_name_, O_WRONLY);
        copy_into(piece_file_, out.get(), req_.sort.output, piece_offset_, piece_skip_, local_.threads);
        if (local_.io.sync_output && ::fsync(out.get()) != 0) throw io::IoError("fsync failed", req_.sort.output, errno);
      });
    }
    // Every rank's piece is in place: commit.
    phase(c_, [&] {
      if (req_.part_files) {
        const std::string part = part_name(req_.sort.output, static_cast<unsigned>(c_.rank));
        if (::rename(piece_.path.c_str(), part.c_str()) != 0) throw io::IoError("rename failed", part, errno);
        piece_.keep = true;
      } else if (c_.rank == 0) {
        if (::rename(shared_.path.c_str(), req_.sort.output.c_str()) != 0)
          throw io::IoError("cannot write output", req_.sort.output, errno);
        shared_.keep = true;
      }
    });
    if (req_.part_files && c_.rank == 0)  // parts of an earlier run with more ranks would not belong
      for (unsigned k = c_.ranks(); ::unlink(part_name(req_.sort.output, k).c_str()) == 0; ++k) {
      }
  }

  // Pieces in rank order are in order across their boundaries, and no record
  // was lost (--verify; each rank's sort has verified its own piece).
  void verify_boundaries() {
    if (!verify_) return;
    std::string mine;
    phase(c_, [&] {
      const bool has = piece_end_ > piece_begin_;
      auto [first, last] = !has   ? std::pair<std::string, std::string>()
                           : csv_ ? csv_piece_ends(piece_file_, piece_begin_, piece_end_, *text_format_)
                                  : piece_ends(piece_file_, piece_begin_, piece_end_, record_size_, term_);
      put_u64(mine, has ? 1 : 0);
      put_u64(mine, first.size());
      mine += first;
      put_u64(mine, last.size());
      mine += last;
    });
    std::uint64_t in = read_bytes_, in_total = 0;
    MPI_Allreduce(&in, &in_total, 1, MPI_UINT64_T, MPI_SUM, c_.comm);
    const std::string all = allgather_bytes(c_, mine);
    phase(c_, [&] {
      if (c_.rank != 0) return;
      if (!local_.unique && in_total + header_.size() != total_bytes_)
        throw InputError("verification failed: " + std::to_string(in_total) + " bytes read, " +
                         std::to_string(total_bytes_) + " written");
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
          const int cmp = order_->compare(prev, first);
          if (cmp > 0 || (local_.unique && cmp == 0))
            throw InputError("verification failed: rank " + std::to_string(r) + "'s first record is out of order");
        }
        prev = last, have_prev = true;
      }
    });
  }

  // --stats and --verbose on rank 0: totals, each rank's part and times, and
  // the partition skew (largest part over the mean, in bytes received).
  void report() {
    nlohmann::ordered_json mine = {
        {"rank", c_.rank},
        {"bytes_received", received_->total()},
        {"received_in_memory", received_->in_memory()},  // sorted where they lie, not written to -T first
        {"records_out", stats_.records_out},
        {"bytes_out", piece_bytes_},
        {"output_offset", piece_offset_},
        {"in_place", in_place_},  // sorted straight into the shared output, not into a file then moved
        {"seconds",
         {{"setup", times_.setup},
          {"sample", times_.sample},
          {"exchange", times_.exchange},
          {"exchange_read", times_.exchange_read},
          {"exchange_bin", times_.exchange_bin},
          {"exchange_mpi", times_.exchange_mpi},
          {"exchange_keep", times_.exchange_keep},
          {"sort", times_.sort},
          {"write", times_.write},
          {"total", times_.total}}},
        {"sort", nlohmann::ordered_json::parse(stats_to_json(stats_, local_))},
    };
    std::vector<int> sizes;
    const std::string all = allgather_bytes(c_, mine.dump(), &sizes);
    phase(c_, [&] {
      if (c_.rank != 0) return;
      nlohmann::ordered_json per_rank = nlohmann::ordered_json::array();
      std::vector<std::uint64_t> parts;
      std::uint64_t records = 0, bytes = 0;
      double slowest = 0;
      for (std::size_t r = 0, at = 0; r < sizes.size(); at += static_cast<std::size_t>(sizes[r]), ++r) {
        per_rank.push_back(nlohmann::ordered_json::parse(all.substr(at, static_cast<std::size_t>(sizes[r]))));
        const auto& j = per_rank.back();
        parts.push_back(j["bytes_received"].get<std::uint64_t>());
        records += j["records_out"].get<std::uint64_t>();
        bytes += j["bytes_out"].get<std::uint64_t>();
        slowest = std::max(slowest, j["seconds"]["total"].get<double>());
      }
      const double skew = partition_skew(parts);
      if (local_.verbose && req_.sort.io.diagnostics)
        req_.sort.io.diagnostics->note(io::format_line("%u ranks sorted %llu records in %.3f s, partition skew %.4f",
                                                       c_.ranks(), static_cast<unsigned long long>(records), slowest,
                                                       skew));
      if (req_.stats_file.empty()) return;
      nlohmann::ordered_json doc = {
          {"version", corank::version()},
          {"ranks", c_.size},
          {"format", req_.sort.format},
          {"inputs", req_.sort.inputs},
          {"output", req_.sort.output},
          {"part_files", req_.part_files},
          {"records_out", records},
          {"bytes_in", inputs_->total()},
          {"bytes_out", bytes},
          {"seconds", slowest},  // the slowest rank's total: the job's time
          {"partition_skew", skew},
          {"per_rank", per_rank},
      };
      const std::string text = doc.dump(2) + "\n";
      if (req_.stats_file == "-") {
        if (req_.stats_text) *req_.stats_text = text;
        return;
      }
      std::ofstream f(req_.stats_file);
      f << text;
      if (!f) throw io::IoError("write failed", req_.stats_file, "cannot write statistics");
    });
  }

  Comm c_;
  const DistributedRequest& req_;
  SortRequest local_;
  std::unique_ptr<RecordOrder> order_;
  std::unique_ptr<Partitioner> partitioner_;
  std::unique_ptr<Inputs> inputs_;
  std::unique_ptr<ScratchDir> scratch_;
  std::uint32_t record_size_ = 0;
  char term_ = '\n';
  const text::TextFormat* text_format_ = nullptr;  // text: the format order_ compares by
  bool csv_ = false;                                // CSV or TSV: rows may hold quoted newlines
  char delimiter_ = ',';
  std::string header_;  // CSV --header: the header row with its newline; "" without
  std::uint64_t piece_header_ = 0, piece_skip_ = 0;  // header bytes at the piece's head; of them, not this rank's output
  std::uint64_t share_begin_ = 0, share_end_ = 0, chunk_bytes_ = 0, round_quota_ = 0;
  std::uint64_t read_bytes_ = 0;
  bool verify_ = false;
  int node_size_ = 1;  // ranks on this rank's node
  std::unique_ptr<ReceivedPieces> received_;
  bool in_place_ = false;    // the pieces are sorted into their places in shared_ (see run)
  RemoveUnlessKept shared_;  // rank 0's temporary output beside the target, until renamed onto it
  std::string shared_name_;  // its name, on every rank
  RemoveUnlessKept piece_;   // a part file before its rename
  // The sorted piece's records lie in bytes [piece_begin_, piece_end_) of
  // piece_file_ (past any header): a scratch or part file, or shared_.
  std::string piece_file_;
  std::uint64_t piece_begin_ = 0, piece_end_ = 0;
  std::uint64_t piece_bytes_ = 0, piece_offset_ = 0, total_bytes_ = 0;
  SortStats stats_;
  RankTimes times_;
};

}  // namespace

int distributed_sort(MPI_Comm comm, const DistributedRequest& request, std::string* error) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  try {
    DistributedSort(comm, request).run();
    return 0;
  } catch (const RankFailed& e) {
    if (rank == 0 && error) *error = e.what();
  }
  return 2;
}

}  // namespace corank::mpi
