// The GPU record device against the CPU: key extraction against
// KeyNormalizer for every key type; whole-record sorts, merges of sorted
// segments, pieces arranged in another order, and -u against
// std::stable_sort, through staging slots smaller than the data; words-only
// records turned back byte for byte; the transfer ring's pieces and times.
// Plain C++20 (it uses src/ headers); skips with a reason without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/key_extract.cuh"
#include "corank/gpu/record_sorter.cuh"
#include "corank/gpu/transfer_ring.cuh"
#include "corank/gpu_backend.hpp"
#include "corank/gpu_gate.hpp"
#include "corank/gpu_key_layout.hpp"
#include "corank/normalize.hpp"

#include "gpu_skip.hpp"
#include "../record_reference.hpp"

namespace corank {
namespace {

struct FormatCase {
  const char* format;
  std::vector<std::string> keys;
};

// Every key type, endianness and direction, in formats of 1- and 2-word keys.
std::vector<FormatCase> format_cases() {
  return {
      {"u32", {}},
      {"u64", {}},
      {"i32", {}},
      {"i64", {}},
      {"f32", {}},
      {"f64", {}},
      {"gensort", {}},
      {"fixed:24", {"0:1:u8", "1:2:u16be", "3:1:i8", "4:2:i16", "6:4:i32be:desc", "10:4:f32be"}},
      {"fixed:24", {"0:8:u64be", "8:8:i64be:desc"}},
      {"fixed:24", {"0:8:f64be:desc", "8:3"}},
      {"fixed:24", {"0:4:u32:desc", "4:4:f32:desc", "8:4:i32", "12:2:u16"}},
      {"fixed:16", {"0:5:bytes:desc", "5:2:i16be"}},
      {"fixed:20", {"2:10"}},
      {"fixed:12", {"4:8:f64:desc"}},
      {"fixed:9", {"1:8:i64:desc"}},
  };
}

std::string name_of(const FormatCase& c) {
  std::string s = c.format;
  for (const auto& k : c.keys) s += " " + k;
  return s;
}

// Random bytes, with some records made of 0x00, 0xFF, 0x80 and 0x7F runs so
// zeros, infinities, NaNs and the sign boundaries turn up.
std::vector<std::byte> make_records(std::uint32_t R, std::uint64_t n, std::uint64_t seed, const char* kind) {
  std::vector<std::byte> v(n * R);
  std::mt19937_64 rng(seed);
  const std::string k = kind;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::byte* r = v.data() + i * R;
    if (k == "equal") {
      std::memset(r, 0x5A, R);
    } else if (k == "duplicates") {
      const auto b = static_cast<unsigned char>(rng() % 3 * 0x7F);  // 0x00, 0x7F, 0xFE
      std::memset(r, b, R);
      r[R - 1] = static_cast<std::byte>(rng());  // payload differs, keys mostly do not
    } else {
      for (std::uint32_t j = 0; j < R; ++j) r[j] = static_cast<std::byte>(rng());
      if (rng() % 8 == 0) {
        static const unsigned char fills[] = {0x00, 0xFF, 0x80, 0x7F};
        const auto f = fills[rng() % 4];
        const std::uint32_t at = static_cast<std::uint32_t>(rng() % R);
        std::memset(r + at, f, R - at);
      }
    }
  }
  return v;
}

TEST(GpuKeyExtraction, MatchesKeyNormalizerForEveryKeyType) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const auto& c : format_cases()) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = parse_format(c.format, c.keys);
    const KeyNormalizer norm(format);
    const unsigned W = format.key_words();
    ASSERT_LE(W, gpu::kMaxGpuKeyWords);
    const std::uint64_t n = 5000;
    const auto records = make_records(format.record_size, n, 42 + W, "random");
    gpu::DeviceBuffer<std::byte> d_records(records.size());
    gpu::DeviceBuffer<std::uint64_t> d_keys(n * W);
    gpu::DeviceBuffer<std::uint32_t> d_index(n);
    ASSERT_EQ(cudaMemcpy(d_records.data(), records.data(), records.size(), cudaMemcpyHostToDevice), cudaSuccess);
    gpu::extract_keys(to_key_layout(format), d_records.data(), n, d_keys.data(), d_index.data(), nullptr);
    std::vector<std::uint64_t> keys(n * W);
    std::vector<std::uint32_t> index(n);
    ASSERT_EQ(cudaMemcpy(keys.data(), d_keys.data(), keys.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(index.data(), d_index.data(), n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    std::uint64_t want[8];
    for (std::uint64_t i = 0; i < n; ++i) {
      norm.normalize(records.data() + i * format.record_size, want);
      for (unsigned w = 0; w < W; ++w) ASSERT_EQ(keys[i * W + w], want[w]) << "record " << i << " word " << w;
      ASSERT_EQ(index[i], i);
    }
  }
}


// Uploads `in` piece by piece, sorts it (segments: sorted input to merge),
// and downloads the result, checking the pieces come in order.
std::vector<std::byte> device_sort(RecordDevice& d, std::uint32_t R, const std::vector<std::byte>& in,
                                   const std::vector<std::uint64_t>& ends, KeepEqual keep) {
  const std::uint64_t n = in.size() / R;
  const std::uint64_t up = d.upload(0, n, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
    const std::uint64_t c = std::min(max, n - first);
    std::memcpy(dst, in.data() + first * R, c * R);
    return c;
  });
  EXPECT_EQ(up, n);
  const std::uint64_t kept = d.sort(n, ends, keep);
  std::vector<std::byte> out(kept * R);
  std::uint64_t next = 0;
  d.download(kept, [&](const std::byte* src, std::uint64_t first, std::uint64_t count) {
    EXPECT_EQ(first, next);
    std::memcpy(out.data() + first * R, src, count * R);
    next = first + count;
  });
  EXPECT_EQ(next, kept);
  return out;
}

