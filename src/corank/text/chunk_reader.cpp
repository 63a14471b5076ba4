#include "corank/text/chunk_reader.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "corank/errors.hpp"
#include "corank/parallel.hpp"
#include "corank/planner.hpp"
#include "corank/stopwatch.hpp"
#include "corank/text/line_split.hpp"
#include "corank/text/record_starts.hpp"

namespace corank::text {

ChunkReader::ChunkReader(std::vector<std::string> inputs, TextFormat& format, const io::IoOptions& io,
                         unsigned threads, std::uint64_t map_at_most, RowCheck* rows)
    : inputs_(std::move(inputs)), format_(format), input_format_(&format), rows_(rows && rows->active() ? rows : nullptr),
      io_(io), threads_(std::max(1u, threads)),
      defer_prefixes_(threads_ > 2 || (threads_ == 2 && format.costly_prefix())) {
  if (inputs_.empty()) inputs_.push_back("-");
  // Cached input is copied from the page cache by all threads (two cores
  // split records while they are in cache instead, see fill_records).
  if (threads_ > 2) io_.read_threads = threads_;
  // Every input is opened now, so that an unreadable one fails before any
  // output exists. Many inputs (a shell glob of logs) would run out of file
  // descriptors if all stayed open: past kept_open they are closed again and
  // reopened in turn. An open input may hold three (the file, a direct
  // descriptor, a ring); the sort's runs need the rest.
  const std::size_t kept_open = static_cast<std::size_t>(std::clamp<std::uint64_t>(free_descriptors() / 8, 1, 64));
  std::uint64_t total = 0;
  bool known = true;
  for (const auto& path : inputs_) {
    sources_.push_back(io::open_source(path, io_));
    snapshots_.push_back(sources_.back()->file_size());
    if (auto n = sources_.back()->size()) total += *n; else known = false;
    if (sources_.size() > kept_open && path != "-") sources_.back().reset();
  }
  if (known) total_size_ = total;
  // A mapped file keeps a descriptor open (for the SIGBUS handler,
  // mapped_input.hpp): no more are mapped than are kept open to be read.
  if (total_size_ && *total_size_ <= map_at_most && !format_.has_header() && inputs_.size() <= kept_open)
    map_inputs(map_at_most);
  split_on_two_ = threads_ == 2 && mapped_ && map_at_most >= kTwoThreadSplitBudget;
}

void ChunkReader::map_inputs(std::uint64_t at_most) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    if (!snapshots_[i]) return;  // not a regular file read as it is
    sizes.push_back(*snapshots_[i]);
  }
  mapped_ = io::MappedInputs::map_if_resident(inputs_, io_, sizes, at_most);
  if (!mapped_) return;
  for (std::size_t i = 0; i < mapped_->files(); ++i) {
    if (mapped_->end(i) > mapped_->begin(i) &&
        static_cast<char>(mapped_->data()[mapped_->end(i) - 1]) != format_.terminator()) {
      mapped_.reset();  // a last record that needs its terminator supplied: read
      return;
    }
  }
  sources_.clear();  // never read
}

void ChunkReader::set_input_formats(std::vector<const TextFormat*> formats) {
  if (formats.size() != inputs_.size() || next_input_ != 0)
    throw std::logic_error("input formats: one per input, before any is read");
  input_formats_ = std::move(formats);
}

bool ChunkReader::open_next() {
  if (source_) sources_[next_input_ - 1].reset();  // done with it: close it now
  source_ = nullptr;
  if (next_input_ == inputs_.size()) return false;
  if (!sources_[next_input_])  // reopened: read as much as when first opened
    sources_[next_input_] = io::open_source(inputs_[next_input_], io_, snapshots_[next_input_]);
  source_ = sources_[next_input_].get();
  start_file(next_input_++);
  return true;
}

void ChunkReader::start_file(std::size_t i) {
  source_name_ = inputs_[i];
  if (!input_formats_.empty()) input_format_ = input_formats_[i];
  at_file_start_ = true;
  file_lines_ = 0;
  ending_.reset();
}

bool ChunkReader::open_next_or_finish() {
  if (open_next()) return true;
  done_ = true;
  return false;
}

