#pragma once
// zstd as Boost.Iostreams filters. Boost 1.74 ships zstd filters, but its
// decompressor returns a truncated or corrupted stream's partial output as if
// it were complete, and its compressor cannot turn on zstd's content checksum.
// These do both: every frame written carries a checksum, and end of input
// in the middle of a frame is an error.
#include <zstd.h>

#include <boost/iostreams/concepts.hpp>
#include <boost/iostreams/operations.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace corank::io::detail {

struct ZstdError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ZstdDecompressor : public boost::iostreams::multichar_input_filter {
public:
  ZstdDecompressor() : st_(std::make_shared<State>()) {}

  template <typename Source>
  std::streamsize read(Source& src, char* s, std::streamsize n) {
    State& st = *st_;
    ZSTD_outBuffer out{s, static_cast<std::size_t>(n), 0};
    for (;;) {
      if (st.in.pos == st.in.size && !st.src_eof) {
        std::streamsize got = boost::iostreams::read(src, st.buf.data(), static_cast<std::streamsize>(st.buf.size()));
        if (got < 0) {
          st.src_eof = true;
        } else {
          st.in = {st.buf.data(), static_cast<std::size_t>(got), 0};
          st.seen_input |= got > 0;
        }
      }
      const bool no_more_input = st.in.pos == st.in.size && st.src_eof;
      if (no_more_input && !st.mid_frame) {
        if (!st.seen_input) throw ZstdError("empty input");
        return out.pos ? static_cast<std::streamsize>(out.pos) : -1;
      }
      const std::size_t before = out.pos;
      const std::size_t r = ZSTD_decompressStream(st.dctx.get(), &out, &st.in);
      if (ZSTD_isError(r)) throw ZstdError(ZSTD_getErrorName(r));
      st.mid_frame = r != 0;
      if (out.pos == out.size) return static_cast<std::streamsize>(out.pos);
      if (no_more_input && st.mid_frame && out.pos == before) throw ZstdError("truncated input");
      if (out.pos > 0 && st.in.pos == st.in.size) return static_cast<std::streamsize>(out.pos);
    }
  }

  template <typename Source>
  void close(Source&) {
    st_ = std::make_shared<State>();
  }

private:
  struct DctxFree {
    void operator()(ZSTD_DCtx* p) const noexcept { ZSTD_freeDCtx(p); }
  };
  struct State {
    std::unique_ptr<ZSTD_DCtx, DctxFree> dctx{ZSTD_createDCtx()};
    std::vector<char> buf = std::vector<char>(ZSTD_DStreamInSize());
    ZSTD_inBuffer in{nullptr, 0, 0};
    bool src_eof = false;
    bool mid_frame = false;  // between a frame's first byte and its end
    bool seen_input = false;
  };
  std::shared_ptr<State> st_;  // Boost copies filters; the copies share one stream
};

class ZstdCompressor : public boost::iostreams::multichar_output_filter {
public:
  explicit ZstdCompressor(int level = 3) : st_(std::make_shared<State>()) {
    ZSTD_CCtx_setParameter(st_->cctx.get(), ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(st_->cctx.get(), ZSTD_c_checksumFlag, 1);
  }

  template <typename Sink>
  std::streamsize write(Sink& snk, const char* s, std::streamsize n) {
    ZSTD_inBuffer in{s, static_cast<std::size_t>(n), 0};
    while (in.pos < in.size) run(snk, in, ZSTD_e_continue);
    return n;
  }

  template <typename Sink>
  void close(Sink& snk) {
    ZSTD_inBuffer in{nullptr, 0, 0};
    while (run(snk, in, ZSTD_e_end) != 0) {
    }
    ZSTD_CCtx_reset(st_->cctx.get(), ZSTD_reset_session_only);
  }

private:
  template <typename Sink>
  std::size_t run(Sink& snk, ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
    State& st = *st_;
    ZSTD_outBuffer out{st.buf.data(), st.buf.size(), 0};
    const std::size_t r = ZSTD_compressStream2(st.cctx.get(), &out, &in, mode);
    if (ZSTD_isError(r)) throw ZstdError(ZSTD_getErrorName(r));
    const char* p = st.buf.data();
    std::streamsize left = static_cast<std::streamsize>(out.pos);
    while (left > 0) {
      std::streamsize w = boost::iostreams::write(snk, p, left);
      p += w;
      left -= w;
    }
    return r;
  }
  struct CctxFree {
    void operator()(ZSTD_CCtx* p) const noexcept { ZSTD_freeCCtx(p); }
  };
  struct State {
    std::unique_ptr<ZSTD_CCtx, CctxFree> cctx{ZSTD_createCCtx()};
    std::vector<char> buf = std::vector<char>(ZSTD_CStreamOutSize());
  };
  std::shared_ptr<State> st_;
};

}  // namespace corank::io::detail