std::unique_ptr<RecordDevice> open_device(const RecordFormat& format, std::uint64_t budget, std::size_t slot) {
  return gpu_backend::open_record_device(format, budget, 0, slot, 3);
}

// Every format, sizes around a staging slot, random, duplicate-heavy and
// all-equal keys, with and without -u: the device's output is the stable
// sort's, byte for byte.
TEST(GpuRecordSorter, WholeRecordsEqualAStableSort) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const auto& c : format_cases()) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = parse_format(c.format, c.keys);
    const std::uint32_t R = format.record_size;
    auto d = open_device(format, 64 << 20, 1000 * R);
    for (const char* kind : {"random", "duplicates", "equal"})
      for (std::uint64_t n : {0, 1, 999, 1000, 1001, 100000}) {
        SCOPED_TRACE(std::string(kind) + " n=" + std::to_string(n));
        const auto in = make_records(R, n, n * 3 + R, kind);
        EXPECT_TRUE(device_sort(*d, R, in, {}, KeepEqual::all) == test::reference_sort(format, in, false));
        EXPECT_TRUE(device_sort(*d, R, in, {}, KeepEqual::first) == test::reference_sort(format, in, true));
      }
    EXPECT_GT(d->times().sort, 0.0);
  }
}

// Pieces uploaded in one order and arranged in another (records sent up as
// they arrive, put in input order): the sort gives the stable order of the
// arranged records, an empty piece among them, and the device sorts again
// after it (its input and output areas traded places).
TEST(GpuRecordSorter, ArrangedPiecesSortInTheirNewOrder) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u64", "gensort"}) {
    SCOPED_TRACE(f);
    const RecordFormat format = parse_format(f, {});
    const std::uint32_t R = format.record_size;
    auto d = open_device(format, 64 << 20, 700 * R);
    const auto in = make_records(R, 9000, 17, "duplicates");
    // Uploaded as [0, 4000) [4000, 4000) [4000, 5500) [5500, 9000); arranged 3, 1, 0, 2.
    const std::vector<RecordDevice::Piece> pieces{{5500, 3500}, {4000, 0}, {0, 4000}, {4000, 1500}};
    EXPECT_EQ(d->upload(0, 9000, [&](std::byte* dst, std::uint64_t first, std::uint64_t max) {
      const std::uint64_t c = std::min<std::uint64_t>(max, 9000 - first);
      std::memcpy(dst, in.data() + first * R, c * R);
      return c;
    }), 9000u);
    d->arrange(pieces);
    std::vector<std::byte> arranged;
    for (const auto& p : pieces)
      arranged.insert(arranged.end(), in.begin() + p.at * R, in.begin() + (p.at + p.count) * R);
    std::vector<std::byte> out(9000 * R);
    ASSERT_EQ(d->sort(9000, {}, KeepEqual::all), 9000u);
    d->download(9000, [&](const std::byte* src, std::uint64_t first, std::uint64_t count) {
      std::memcpy(out.data() + first * R, src, count * R);
    });
    EXPECT_TRUE(out == test::reference_sort(format, arranged, false));
    EXPECT_TRUE(device_sort(*d, R, in, {}, KeepEqual::first) == test::reference_sort(format, in, true));
  }
}

