#include "corank/mpi/binning.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/mpi/communicator.hpp"
#include "corank/parallel.hpp"

namespace corank::mpi {

Binning::Binning(unsigned parts, unsigned threads, std::uint32_t record_size, char term)
    : parts_(parts), threads_(std::max(threads, 1u)), record_size_(record_size), term_(term),
      extra_(record_size ? 0 : 1), region_(parts, 0), size_(parts, 0) {}

std::pair<std::size_t, std::size_t> Binning::slice(std::size_t records, unsigned t) const {
  return {records * t / slices_, records * (t + 1) / slices_};
}

void Binning::split_into_slices(std::size_t records) {
  slices_ = static_cast<unsigned>(std::clamp<std::size_t>(records / 4096, 1, threads_));
  slice_bytes_.assign(slices_, ThreadCounters(parts_));
}

void Binning::find_parts(std::vector<ShareRecord>& records, const Partitioner& partitioner) {
  records_ = &records;
  split_into_slices(records.size());
  parallel_for(slices_, [&](unsigned t) {
    const auto [b, e] = slice(records.size(), t);
    ThreadCounters& bytes = slice_bytes_[t];
    for (std::size_t i = b; i < e; ++i) {
      ShareRecord& r = records[i];
      r.part = partitioner.part_of(std::string_view(r.data, r.size), r.position);
      bytes[r.part] += r.size + extra_;
    }
  });
  place_parts();
}

void Binning::find_parts(const char* block, std::uint64_t bytes, std::uint64_t position, const PartFinder& finder) {
  block_ = block;
  block_records_ = static_cast<std::size_t>(bytes / record_size_);
  block_parts_.resize(block_records_);
  split_into_slices(block_records_);
  parallel_for(slices_, [&](unsigned t) {
    const auto [b, e] = slice(block_records_, t);
    std::uint64_t* part_bytes = slice_bytes_[t].data();
    for (std::size_t i = b; i < e; ++i) {
      const unsigned part =
          finder.part_of(reinterpret_cast<const std::byte*>(block + i * record_size_), position + i * record_size_);
      block_parts_[i] = part;
      part_bytes[part] += record_size_;
    }
  });
  place_parts();
}

void Binning::place_parts() {
  std::uint64_t at = 0;
  for (unsigned d = 0; d < parts_; ++d) {
    region_[d] = at;
    size_[d] = 0;
    for (unsigned t = 0; t < slices_; ++t) {
      const std::uint64_t n = slice_bytes_[t][d];
      slice_bytes_[t][d] = at;  // now where slice t's records for d start
      at += n;
      size_[d] += n;
    }
  }
  if (at > kMaxRoundBytes) throw InputError("a line of over 1 GiB cannot be exchanged");
  grouped_.resize(static_cast<std::size_t>(at));
}

void Binning::group(unsigned self, std::byte* kept) {
  // Where the next record of `part` goes: into `kept` for this rank's own part.
  auto destination = [&](ThreadCounters& to, unsigned part) {
    return kept && part == self ? reinterpret_cast<char*>(kept) + (to[self] - region_[self])
                                : grouped_.data() + to[part];
  };
  parallel_for(slices_, [&](unsigned t) {
    ThreadCounters& to = slice_bytes_[t];
    if (record_size_) {
      const auto [b, e] = slice(block_records_, t);
      for (std::size_t i = b; i < e; ++i) {
        const unsigned part = block_parts_[i];
        std::memcpy(destination(to, part), block_ + i * record_size_, record_size_);
        to[part] += record_size_;
      }
      return;
    }
    const std::vector<ShareRecord>& records = *records_;
    const auto [b, e] = slice(records.size(), t);
    for (std::size_t i = b; i < e; ++i) {
      const ShareRecord& r = records[i];
      char* dst = destination(to, r.part);
      std::memcpy(dst, r.data, r.size);
      if (extra_) dst[r.size] = term_;
      to[r.part] += r.size + extra_;
    }
  });
}

void Binning::release() {
  grouped_.reset();
  block_parts_.reset();
}

}  // namespace corank::mpi