bool ChunkReader::fill(Chunk& chunk, std::uint64_t budget) {
  // Entries hold offsets of 40 bits: a chunk takes at most a quarter of
  // that, and grows past it only for one record that large.
  const std::uint64_t read_before = bytes_read_;
  bool got = false;
  try {
    got = fill_records(chunk, std::min(budget, RecordEntry::kMaxBytes / 4));
    if (chunk.used >= RecordEntry::kMaxBytes) throw InputError(source_name_ + ": a record of 1 TiB or more");
  } catch (const InputError&) {
    // A mapped file that shrank reads as zeros past its new end, up to the
    // end of that page: what looks malformed there is the shrinking.
    if (mapped_) io::check_mapped_inputs();
    throw;
  }
  chunk.input_bytes = bytes_read_ - read_before;
  // Records split off one at a time get their prefixes here where they are
  // deferred (defer_prefixes_), all threads sharing the work (the parallel
  // split gives them as it goes).
  RecordEntry* r = chunk.records.data();
  for (const Deferred& range : deferred_) {
    const TextFormat& format = *range.format;
    const std::size_t lo = range.begin, hi = std::min(range.end, chunk.records.size());
    if (lo >= hi) continue;
    const std::size_t n = hi - lo;
    const unsigned parts = static_cast<unsigned>(std::clamp<std::size_t>(n / 16384, 1, threads_));
    parallel_for(parts, [&](unsigned p) {
      for (std::size_t i = lo + n * p / parts, end = lo + n * (p + 1) / parts; i < end; ++i)
        r[i].prefix = format.prefix(chunk.record(r[i]));
    });
  }
  deferred_.clear();
  return got;
}

void ChunkReader::defer_prefix(std::size_t index) {
  if (!deferred_.empty() && deferred_.back().end == index && deferred_.back().format == input_format_)
    ++deferred_.back().end;
  else
    deferred_.push_back({index, index + 1, input_format_});
}

bool ChunkReader::splits_in_parallel() const noexcept {
  return (threads_ > 2 || split_on_two_) &&
         (format_.every_terminator_ends_a_record() || format_.records_are_runs_of_lines());
}

// Pieces of 256 KiB are split into records while they are still in cache;
// split by several threads, pieces are larger.
std::uint64_t ChunkReader::piece_bytes(std::uint64_t budget) const noexcept {
  return splits_in_parallel()
             ? std::clamp<std::uint64_t>(budget / kParallelPieceShare, kParallelSplitBytes, kParallelPieceBytes)
             : std::uint64_t{256} << 10;
}

bool ChunkReader::fill_records(Chunk& chunk, std::uint64_t budget) {
  if (chunk.mapped && mapped_) {
    // The chunk's last window is sorted and gone: its pages leave the
    // process, as a chunk's buffer would be reused. Windows go in order, and
    // so do the pages before this one: a fault maps the pages around it too
    // (the kernel's fault-around, up to 64 KiB), the end of a window dropped
    // before included, which would stay in the process for good.
    const std::uint64_t end =
        static_cast<std::uint64_t>(chunk.mapped - reinterpret_cast<const char*>(mapped_->data())) + chunk.used;
    constexpr std::uint64_t kFaultAround = std::uint64_t{2} << 20;  // the most a kernel maps around a fault
    const std::uint64_t from = dropped_to_ > kFaultAround ? dropped_to_ - kFaultAround : 0;
    if (end > from) mapped_->drop(from, end - from);
    dropped_to_ = std::max(dropped_to_, end);
  }
  chunk.clear_records();
  chunk.used = 0;
  chunk.mapped = nullptr;
  if (done_) return false;
  if (mapped_) return fill_from_mapping(chunk, budget);
  chunk.reserve(std::max<std::uint64_t>(budget, carry_.size() + 1));
  if (!carry_.empty()) std::memcpy(chunk.bytes.data(), carry_.data(), carry_.size());
  chunk.used = carry_.size();
  carry_.clear();
  std::uint64_t scan = 0;  // the start of the first record not yet split off
  auto split = [&] { return this->split(chunk, scan, budget); };

  for (;;) {
    if (!source_ && !open_next()) {  // only before the first read
      done_ = true;
      break;
    }
    if (chunk.used == chunk.capacity && chunk.records.empty()) {
      if (scan > 0) {  // only skipped records and rejects before `scan`: their room is reused
        std::memmove(chunk.bytes.data(), chunk.bytes.data() + scan, chunk.used - scan);
        chunk.used -= scan;
        scan = 0;
      } else {
        chunk.reserve(chunk.capacity * 2);  // one record larger than the chunk
      }
    }
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(chunk.capacity - chunk.used, piece_bytes(budget)));
    const auto t_read = Clock::now();
    const std::size_t got = source_->read(chunk.bytes.data() + chunk.used, want);
    read_seconds_ += seconds_since(t_read);
    chunk.used += got;
    bytes_read_ += got;
    // Full (the budget is spent, or the buffer is and holds a record): the rest,
    // from the first record not taken, waits for the next chunk.
    auto keep_rest = [&] {
      carry_.assign(chunk.data() + scan, chunk.data() + chunk.used);
      chunk.used = scan;
    };
    if (!split() || (chunk.used == chunk.capacity && !chunk.records.empty() && got == want)) {
      keep_rest();
      // An exhausted last file with nothing left over: this chunk is the last.
      if (got < want && carry_.empty()) open_next_or_finish();
      return true;
    }
    if (got < want) {
      // End of this file: its unterminated tail is a record with the terminator supplied.
      if (scan < chunk.used) {
        const bool to_end = format_.last_record_runs_to_file_end();
        if (!to_end || chunk.data()[chunk.used - 1] != format_.terminator()) {
          const std::string_view tail(chunk.data() + scan, chunk.used - scan);
          format_.check_unterminated(tail, source_name_, file_lines_ + 1);
          ending_.saw_first_line_of(tail, format_.terminator());
          const bool cr = ending_.supplies_cr(tail);
          if (chunk.used + 2 > chunk.capacity) chunk.reserve(chunk.capacity + 2);
          if (cr) chunk.bytes.data()[chunk.used++] = '\r';
          chunk.bytes.data()[chunk.used++] = format_.terminator();
        }
        if (!split()) {
          keep_rest();  // read again, this file yields nothing more and the tail is whole
          return true;
        }
        if (scan < chunk.used) {
          if (!to_end) throw InputError(source_name_ + ": malformed last record");
          take_record(chunk, scan, chunk.used - scan);
        }
      }
      if (!open_next_or_finish()) break;
    }
  }
  return !chunk.records.empty();
}