// A merge slab: k sorted segments back to back merge into the stable order of
// their concatenation, for k from 1 to 9 (odd counts leave one out per round)
// and empty segments among them.
TEST(GpuRecordSorter, SortedSegmentsMergeStably) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u64", "gensort", "fixed:24 0:4:u32:desc 4:4:f32:desc 8:4:i32 12:2:u16"}) {
    SCOPED_TRACE(f);
    std::string name = f;
    std::vector<std::string> keys;
    if (auto sp = name.find(' '); sp != std::string::npos) {
      std::string rest = name.substr(sp + 1);
      name = name.substr(0, sp);
      for (std::size_t b = 0; b < rest.size();) {
        const std::size_t e = std::min(rest.find(' ', b), rest.size());
        keys.push_back(rest.substr(b, e - b));
        b = e + 1;
      }
    }
    const RecordFormat format = parse_format(name, keys);
    const std::uint32_t R = format.record_size;
    auto d = open_device(format, 64 << 20, 4096 * R);
    for (const char* kind : {"random", "duplicates"})
      for (unsigned k = 1; k <= 9; ++k) {
        SCOPED_TRACE(std::string(kind) + " k=" + std::to_string(k));
        std::vector<std::byte> in;
        std::vector<std::uint64_t> ends;
        for (unsigned s = 0; s < k; ++s) {
          const std::uint64_t len = s == 3 ? 0 : 500 * s + 77;
          const auto seg = test::reference_sort(format, make_records(R, len, 100 * k + s, kind), false);
          in.insert(in.end(), seg.begin(), seg.end());
          ends.push_back(in.size() / R);
        }
        EXPECT_TRUE(device_sort(*d, R, in, ends, KeepEqual::all) == test::reference_sort(format, in, false));
        EXPECT_TRUE(device_sort(*d, R, in, ends, KeepEqual::first) == test::reference_sort(format, in, true));
      }
    EXPECT_GT(d->times().merge, 0.0);
  }
}

// -u across sorts: a sort told to continue drops records equal to the last
// one the previous sort kept.
TEST(GpuRecordSorter, UniqueContinuesAcrossSorts) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u32", "gensort"}) {
    const RecordFormat format = parse_format(f, {});
    const std::uint32_t R = format.record_size;
    auto d = open_device(format, 16 << 20, 1 << 16);
    auto a = make_records(R, 3000, 1, "equal");
    auto b = make_records(R, 3000, 2, "equal");
    const auto first = device_sort(*d, R, a, {}, KeepEqual::first);
    EXPECT_EQ(first.size(), R);
    EXPECT_TRUE(device_sort(*d, R, b, {}, KeepEqual::continued).empty());
    EXPECT_EQ(device_sort(*d, R, b, {}, KeepEqual::first).size(), R);
  }
}

// -u on a sort larger than one selection piece: the pieces' selections land
// back to back (pieces of 1000 here, 2^30 in use).
TEST(GpuRecordSorter, UniqueSelectsInPieces) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u64", "gensort"})
  for (const char* kind : {"random", "duplicates"}) {
    SCOPED_TRACE(std::string(f) + " " + kind);
    const RecordFormat format = parse_format(f, {});
    const std::uint32_t R = format.record_size;
    const auto in = make_records(R, 54321, 5, kind);
    auto want = test::reference_sort(format, in, true);
    gpu::TransferRing ring(1 << 20, 3);
    gpu::RecordSorter sorter(to_key_layout(format), in.size() / R, ring, 1000);
    const std::uint64_t n = in.size() / R;
    sorter.upload(0, n, [&](std::byte* dst, std::uint64_t off, std::size_t bytes) {
      std::memcpy(dst, in.data() + off, bytes);
      return bytes;
    });
    const std::uint64_t kept = sorter.sort(n, nullptr, 0, gpu::Unique::first);
    std::vector<std::byte> out(kept * R);
    sorter.download(kept, [&](const std::byte* src, std::uint64_t off, std::size_t bytes) {
      std::memcpy(out.data() + off, src, bytes);
    });
    EXPECT_TRUE(out == want);
  }
}

