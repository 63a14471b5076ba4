#include "corank/io/compressed_stream.hpp"

#include <algorithm>
#include <array>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cstring>

#include "corank/io/error.hpp"
#include "corank/io/zstd_filter.hpp"

namespace corank::io {

namespace bio = boost::iostreams;

namespace {

constexpr std::streamsize kChainBuffer = std::streamsize{1} << 18;

// ByteSource/ByteSink as Boost.Iostreams devices. Their IoErrors pass through
// the stream unchanged (the streams rethrow what a device throws).
class SourceDevice {
public:
  using char_type = char;
  using category = bio::source_tag;
  explicit SourceDevice(ByteSource* s) : s_(s) {}
  std::streamsize read(char* p, std::streamsize n) {
    std::size_t k = s_->read(p, static_cast<std::size_t>(n));
    return k == 0 ? -1 : static_cast<std::streamsize>(k);
  }

private:
  ByteSource* s_;
};

class SinkDevice {
public:
  using char_type = char;
  using category = bio::sink_tag;
  explicit SinkDevice(ByteSink* s) : s_(s) {}
  std::streamsize write(const char* p, std::streamsize n) {
    s_->write(p, static_cast<std::size_t>(n));
    return n;
  }

private:
  ByteSink* s_;
};

class DecompressingSource final : public ByteSource {
public:
  // by_header: the codec was told by the stream's first bytes, not by a
  // name or an option; the error then says so.
  DecompressingSource(std::unique_ptr<ByteSource> inner, Codec c, bool by_header = false)
      : ByteSource(inner->name()), inner_(std::move(inner)), codec_(c), by_header_(by_header) {
    switch (c) {
      case Codec::gzip: in_.push(bio::gzip_decompressor(), kChainBuffer); break;
      case Codec::bzip2: in_.push(bio::bzip2_decompressor(), kChainBuffer); break;
      case Codec::xz: in_.push(bio::lzma_decompressor(), kChainBuffer); break;
      case Codec::zstd: in_.push(detail::ZstdDecompressor(), kChainBuffer); break;
      case Codec::none: break;
    }
    in_.push(SourceDevice(inner_.get()), kChainBuffer);
    in_.exceptions(std::ios::badbit);
  }
  std::size_t read(void* dst, std::size_t n) override {
    if (done_ || n == 0) return 0;
    try {
      in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
    } catch (const IoError&) {
      throw;
    } catch (const std::exception&) {
      // Boost's codec errors carry no useful text ("gzip error: iostream error").
      throw IoError("read failed", name(),
                    "corrupt or truncated " + std::string(codec_name(codec_)) + " stream" +
                        (by_header_ ? " (recognized by its first bytes)" : ""));
    }
    auto k = static_cast<std::size_t>(in_.gcount());
    if (k < n) done_ = true;
    return k;
  }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }
  std::optional<std::uint64_t> file_size() const override { return inner_->file_size(); }

private:
  std::unique_ptr<ByteSource> inner_;
  Codec codec_;
  bool by_header_;
  bio::filtering_istream in_;
  bool done_ = false;
};

class CompressingSink final : public ByteSink {
public:
  CompressingSink(std::unique_ptr<ByteSink> inner, Codec c, std::string name, CompressionLevel level)
      : inner_(std::move(inner)), codec_(c), name_(std::move(name)), fast_(level == CompressionLevel::fast) {}
  void write(const void* src, std::size_t n) override {
    if (n == 0) return;
    if (!open_) build();
    guard([&] { out_.write(static_cast<const char*>(src), static_cast<std::streamsize>(n)); });
    written_ += n;
  }
  void finish() override {
    if (!open_ && written_ == 0 && inner_->bytes_written() == 0) build();  // empty input: still a valid stream
    if (open_) {
      guard([&] { out_.reset(); });
      open_ = false;
    }
    inner_->finish();
  }
  std::uint64_t bytes_written() const override { return written_; }
  std::uint64_t stored_bytes() const override { return inner_->stored_bytes(); }

private:
  void build() {
    switch (codec_) {
      case Codec::gzip:
        out_.push(bio::gzip_compressor(bio::gzip_params(fast_ ? 1 : bio::gzip::default_compression)), kChainBuffer);
        break;
      case Codec::bzip2: out_.push(bio::bzip2_compressor(fast_ ? 1 : 9), kChainBuffer); break;
      case Codec::xz: out_.push(bio::lzma_compressor(bio::lzma_params(fast_ ? 0 : 6)), kChainBuffer); break;
      case Codec::zstd: out_.push(detail::ZstdCompressor(fast_ ? 1 : 3), kChainBuffer); break;
      case Codec::none: break;
    }
    out_.push(SinkDevice(inner_.get()), kChainBuffer);
    out_.exceptions(std::ios::badbit | std::ios::failbit);
    open_ = true;
  }
  template <typename F>
  void guard(F&& f) {
    try {
      f();
    } catch (const IoError&) {
      throw;
    } catch (const std::exception& e) {
      throw IoError("write failed", name_, std::string(codec_name(codec_)) + " compression failed (" + e.what() + ")");
    }
  }
  std::unique_ptr<ByteSink> inner_;
  Codec codec_;
  std::string name_;
  bool fast_;
  bool open_ = false;
  std::uint64_t written_ = 0;
  bio::filtering_ostream out_;
};

class PeekedSource final : public ByteSource {
public:
  explicit PeekedSource(std::unique_ptr<ByteSource> inner) : ByteSource(inner->name()), inner_(std::move(inner)) {
    while (n_ < head_.size()) {
      std::size_t k = inner_->read(head_.data() + n_, head_.size() - n_);
      if (k == 0) break;
      n_ += k;
    }
  }
  Codec codec() const noexcept { return codec_from_magic(head_.data(), n_); }
  std::size_t read(void* dst, std::size_t n) override {
    std::size_t k = std::min(n, n_ - pos_);
    std::memcpy(dst, head_.data() + pos_, k);
    pos_ += k;
    if (k < n) k += inner_->read(static_cast<char*>(dst) + k, n - k);
    return k;
  }
  std::optional<std::uint64_t> size() const override { return inner_->size(); }
  std::optional<std::uint64_t> file_size() const override { return inner_->file_size(); }

private:
  std::unique_ptr<ByteSource> inner_;
  std::array<unsigned char, kCodecMagicBytes> head_{};
  std::size_t n_ = 0, pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> decompressing_source(std::unique_ptr<ByteSource> inner, Codec codec) {
  if (codec == Codec::none) return inner;
  return std::make_unique<DecompressingSource>(std::move(inner), codec);
}

std::unique_ptr<ByteSink> compressing_sink(std::unique_ptr<ByteSink> inner, Codec codec, std::string name,
                                           CompressionLevel level) {
  if (codec == Codec::none) return inner;
  return std::make_unique<CompressingSink>(std::move(inner), codec, std::move(name), level);
}

std::unique_ptr<ByteSource> detect_and_decompress(std::unique_ptr<ByteSource> inner) {
  auto peeked = std::make_unique<PeekedSource>(std::move(inner));
  const Codec c = peeked->codec();
  if (c == Codec::none) return peeked;
  return std::make_unique<DecompressingSource>(std::move(peeked), c, /*by_header=*/true);
}

}  // namespace corank::io
