#include "corank/text/run_window.hpp"

#include <algorithm>
#include <cstring>

#include "corank/io/diagnostics.hpp"

namespace corank::text {

namespace {

std::uint64_t window_cost(const RecordEntry& e) { return e.length + 1 + ChunkReader::kRecordOverhead; }

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
  const io::HugeVector<RecordEntry>& window = entries_[current_];
  const char* window_base = bytes_[current_].data();
  const char* chunk_base = chunk.data();
  const std::size_t n = chunk.records.size();
  // The merged records hold their addresses in `offset`: they lie in two buffers.
  merged.resize(window.size() + (n - from));
  const auto at = [](const char* base, const RecordEntry& e) {
    return RecordEntry{e.prefix, reinterpret_cast<std::uintptr_t>(base + e.offset), e.length};
  };
  const auto view = [](const RecordEntry& e) {
    return std::string_view(reinterpret_cast<const char*>(e.offset), static_cast<std::size_t>(e.length));
  };
  std::size_t i = 0, j = from, k = 0;
  while (i < window.size() && j < n) {
    const RecordEntry& c = chunk.records[j];
    const RecordEntry& w = window[i];
    bool chunk_first;
    if (!(c.prefix == w.prefix))
      chunk_first = c.prefix < w.prefix;
    else
      chunk_first = format_.compare(chunk.record(c), {window_base + w.offset, static_cast<std::size_t>(w.length)}) < 0;
    merged[k++] = chunk_first ? at(chunk_base, chunk.records[j++]) : at(window_base, window[i++]);
  }
  for (; i < window.size(); ++i) merged[k++] = at(window_base, window[i]);
  for (; j < n; ++j) merged[k++] = at(chunk_base, chunk.records[j]);

  // The window keeps the largest records that fit it.
  std::size_t cut = k;
  std::uint64_t kept = 0, kept_bytes = 0;
  if (!last)
    while (cut > 0 && kept + window_cost(merged[cut - 1]) <= capacity_) {
      kept += window_cost(merged[cut - 1]);
      kept_bytes += merged[cut - 1].length + 1;
      --cut;
    }
  for (std::size_t r = 0; r < cut; ++r) run.write(view(merged[r]));
  if (cut > 0) {
    last_.assign(view(merged[cut - 1]));
    last_prefix_ = merged[cut - 1].prefix;
    took_any_ = true;
  }

  const int next = current_ ^ 1;
  io::HugeVector<char>& to = bytes_[next];
  io::HugeVector<RecordEntry>& to_entries = entries_[next];
  to.resize(kept_bytes);
  to_entries.resize(k - cut);
  std::uint64_t offset = 0;
  for (std::size_t r = cut; r < k; ++r) {
    const RecordEntry& e = merged[r];
    std::memcpy(to.data() + offset, reinterpret_cast<const char*>(e.offset), static_cast<std::size_t>(e.length));
    to_entries[r - cut] = RecordEntry{e.prefix, offset, e.length};
    offset += e.length + 1;
  }
  entries_[current_].clear();
  bytes_[current_].clear();
  current_ = next;
  merged.clear();
}

Chunk RunWindow::as_chunk() const {
  Chunk c;
  c.mapped = bytes_[current_].data();
  const auto& e = entries_[current_];
  c.records.resize(e.size());
  std::copy(e.begin(), e.end(), c.records.begin());
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
    first = std::min(first, e.offset);
    bytes += e.length + 1;
  }
  // The window's capacity counts entries too; displacements are in record bytes.
  window = static_cast<std::uint64_t>(static_cast<double>(window) * static_cast<double>(bytes) /
                                      static_cast<double>(bytes + recs.size() * ChunkReader::kRecordOverhead));
  std::uint64_t place = 0, far = 0;
  for (const RecordEntry& e : recs) {
    const std::uint64_t read_at = e.offset - first;
    if ((read_at > place ? read_at - place : place - read_at) > window) ++far;
    place += e.length + 1;
  }
  return far * 4 <= recs.size();
}

Chunk chunk_part(const Chunk& chunk, std::size_t first, std::size_t last) {
  Chunk c;
  c.mapped = chunk.data();
  c.records.resize(last - first);
  std::copy(chunk.records.begin() + static_cast<std::ptrdiff_t>(first),
            chunk.records.begin() + static_cast<std::ptrdiff_t>(last), c.records.begin());
  return c;
}

}  // namespace corank::text