// An input uploaded run by run, each run presorted on the side stream while
// the next uploads, then merged as segments: the stable sort of the whole
// input, for words-only and indexed records, runs of uneven and zero length,
// with and without -u; a sort without presorts on the same sorter after it.
TEST(GpuRecordSorter, PresortedRunsMergeIntoTheStableSort) {
  CORANK_SKIP_WITHOUT_GPU();
  for (const char* f : {"u64", "f64", "u32", "gensort"})
    for (const char* kind : {"random", "duplicates", "equal"}) {
      SCOPED_TRACE(std::string(f) + " " + kind);
      const RecordFormat format = parse_format(f, {});
      const std::uint32_t R = format.record_size;
      const std::uint64_t n = 100003;
      const auto in = make_records(R, n, 17, kind);
      gpu::TransferRing ring(4096 * R, 3);
      gpu::RecordSorter sorter(to_key_layout(format), n, ring);
      auto upload = [&](std::uint64_t at, std::uint64_t count) {
        const std::uint64_t up = sorter.upload(at, count, [&](std::byte* dst, std::uint64_t off, std::size_t bytes) {
          std::memcpy(dst, in.data() + at * R + off, bytes);
          return bytes;
        });
        EXPECT_EQ(up, count);
      };
      auto download = [&](std::uint64_t count) {
        std::vector<std::byte> out(count * R);
        sorter.download(count, [&](const std::byte* src, std::uint64_t off, std::size_t bytes) {
          std::memcpy(out.data() + off, src, bytes);
        });
        return out;
      };
      for (unsigned k : {1u, 2u, 5u, 8u})
        for (gpu::Unique unique : {gpu::Unique::none, gpu::Unique::first}) {
          SCOPED_TRACE("k=" + std::to_string(k) + (unique == gpu::Unique::none ? "" : " unique"));
          std::vector<std::uint64_t> ends;
          for (unsigned r = 0; r < k; ++r) {
            // Run 1 of 5 is empty; the others split the rest unevenly.
            const std::uint64_t b = ends.empty() ? 0 : ends.back();
            const std::uint64_t e = r + 1 == k ? n : k == 5 && r == 1 ? b : b + (n - b) / (k - r) + r * 7;
            upload(b, e - b);
            sorter.presort(b, e - b);
            ends.push_back(e);
          }
          const std::uint64_t kept = sorter.sort(n, ends.data(), ends.size(), unique);
          EXPECT_TRUE(download(kept) == test::reference_sort(format, in, unique != gpu::Unique::none));
        }
      upload(0, n);
      EXPECT_TRUE(download(sorter.sort(n, nullptr, 0, gpu::Unique::none)) == test::reference_sort(format, in, false));
      EXPECT_GT(sorter.times().sort_ms, 0.0);
      EXPECT_THROW(sorter.presort(n - 1, 2), gpu::CudaError);
    }
}

// Records that are one 4- or 8-byte key sort as words and come back as the
// same bytes, NaNs, zeros and infinities included.
TEST(GpuRecordSorter, WordsOnlyRecordsComeBackByteForByte) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::vector<FormatCase> cases = {{"u32", {}}, {"i32", {}}, {"f32", {}}, {"u64", {}}, {"i64", {}},
                                         {"f64", {}}, {"fixed:8", {"0:8:u64be:desc"}}, {"fixed:8", {"0:8"}},
                                         {"fixed:4", {"0:4:i32be:desc"}}, {"fixed:4", {"0:4:f32be"}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(name_of(c));
    const RecordFormat format = parse_format(c.format, c.keys);
    ASSERT_TRUE(gpu::RecordSorter::words_only(to_key_layout(format)));
    const std::uint32_t R = format.record_size;
    auto d = open_device(format, 32 << 20, 777 * R);
    EXPECT_NE(d->describe().find("words only"), std::string::npos) << d->describe();
    for (const char* kind : {"random", "duplicates"}) {
      const auto in = make_records(R, 200000, 9, kind);
      EXPECT_TRUE(device_sort(*d, R, in, {}, KeepEqual::all) == test::reference_sort(format, in, false));
      EXPECT_TRUE(device_sort(*d, R, in, {}, KeepEqual::first) == test::reference_sort(format, in, true));
    }
  }
}

