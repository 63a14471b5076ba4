#include "corank/text/run_window.hpp"

#include <algorithm>
#include <cstring>

#include "corank/io/diagnostics.hpp"

namespace corank::text {

namespace {

std::uint64_t window_cost(std::string_view record) { return record.size() + 1 + ChunkReader::kRecordOverhead; }

}  // namespace

bool RunWindow::less_than_last(std::string_view record, const Prefix& prefix) const {
  if (!(prefix == last_prefix_)) return prefix < last_prefix_;
  return format_.compare(record, last_) < 0;
}

std::size_t RunWindow::late_records(const Chunk& chunk) const {
  if (!took_any_) return 0;
  const auto& recs = chunk.records;
  const auto late = std::partition_point(recs.begin(), recs.end(), [&](const RecordEntry& e) {
    return less_than_last(chunk.record(e), e.prefix);
  });
  return static_cast<std::size_t>(late - recs.begin());
}

void RunWindow::advance(const Chunk& chunk, std::size_t from, bool last, RecordWriter& run,
                        io::HugeVector<RecordEntry>& merged) {
  const Chunk& window = windows_[current_];
  const std::size_t n = chunk.records.size();
  // A merged record's spare bit says where it lies: set, in the window.
  merged.resize(window.records.size() + (n - from));
  const auto tagged = [](const RecordEntry& e, bool in_window) {
    RecordEntry t = e;
    t.spare = in_window;
    return t;
  };
  const auto view = [&](const RecordEntry& e) { return e.spare ? window.record(e) : chunk.record(e); };
  std::size_t i = 0, j = from, k = 0;
  while (i < window.records.size() && j < n) {
    const RecordEntry& c = chunk.records[j];
    const RecordEntry& w = window.records[i];
    bool chunk_first;
    if (!(c.prefix == w.prefix))
      chunk_first = c.prefix < w.prefix;
    else
      chunk_first = format_.compare(chunk.record(c), window.record(w)) < 0;
    merged[k++] = chunk_first ? tagged(chunk.records[j++], false) : tagged(window.records[i++], true);
  }
  for (; i < window.records.size(); ++i) merged[k++] = tagged(window.records[i], true);
  for (; j < n; ++j) merged[k++] = tagged(chunk.records[j], false);

  // The window keeps the largest records that fit it.
  std::size_t cut = k;
  std::uint64_t kept = 0, kept_bytes = 0;
  if (!last)
    for (std::string_view r; cut > 0 && kept + window_cost(r = view(merged[cut - 1])) <= capacity_; --cut) {
      kept += window_cost(r);
      kept_bytes += r.size() + 1;
    }
  for (std::size_t r = 0; r < cut; ++r) run.write(view(merged[r]));
  if (cut > 0) {
    last_.assign(view(merged[cut - 1]));
    last_prefix_ = merged[cut - 1].prefix;
    took_any_ = true;
  }

  Chunk& to = windows_[current_ ^ 1];
  to.bytes.resize(kept_bytes);
  to.clear_records();
  to.records.resize(k - cut);
  std::uint64_t offset = 0;
  for (std::size_t r = cut; r < k; ++r) {
    const std::string_view record = view(merged[r]);
    std::memcpy(to.bytes.data() + offset, record.data(), record.size());
    to.records[r - cut] = RecordEntry(merged[r].prefix, offset, record.size(), to.long_records);
    offset += record.size() + 1;
  }
  to.used = offset;
  windows_[current_].clear_records();
  windows_[current_].bytes.clear();
  current_ ^= 1;
  merged.clear();
}

Chunk RunWindow::as_chunk() const {
  const Chunk& window = windows_[current_];
  Chunk c;
  c.mapped = window.bytes.data();
  c.records.resize(window.records.size());
  std::copy(window.records.begin(), window.records.end(), c.records.begin());
  c.long_records = window.long_records;
  return c;
}

void StreamSamples::thin(RecordWriter& run, std::uint64_t most_bytes) {
  if (stride_ == 0) return;
  for (; counted_ < samples_.size(); ++counted_) bytes_ += sizeof(RunSample) + samples_[counted_].record.size();
  if (bytes_ <= most_bytes) return;
  bytes_ = 0;
  for (std::size_t i = 0; 2 * i < samples_.size(); ++i) {
    samples_[i] = std::move(samples_[2 * i]);
    bytes_ += sizeof(RunSample) + samples_[i].record.size();
  }
  samples_.resize((samples_.size() + 1) / 2);
  counted_ = samples_.size();
  stride_ *= 2;
  run.keep_samples(stride_, 0, samples_);
}

bool looks_nearly_sorted(const Chunk& sorted, std::uint64_t window) {
  const auto& recs = sorted.records;
  if (recs.empty()) return true;
  std::uint64_t first = UINT64_MAX, bytes = 0;
  for (const RecordEntry& e : recs) {
    first = std::min<std::uint64_t>(first, e.offset);
    bytes += sorted.length(e) + 1;
  }
  // The window's capacity counts entries too; displacements are in record bytes.
  window = static_cast<std::uint64_t>(static_cast<double>(window) * static_cast<double>(bytes) /
                                      static_cast<double>(bytes + recs.size() * ChunkReader::kRecordOverhead));
  std::uint64_t place = 0, far = 0;
  for (const RecordEntry& e : recs) {
    const std::uint64_t read_at = e.offset - first;
    if ((read_at > place ? read_at - place : place - read_at) > window) ++far;
    place += sorted.length(e) + 1;
  }
  return far * 4 <= recs.size();
}

Chunk chunk_part(const Chunk& chunk, std::size_t first, std::size_t last) {
  Chunk c;
  c.mapped = chunk.data();
  c.records.resize(last - first);
  std::copy(chunk.records.begin() + static_cast<std::ptrdiff_t>(first),
            chunk.records.begin() + static_cast<std::ptrdiff_t>(last), c.records.begin());
  c.long_records = chunk.long_records;
  return c;
}

}  // namespace corank::text