// Several threads split large pieces of plain lines; the sequential loop then
// finds no whole record left, or handles the rest after a header.
bool ChunkReader::split(Chunk& chunk, std::uint64_t& scan, std::uint64_t budget) {
  const char* base = chunk.data();
  if (splits_in_parallel() && format_.every_terminator_ends_a_record() && !(at_file_start_ && format_.has_header()) &&
      chunk.used - scan >= kParallelSplitBytes) {
    const std::size_t before = chunk.records.size();
    const auto t_split = Clock::now();
    const bool room = split_in_parallel(chunk, scan, budget);
    split_seconds_ += seconds_since(t_split);
    if (chunk.records.size() > before) {
      at_file_start_ = false;
      ending_.saw(chunk.record(chunk.records[before]), format_.terminator());
    }
    if (!room) return false;
  } else if (splits_in_parallel() && format_.records_are_runs_of_lines() && !(at_file_start_ && format_.has_header()) &&
             chunk.used - scan >= kParallelSplitBytes) {
    // Records that are runs of lines: their first lines found on all
    // threads; the last record, whose end is not known yet, is left.
    const auto t_split = Clock::now();
    const std::vector<std::uint64_t> starts = record_starts(base, scan, chunk.used, *input_format_, threads_);
    split_seconds_ += seconds_since(t_split);
    for (const std::uint64_t s : starts) {
      if (!chunk.records.empty() && scan + chunk.records.size() * kRecordOverhead >= budget) return false;
      ending_.saw({base + scan, static_cast<std::size_t>(s - scan - 1)}, format_.terminator());
      take_record(chunk, scan, s - scan);
    }
  }
  for (;;) {
    if (!chunk.records.empty() && scan + chunk.records.size() * kRecordOverhead >= budget) return false;
    const std::size_t n = input_format_->record_length(base + scan, base + chunk.used);
    if (n == 0) return true;
    const std::uint64_t line = file_lines_ + 1;
    ending_.saw({base + scan, n - 1}, format_.terminator());
    if (format_.counts_lines() || format_.checks_records())
      file_lines_ += static_cast<std::uint64_t>(std::count(base + scan, base + scan + n, '\n'));
    if (at_file_start_ && format_.has_header()) {
      if (!saw_header_) {
        header_.assign(base + scan, n - 1);
        saw_header_ = true;
        format_.set_header(header_, source_name_);  // before any prefix: keys may name columns
        if (rows_) rows_->set_header(header_, source_name_);
      } else {
        format_.check_header({base + scan, n - 1}, source_name_);
      }
      // The header's bytes are dropped by moving the rest of the chunk down.
      std::memmove(chunk.bytes.data() + scan, base + scan + n, chunk.used - scan - n);
      chunk.used -= n;
      at_file_start_ = false;
    } else {
      take_record(chunk, scan, n, line);
    }
  }
}