// A device budget bounds the records a sort holds; one that holds none fails
// under --gpu=on with the gate's message and leaves auto on the CPU.
TEST(GpuRecordSorter, BudgetBoundsTheCapacity) {
  CORANK_SKIP_WITHOUT_GPU();
  const RecordFormat format = parse_format("gensort", {});
  auto d = open_device(format, 1 << 20, 1 << 16);
  EXPECT_LT(d->capacity(), (1u << 20) / 200);
  EXPECT_GT(d->capacity(), 16u);
  SortOptions options;
  options.format = format;
  options.gpu = GpuMode::On;
  options.gpu_memory = 64;
  RecordDeviceRequest request;
  request.slot_bytes = 1 << 16;
  double setup = 0;
  try {
    (void)open_record_device(options, format, request, &setup);
    FAIL() << "expected UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--gpu=on: no usable GPU"), std::string::npos) << e.what();
  }
  options.gpu = GpuMode::Auto;
  EXPECT_EQ(open_record_device(options, format, request, &setup), nullptr);
  // Keys wider than 16 bytes stay on the CPU, under --gpu=on too.
  options.gpu = GpuMode::On;
  options.gpu_memory = 0;
  EXPECT_EQ(open_record_device(options, parse_format("fixed:32", {"0:24"}), request, &setup), nullptr);
}

// The ring: pieces of whole units, in order, a fill that stops early ends the
// upload, and every byte is counted once each way.
TEST(GpuTransferRing, PiecesAreWholeUnitsInOrder) {
  CORANK_SKIP_WITHOUT_GPU();
  for (unsigned slots : {2u, 3u, 5u}) {
    gpu::TransferRing ring(1000, slots);
    const std::size_t unit = 7;  // 994 bytes a piece
    std::vector<std::byte> in(123457 / unit * unit);
    std::mt19937 rng(slots);
    for (auto& b : in) b = static_cast<std::byte>(rng());
    gpu::DeviceBuffer<std::byte> d(static_cast<std::int64_t>(in.size()));
    const std::uint64_t up = ring.upload(d.data(), in.size(), unit, [&](std::byte* dst, std::uint64_t off, std::size_t max) {
      EXPECT_EQ(off % unit, 0u);
      EXPECT_EQ(max % unit, 0u);
      const std::size_t c = std::min<std::uint64_t>(max, in.size() - off);
      std::memcpy(dst, in.data() + off, c);
      return c;
    });
    EXPECT_EQ(up, in.size());
    std::vector<std::byte> out(in.size());
    std::uint64_t next = 0;
    ring.download(d.data(), in.size(), unit, [&](const std::byte* src, std::uint64_t off, std::size_t bytes) {
      EXPECT_EQ(off, next);
      EXPECT_EQ(bytes % unit, 0u);
      std::memcpy(out.data() + off, src, bytes);
      next = off + bytes;
    });
    EXPECT_TRUE(out == in);
    // A fill that gives less ends the upload there.
    const std::uint64_t part = ring.upload(d.data(), in.size(), unit, [&](std::byte*, std::uint64_t off, std::size_t max) {
      return off < 3 * 994 ? max : std::size_t{0};
    });
    EXPECT_EQ(part, 3u * 994);
    ring.synchronize();
    const gpu::TransferTimes t = ring.times();
    EXPECT_EQ(t.h2d_bytes, static_cast<double>(in.size() + part));
    EXPECT_EQ(t.d2h_bytes, static_cast<double>(in.size()));
    EXPECT_GT(t.busy_ms, 0.0);
    EXPECT_LE(t.busy_ms, (t.h2d_ms + t.d2h_ms) * 1.001 + 1e-3);
  }
}

}  // namespace
}  // namespace corank
