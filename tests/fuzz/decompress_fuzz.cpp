// Decompression of untrusted bytes with every codec, and by magic bytes: the
// stream either decodes or fails with IoError; nothing may crash or hang.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/source.hpp"

namespace {

class MemorySource final : public corank::io::ByteSource {
public:
  MemorySource(const std::uint8_t* data, std::size_t size) : ByteSource("fuzz input"), data_(data), size_(size) {}
  std::size_t read(void* dst, std::size_t n) override {
    n = std::min(n, size_ - at_);
    std::memcpy(dst, data_ + at_, n);
    at_ += n;
    return n;
  }
  std::optional<std::uint64_t> size() const override { return size_; }

private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

// Reads everything, in odd-sized pieces; at most 64 MiB of output.
void drain(corank::io::ByteSource& s) {
  std::vector<char> buf(12345);
  std::size_t total = 0;
  for (;;) {
    const std::size_t n = s.read(buf.data(), buf.size());
    total += n;
    if (n < buf.size() || total > (std::size_t{64} << 20)) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using corank::io::Codec;
  for (Codec c : {Codec::gzip, Codec::bzip2, Codec::xz, Codec::zstd}) {
    try {
      auto s = corank::io::decompressing_source(std::make_unique<MemorySource>(data, size), c);
      drain(*s);
    } catch (const corank::io::IoError&) {
    }
  }
  try {
    auto s = corank::io::detect_and_decompress(std::make_unique<MemorySource>(data, size));
    drain(*s);
  } catch (const corank::io::IoError&) {
  }
  return 0;
}
