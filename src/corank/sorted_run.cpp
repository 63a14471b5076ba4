#include "corank/sorted_run.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "corank/io/error.hpp"
#include "corank/io/run_file.hpp"

namespace corank {

namespace {
constexpr std::uint64_t kMinPart = std::uint64_t{1} << 20;  // bytes a thread copies at least
constexpr std::uint64_t kMinSinkBlock = std::uint64_t{64} << 10;  // a run sink's smallest write
const std::string kTemp = "temporary file";

void need_ranges(RunStore store, const char* what) {
  if (store == RunStore::compressed)
    throw std::logic_error(std::string("a compressed run has no ") + what + " by ranges");
}
}  // namespace

SortedRun::SortedRun(std::uint64_t count, std::uint64_t base, std::uint32_t record_size, RunStore store,
                     io::TempDirectories& temps)
    : store_(store), count_(count), base_(base), allocated_(count * record_size), R_(record_size) {
  if (store == RunStore::memory)
    memory_ = io::HugeVector<std::byte>(count * R_);
  else
    file_ = temps.create_anonymous();
}

void SortedRun::release() noexcept {
  memory_.reset();
  file_.reset();
  count_ = 0;
  released_ = true;
}

SortedRun::Writer::Writer(SortedRun& run, const io::IoOptions& opt, io::WorkerPool& pool) : run_(run), pool_(pool) {
  if (run.store_ == RunStore::compressed) sink_ = run.sink(opt, pool.size());
}

void SortedRun::Writer::append(const std::byte* src, std::uint64_t n) {
  if (sink_)
    sink_->write(src, n * run_.R_);
  else
    run_.write(written_, src, n, pool_);
  written_ += n;
}

void SortedRun::Writer::finish() {
  if (sink_) sink_->finish();
  sink_.reset();
  run_.truncate(written_);
}

void SortedRun::write(std::uint64_t first, const std::byte* src, std::uint64_t n, io::WorkerPool& pool) {
  need_ranges(store_, "writes");
  const std::uint64_t at = first * R_;
  pool.for_ranges(n * R_, kMinPart, R_, [&](std::uint64_t b, std::uint64_t e) {
    if (store_ == RunStore::memory)
      std::memcpy(memory_.data() + at + b, src + b, e - b);
    else
      io::pwrite_full(file_.get(), src + b, e - b, at + b, kTemp);
  });
}

void SortedRun::read(std::uint64_t first, std::uint64_t n, std::byte* dst, io::WorkerPool& pool) const {
  need_ranges(store_, "reads");
  const std::uint64_t at = first * R_;
  pool.for_ranges(n * R_, kMinPart, R_, [&](std::uint64_t b, std::uint64_t e) {
    if (store_ == RunStore::memory)
      std::memcpy(dst + b, memory_.data() + at + b, e - b);
    else if (io::pread_full(file_.get(), dst + b, e - b, at + b, kTemp) != e - b)
      throw io::IoError("read failed", kTemp, "run ended early");
  });
}

const std::byte* SortedRun::peek(std::uint64_t first, std::uint64_t n, std::vector<std::byte>& buf) const {
  need_ranges(store_, "reads");
  if (store_ == RunStore::memory) return memory_.data() + first * R_;
  buf.resize(n * R_);
  if (io::pread_full(file_.get(), buf.data(), buf.size(), first * R_, kTemp) != buf.size())
    throw io::IoError("read failed", kTemp, "run ended early");
  return buf.data();
}

// A sink allocates and touches its queue_depth blocks when it starts: they
// hold at most the run (merge passes write many small runs, and 8 blocks of
// 4 MiB each cost more than sorting them). Blocks stay at least 64 KiB, which
// are mapped and return to the system when the sink finishes.
std::unique_ptr<io::ByteSink> SortedRun::sink(const io::IoOptions& opt, unsigned threads) {
  if (store_ == RunStore::memory) throw std::logic_error("a run in memory has no sink");
  io::IoOptions sized = opt;
  const unsigned depth = std::max(1u, opt.queue_depth);
  const std::uint64_t block = std::clamp<std::uint64_t>(std::bit_ceil(allocated_ / depth + 1), kMinSinkBlock,
                                                        std::max<std::uint64_t>(opt.block_size, kMinSinkBlock));
  sized.block_size = static_cast<std::size_t>(block);
  sized.queue_depth = static_cast<unsigned>(std::clamp<std::uint64_t>((allocated_ + block - 1) / block, 1, depth));
  if (store_ == RunStore::compressed) return io::make_run_sink(file_.get(), kTemp, sized, threads);
  io::IoOptions plain = sized;
  plain.temp_codec = io::Codec::none;
  plain.temp_program.clear();
  return io::make_run_sink(file_.get(), kTemp, plain);
}

SortedRun::Reader::Reader(const SortedRun& run, const io::IoOptions& opt) : run_(run) {
  if (run.store_ != RunStore::compressed) return;
  io::IoOptions small = opt;
  small.block_size = std::size_t{256} << 10;
  small.queue_depth = 2;
  source_ = io::make_run_source(run.file_.get(), kTemp, small);
}

void SortedRun::Reader::fill(std::uint64_t upto) {
  if (upto <= end_) return;
  const std::uint32_t R = run_.R_;
  if (head_ > 0 && head_ >= buffer_.size() / 2) {  // drop what was taken, at most a copy of what is left
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  const std::size_t have = buffer_.size();
  buffer_.resize(have + (upto - end_) * R);
  const std::size_t got = source_->read(buffer_.data() + have, (upto - end_) * R);
  if (got != (upto - end_) * R) throw io::IoError("read failed", kTemp, "run ended early");
  end_ = upto;
}

const std::byte* SortedRun::Reader::stretch(std::uint64_t first, std::uint64_t last) {
  if (first < taken_) throw std::logic_error("a run reader went back");
  if (!source_) return run_.peek(first, last - first, buffer_);
  fill(last);
  return buffer_.data() + head_ + (first - taken_) * run_.R_;
}

void SortedRun::Reader::take(std::uint64_t upto, std::byte* dst, io::WorkerPool* pool) {
  if (upto < taken_) throw std::logic_error("a run reader went back");
  const std::uint64_t n = upto - taken_;
  const std::uint32_t R = run_.R_;
  if (n == 0) return;
  if (source_) {
    // What the buffer holds, then the rest straight from the stream.
    const std::uint64_t buffered = std::min(upto, end_) - taken_;
    if (buffered) std::memcpy(dst, buffer_.data() + head_, buffered * R);
    head_ += buffered * R;
    if (head_ == buffer_.size()) {
      buffer_.clear();
      head_ = 0;
    }
    if (upto > end_) {
      const std::size_t want = (upto - end_) * R;
      if (source_->read(dst + buffered * R, want) != want)
        throw io::IoError("read failed", kTemp, "run ended early");
      end_ = upto;
    }
  } else if (pool) {
    run_.read(taken_, n, dst, *pool);
  } else if (run_.store_ == RunStore::memory) {
    std::memcpy(dst, run_.memory_.data() + taken_ * R, n * R);
  } else if (io::pread_full(run_.file_.get(), dst, n * R, taken_ * R, kTemp) != n * R) {
    throw io::IoError("read failed", kTemp, "run ended early");
  }
  taken_ = upto;
}

std::optional<io::Segment> SortedRun::Reader::take_later(std::uint64_t upto, std::byte* dst) {
  if (run_.store_ != RunStore::file) return std::nullopt;
  if (upto < taken_) throw std::logic_error("a run reader went back");
  const std::uint32_t R = run_.R_;
  io::Segment s{run_.file_.get(), taken_ * R, dst, (upto - taken_) * R};
  taken_ = upto;
  return s;
}

}  // namespace corank