void ChunkReader::take_record(Chunk& chunk, std::uint64_t& scan, std::uint64_t n, std::uint64_t line) {
  const char* base = chunk.data();
  if (line == 0) {  // not counted by the caller
    line = file_lines_ + 1;
    if (format_.counts_lines() || format_.checks_records())
      file_lines_ += static_cast<std::uint64_t>(std::count(base + scan, base + scan + n, '\n'));
  }
  if (at_file_start_ && format_.records_are_runs_of_lines()) {
    const std::string_view record(base + scan, n - 1);
    if (!input_format_->starts_record(record.substr(0, std::min(record.find('\n'), record.size())))) {
      heads_.append(base + scan, n);  // the file's head (heads())
      ++head_records_;
      at_file_start_ = false;
      scan += n;
      return;
    }
  }
  at_file_start_ = false;
  if (rows_ && !rows_->admit({base + scan, n - 1}, source_name_, line)) {
    scan += n;  // skipped, or a reject: its bytes stay in the chunk, unused
    return;
  }
  if (!rows_ && format_.checks_records()) format_.check_record({base + scan, n - 1}, source_name_, line);
  // The prefix now, while the record is in cache.
  if (defer_prefixes_) defer_prefix(chunk.records.size());
  chunk.records.push_back(RecordEntry(defer_prefixes_ ? Prefix{} : input_format_->prefix({base + scan, n - 1}), scan,
                                      n - 1, chunk.long_records));
  scan += n;
}

bool ChunkReader::fill_from_mapping(Chunk& chunk, std::uint64_t budget) {
  if (next_input_ == 0) start_file(next_input_++);  // the first input, as open_next would start it
  // The window grows piece by piece, as reads would fill the chunk, until the
  // budget is spent: the threads' lists of a piece's records stay bounded.
  // Offsets below are the window's; file f's bytes lie at [begin(f), end(f))
  // of the mapping.
  const std::uint64_t window = mapped_next_;
  const std::uint64_t piece = piece_bytes(budget);
  chunk.mapped = reinterpret_cast<const char*>(mapped_->data()) + window;
  // Bytes at most, as a chunk's buffer holds: more only for one record larger than that.
  std::uint64_t capacity = budget;
  std::uint64_t scan = 0;
  bool full = false;
  while (!full) {
    std::size_t file = next_input_ - 1;
    if (window + scan == mapped_->end(file)) {  // this file is done: on to the next that fits
      if (next_input_ == mapped_->files()) {
        done_ = true;
        break;
      }
      const std::uint64_t next = mapped_->begin(next_input_) - window;
      if (next >= capacity && !chunk.records.empty()) break;
      start_file(next_input_++);
      ++file;
      chunk.used = scan = next;
    }
    const std::uint64_t file_end = mapped_->end(file) - window;
    while (!full && chunk.used < file_end) {
      if (chunk.used >= capacity && chunk.records.empty()) capacity = std::max(capacity * 2, chunk.used + piece);
      chunk.used = std::min(file_end, chunk.used + std::min(capacity - std::min(capacity, chunk.used), piece));
      full = !split(chunk, scan, budget) ||
             (chunk.used >= capacity && !chunk.records.empty() && chunk.used < file_end);
    }
    if (!full && scan < file_end) finish_mapped_file(chunk, scan, file_end);
  }
  chunk.used = scan;
  mapped_next_ = window + scan;
  bytes_read_ = mapped_->file_bytes_before(mapped_next_);
  if (next_input_ == mapped_->files() && mapped_next_ == mapped_->end(next_input_ - 1)) done_ = true;
  if (chunk.records.empty()) {  // as a read chunk would be: empty
    chunk.used = 0;
    chunk.mapped = nullptr;
  }
  return !chunk.records.empty();
}

void ChunkReader::finish_mapped_file(Chunk& chunk, std::uint64_t& scan, std::uint64_t file_end) {
  if (format_.last_record_runs_to_file_end()) {
    take_record(chunk, scan, file_end - scan);
    return;
  }
  // The file ends with a terminator, yet its tail is no whole record (a
  // CSV quote left open, say): the error the read path gives it.
  format_.check_unterminated(std::string_view(chunk.data() + scan, file_end - scan), source_name_, file_lines_ + 1);
  throw InputError(source_name_ + ": malformed last record");
}

// Plain lines split by several threads (line_split.hpp), each entry written
// once into the chunk; stops like the sequential split, before the first
// record that would take the chunk over its budget (returns false then). A
// record without its terminator stays unsplit.
bool ChunkReader::split_in_parallel(Chunk& chunk, std::uint64_t& scan, std::uint64_t budget) {
  const LineSplit piece{chunk.data(), scan, chunk.used, format_.terminator(), input_format_, chunk.mapped != nullptr,
                        budget, kRecordOverhead};
  const std::size_t before = chunk.records.size();
  const bool room = split_lines(piece, threads_, chunk.records, chunk.long_records);
  if (chunk.records.size() > before) {
    const RecordEntry& last = chunk.records[chunk.records.size() - 1];
    scan = last.offset + chunk.length(last) + 1;
  }
  return room;
}

}  // namespace corank::text
