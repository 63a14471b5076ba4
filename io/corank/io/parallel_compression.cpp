// compress_pieces and parallel_compressing_sink (compressed_stream.hpp). The
// sink: the bytes written are cut
// into pieces, a batch of `threads` pieces is compressed at once, each piece
// its own stream on its own thread, and the batch's streams are written to
// the inner sink in order. Streams one after another decompress as one, so
// the reader needs nothing of this.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/io/thread_pool.hpp"
#include "corank/io/worker_pool.hpp"

namespace corank::io {

namespace {

class ParallelCompressingSink final : public ByteSink {
public:
  ParallelCompressingSink(std::unique_ptr<ByteSink> inner, Codec codec, std::string name, unsigned threads,
                          std::size_t piece_bytes, CompressionLevel level)
      : inner_(std::move(inner)), codec_(codec), name_(std::move(name)), level_(level),
        piece_(std::max<std::size_t>(piece_bytes, 1)), batch_(piece_ * threads), packed_(threads) {}

  void write(const void* src, std::size_t n) override {
    auto p = static_cast<const std::byte*>(src);
    written_ += n;
    while (n > 0) {
      if (pending_.empty() && n >= batch_) {  // whole batches straight from the caller's bytes
        compress(p, batch_);
        p += batch_;
        n -= batch_;
        continue;
      }
      const std::size_t take = std::min(n, batch_ - pending_.size());
      pending_.insert(pending_.end(), p, p + take);
      p += take;
      n -= take;
      if (pending_.size() == batch_) {
        compress(pending_.data(), batch_);
        pending_.clear();
      }
    }
  }

  // Nothing written is still one (empty) stream, as compressing_sink's. A
  // finished sink holds no buffers: a sorter may keep finished sinks about.
  void finish() override {
    if (!pending_.empty() || written_ == 0) compress(pending_.data(), pending_.size());
    std::vector<std::byte>().swap(pending_);
    for (auto& p : packed_) std::string().swap(p);
    inner_->finish();
  }

  std::uint64_t bytes_written() const override { return written_; }
  std::uint64_t stored_bytes() const override { return inner_->stored_bytes(); }

private:
  // Compresses [p, p + n) in pieces at once, then writes them in order.
  void compress(const std::byte* p, std::size_t n) {
    const auto pieces = std::max(1u, static_cast<unsigned>((n + piece_ - 1) / piece_));
    compress_pieces(pieces, codec_, level_, name_, packed_, [&](unsigned t, ByteSink& sink) {
      const std::size_t at = t * piece_;
      if (n > at) sink.write(p + at, std::min(piece_, n - at));
    });
    for (unsigned t = 0; t < pieces; ++t) inner_->write(packed_[t].data(), packed_[t].size());
  }

  std::unique_ptr<ByteSink> inner_;
  Codec codec_;
  std::string name_;
  CompressionLevel level_;
  const std::size_t piece_, batch_;
  std::vector<std::string> packed_;  // one piece's stream each
  std::vector<std::byte> pending_;   // bytes short of a batch
  std::uint64_t written_ = 0;
};

}  // namespace

void compress_pieces(unsigned n, Codec codec, CompressionLevel level, const std::string& name,
                     std::vector<std::string>& packed, const std::function<void(unsigned, ByteSink&)>& fill) {
  ThreadPool::shared().run(n, [&](unsigned t) {
    packed[t].clear();
    auto sink = compressing_sink(std::make_unique<StringSink>(packed[t]), codec, name, level);
    fill(t, *sink);
    sink->finish();
  });
}

std::unique_ptr<ByteSink> parallel_compressing_sink(std::unique_ptr<ByteSink> inner, Codec codec, std::string name,
                                                    unsigned threads, std::size_t piece_bytes,
                                                    CompressionLevel level) {
  if (codec == Codec::none) return inner;
  if (threads <= 1) return compressing_sink(std::move(inner), codec, std::move(name), level);
  return std::make_unique<ParallelCompressingSink>(std::move(inner), codec, std::move(name), threads, piece_bytes,
                                                   level);
}

}  // namespace corank::io
