// Every merge variant against std::merge, keys only and with values.
#include "corank/gpu/merge.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "corank/gpu/device_buffer.cuh"
#include "corank/gpu/stream.cuh"
#include "gpu_test_support.cuh"

namespace corank::gpu {
namespace {

using testing::make_key;

enum class Dist { uniform, duplicates, all_equal, a_below_b, a_above_b, skewed };

const char* dist_name(Dist d) {
  switch (d) {
    case Dist::uniform: return "uniform";
    case Dist::duplicates: return "duplicates";
    case Dist::all_equal: return "all_equal";
    case Dist::a_below_b: return "a_below_b";
    case Dist::a_above_b: return "a_above_b";
    case Dist::skewed: return "skewed";
  }
  return "?";
}

// Sorted test value for side A (is_b false) or B under a distribution; u32
// keys see only the low 32 bits, so uniform stays within 32 bits.
std::vector<std::uint64_t> sorted_values(std::mt19937_64& rng, std::int64_t count, Dist d, bool is_b,
                                         bool narrow) {
  std::vector<std::uint64_t> v(static_cast<std::size_t>(count));
  const std::uint64_t full = narrow ? (std::uint64_t(1) << 32) : 0;  // 0: all 64 bits
  for (auto& x : v) {
    const std::uint64_t r = rng();
    switch (d) {
      case Dist::uniform: x = full ? r % full : r; break;
      case Dist::duplicates: x = r % 4; break;
      case Dist::all_equal: x = 42; break;
      case Dist::a_below_b: x = (is_b ? 1000000 : 0) + r % 1000; break;
      case Dist::a_above_b: x = (is_b ? 0 : 1000000) + r % 1000; break;
      // A spread out, B crowded into a narrow band with many repeats: long
      // runs from one side, then a dense interleave.
      case Dist::skewed: x = is_b ? 500000 + r % 64 : r % 1000000; break;
    }
  }
  std::sort(v.begin(), v.end());
  return v;
}

template <class T>
void upload(DeviceBuffer<T>& d, const std::vector<T>& h, const Stream& s) {
  check_cuda(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s.get()),
             "cudaMemcpyAsync");
}
template <class T>
std::vector<T> download(const DeviceBuffer<T>& d, const Stream& s) {
  std::vector<T> h(static_cast<std::size_t>(d.size()));
  check_cuda(cudaMemcpyAsync(h.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost, s.get()), "cudaMemcpyAsync");
  s.synchronize();
  return h;
}

// Output buffers get `guard` extra elements poisoned with 0xA5 bytes; the
// merge must write exactly its m + n outputs and nothing after them.
constexpr std::int64_t guard = 33;
constexpr unsigned char poison = 0xA5;

template <class T>
bool guard_intact(const std::vector<T>& h, std::int64_t used) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(h.data() + used);
  return std::all_of(bytes, bytes + guard * sizeof(T), [](unsigned char b) { return b == poison; });
}

template <class Key>
std::vector<Key> run_merge_keys(MergeVariant variant, const std::vector<Key>& a, const std::vector<Key>& b) {
  const Stream stream;
  const std::int64_t m = std::int64_t(a.size()), n = std::int64_t(b.size());
  DeviceBuffer<Key> da(m), db(n), dc(m + n + guard);
  upload(da, a, stream);
  upload(db, b, stream);
  check_cuda(cudaMemsetAsync(dc.data(), poison, dc.bytes(), stream.get()), "cudaMemsetAsync");
  const DeviceSpan<Key> c{dc.data(), m + n};
  std::size_t temp_bytes = 0;
  merge<Key>(nullptr, temp_bytes, da.span(), db.span(), c, stream.get(), variant);
  EXPECT_GE(temp_bytes, 1u);
  DeviceBuffer<unsigned char> temp{static_cast<std::int64_t>(temp_bytes)};
  merge<Key>(temp.data(), temp_bytes, da.span(), db.span(), c, stream.get(), variant);
  return download(dc, stream);
}

template <class Key, class Value>
std::pair<std::vector<Key>, std::vector<Value>> run_merge_pairs(MergeVariant variant, const std::vector<Key>& a,
                                                                const std::vector<Key>& b,
                                                                const std::vector<Value>& av,
                                                                const std::vector<Value>& bv) {
  const Stream stream;
  const std::int64_t m = std::int64_t(a.size()), n = std::int64_t(b.size());
  DeviceBuffer<Key> da(m), db(n), dc(m + n + guard);
  DeviceBuffer<Value> dav(m), dbv(n), dcv(m + n + guard);
  upload(da, a, stream);
  upload(db, b, stream);
  upload(dav, av, stream);
  upload(dbv, bv, stream);
  check_cuda(cudaMemsetAsync(dc.data(), poison, dc.bytes(), stream.get()), "cudaMemsetAsync");
  check_cuda(cudaMemsetAsync(dcv.data(), poison, dcv.bytes(), stream.get()), "cudaMemsetAsync");
  const DeviceSpan<Key> c{dc.data(), m + n};
  const DeviceSpan<Value> cv{dcv.data(), m + n};
  std::size_t temp_bytes = 0;
  merge<Key, Value>(nullptr, temp_bytes, da.span(), dav.span(), db.span(), dbv.span(), c, cv, stream.get(),
                    variant);
  DeviceBuffer<unsigned char> temp{static_cast<std::int64_t>(temp_bytes)};
  merge<Key, Value>(temp.data(), temp_bytes, da.span(), dav.span(), db.span(), dbv.span(), c, cv, stream.get(),
                    variant);
  return {download(dc, stream), download(dcv, stream)};
}

template <class K, MergeVariant V>
struct KeyCase {
  using Key = K;
  static constexpr MergeVariant variant = V;
};
template <class K, class Val, MergeVariant V>
struct PairCase {
  using Key = K;
  using Value = Val;
  static constexpr MergeVariant variant = V;
};

struct CaseNames {
  template <class T>
  static std::string GetName(int) {
    std::string name = testing::key_name<typename T::Key>();
    if constexpr (!std::is_same_v<T, KeyCase<typename T::Key, T::variant>>) {
      name += sizeof(typename T::Value) == 4 ? "_u32val" : "_u64val";
    }
    return name + "_" + to_string(T::variant);
  }
};

// ---- keys only ----

template <class Case>
class MergeKeysTest : public ::testing::Test {
 protected:
  using Key = typename Case::Key;
  void SetUp() override { CORANK_SKIP_WITHOUT_GPU(); }

  void check(std::int64_t m, std::int64_t n, Dist d, std::uint64_t seed) {
    SCOPED_TRACE(std::string("m=") + std::to_string(m) + " n=" + std::to_string(n) + " dist=" + dist_name(d));
    std::mt19937_64 rng(seed);
    const bool narrow = sizeof(Key) == 4;
    std::vector<Key> a, b;
    for (auto x : sorted_values(rng, m, d, false, narrow)) a.push_back(make_key<Key>(x));
    for (auto x : sorted_values(rng, n, d, true, narrow)) b.push_back(make_key<Key>(x));
    std::vector<Key> expected;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected));
    const auto got = run_merge_keys<Key>(Case::variant, a, b);
    ASSERT_TRUE(guard_intact(got, m + n)) << "merge wrote past its output";
    const auto mismatch = std::mismatch(expected.begin(), expected.end(), got.begin());
    ASSERT_TRUE(mismatch.first == expected.end())
        << "first wrong output at " << (mismatch.first - expected.begin()) << " of " << (m + n);
  }
};

using KeyCases = ::testing::Types<
    KeyCase<std::uint32_t, MergeVariant::basic>, KeyCase<std::uint32_t, MergeVariant::tiled>,
    KeyCase<std::uint32_t, MergeVariant::circular>, KeyCase<std::uint32_t, MergeVariant::tuned>,
    KeyCase<std::uint64_t, MergeVariant::basic>, KeyCase<std::uint64_t, MergeVariant::tiled>,
    KeyCase<std::uint64_t, MergeVariant::circular>, KeyCase<std::uint64_t, MergeVariant::tuned>,
    KeyCase<Key128, MergeVariant::basic>, KeyCase<Key128, MergeVariant::tiled>,
    KeyCase<Key128, MergeVariant::circular>, KeyCase<Key128, MergeVariant::tuned>>;
TYPED_TEST_SUITE(MergeKeysTest, KeyCases, CaseNames);

TYPED_TEST(MergeKeysTest, EmptyInputs) {
  this->check(0, 0, Dist::uniform, 10);
  this->check(0, 1, Dist::uniform, 11);
  this->check(1, 0, Dist::uniform, 12);
  this->check(0, 1000, Dist::uniform, 13);
  this->check(1000, 0, Dist::uniform, 14);
}

TYPED_TEST(MergeKeysTest, SmallShapes) {
  this->check(1, 1, Dist::uniform, 20);
  this->check(1000, 1234, Dist::uniform, 21);
  this->check(3000, 2500, Dist::duplicates, 22);
  this->check(2000, 1500, Dist::all_equal, 23);
  this->check(1500, 1700, Dist::a_below_b, 24);
  this->check(1700, 1500, Dist::a_above_b, 25);
  this->check(2500, 900, Dist::skewed, 26);
}

TYPED_TEST(MergeKeysTest, TileBoundaries) {
  const std::int64_t tile = merge_block_items<typename TestFixture::Key>(TypeParam::variant);
  for (const std::int64_t total : {tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1}) {
    this->check(total / 3, total - total / 3, Dist::uniform, 30 + total);
    this->check(total, 0, Dist::uniform, 31 + total);
  }
  for (const std::int64_t m : {tile - 1, tile, tile + 1}) {
    this->check(m, tile, Dist::duplicates, 32 + m);
    this->check(m, tile, Dist::a_below_b, 33 + m);
    this->check(tile, m, Dist::a_above_b, 34 + m);
  }
}

// Not under the sanitizers (see tools/gpu-check.sh): a million elements.
TYPED_TEST(MergeKeysTest, MediumRandom) {
  this->check((1 << 20) + 37, (1 << 20) - 11, Dist::uniform, 40);
  this->check((1 << 20) - 5, (1 << 19) + 3, Dist::skewed, 41);
  this->check((1 << 19) + 1, (1 << 20) + 9, Dist::duplicates, 42);
}

// ---- key-value pairs ----

template <class Case>
class MergePairsTest : public ::testing::Test {
 protected:
  using Key = typename Case::Key;
  using Value = typename Case::Value;
  void SetUp() override { CORANK_SKIP_WITHOUT_GPU(); }

  // Values are source ids (A: i, B: m + j), so the expected output also pins
  // down stability: equal keys keep A before B and their input order.
  void check(std::int64_t m, std::int64_t n, Dist d, std::uint64_t seed) {
    SCOPED_TRACE(std::string("m=") + std::to_string(m) + " n=" + std::to_string(n) + " dist=" + dist_name(d));
    std::mt19937_64 rng(seed);
    const bool narrow = sizeof(Key) == 4;
    std::vector<Key> a, b;
    for (auto x : sorted_values(rng, m, d, false, narrow)) a.push_back(make_key<Key>(x));
    for (auto x : sorted_values(rng, n, d, true, narrow)) b.push_back(make_key<Key>(x));
    std::vector<Value> av(a.size()), bv(b.size());
    for (std::int64_t i = 0; i < m; ++i) av[i] = Value(i);
    for (std::int64_t j = 0; j < n; ++j) bv[j] = Value(m + j);
    using P = std::pair<Key, Value>;
    std::vector<P> pa, pb, expected;
    for (std::int64_t i = 0; i < m; ++i) pa.push_back({a[i], av[i]});
    for (std::int64_t j = 0; j < n; ++j) pb.push_back({b[j], bv[j]});
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), std::back_inserter(expected),
               [](const P& x, const P& y) { return x.first < y.first; });
    const auto got = run_merge_pairs<Key, Value>(Case::variant, a, b, av, bv);
    ASSERT_TRUE(guard_intact(got.first, m + n)) << "merge wrote past its key output";
    ASSERT_TRUE(guard_intact(got.second, m + n)) << "merge wrote past its value output";
    for (std::int64_t k = 0; k < m + n; ++k) {
      ASSERT_TRUE(got.first[k] == expected[k].first && got.second[k] == expected[k].second)
          << "first wrong pair at " << k << ": value " << std::uint64_t(got.second[k]) << ", expected "
          << std::uint64_t(expected[k].second);
    }
  }
};

using PairCases = ::testing::Types<
    PairCase<std::uint32_t, std::uint32_t, MergeVariant::basic>,
    PairCase<std::uint32_t, std::uint32_t, MergeVariant::tiled>,
    PairCase<std::uint32_t, std::uint32_t, MergeVariant::circular>,
    PairCase<std::uint32_t, std::uint32_t, MergeVariant::tuned>,
    PairCase<std::uint64_t, std::uint64_t, MergeVariant::basic>,
    PairCase<std::uint64_t, std::uint64_t, MergeVariant::tiled>,
    PairCase<std::uint64_t, std::uint64_t, MergeVariant::circular>,
    PairCase<std::uint64_t, std::uint64_t, MergeVariant::tuned>,
    PairCase<std::uint64_t, std::uint32_t, MergeVariant::tuned>,
    PairCase<std::uint32_t, std::uint64_t, MergeVariant::tuned>,
    PairCase<Key128, std::uint32_t, MergeVariant::tuned>,
    PairCase<Key128, std::uint64_t, MergeVariant::basic>,
    PairCase<Key128, std::uint64_t, MergeVariant::tiled>,
    PairCase<Key128, std::uint64_t, MergeVariant::circular>,
    PairCase<Key128, std::uint64_t, MergeVariant::tuned>>;
TYPED_TEST_SUITE(MergePairsTest, PairCases, CaseNames);

TYPED_TEST(MergePairsTest, StableOnDuplicatesAndShapes) {
  this->check(0, 0, Dist::uniform, 50);
  this->check(0, 700, Dist::duplicates, 51);
  this->check(700, 0, Dist::duplicates, 52);
  this->check(3000, 2500, Dist::duplicates, 53);
  this->check(2000, 1500, Dist::all_equal, 54);
  this->check(1800, 1300, Dist::uniform, 55);
  this->check(1500, 1700, Dist::a_below_b, 56);
  this->check(1700, 1500, Dist::a_above_b, 57);
  this->check(2500, 900, Dist::skewed, 58);
}

TYPED_TEST(MergePairsTest, TileBoundaries) {
  const std::int64_t tile = merge_block_items<typename TestFixture::Key, typename TestFixture::Value>(
      TypeParam::variant);
  for (const std::int64_t total : {tile - 1, tile, tile + 1, 2 * tile + 1}) {
    this->check(total / 2, total - total / 2, Dist::duplicates, 60 + total);
  }
}

TYPED_TEST(MergePairsTest, MediumRandom) {
  this->check((1 << 20) + 3, (1 << 20) + 101, Dist::uniform, 70);
  this->check((1 << 20) - 1, (1 << 19), Dist::duplicates, 71);
}

// ---- beyond 32-bit sizes ----

// 2^31 + 66666 outputs: every offset, grid and partition computation must be
// 64-bit. Sorted inputs come from formulas (no 2^30-element host sorts); both
// sides hold runs of equal keys and interleave finely.
TEST(MergeLarge, U32MoreThan2To31Elements) {
  CORANK_SKIP_WITHOUT_GPU();
  const std::int64_t m = (std::int64_t(1) << 30) + 12345;
  const std::int64_t n = (std::int64_t(1) << 30) + 54321;
  ASSERT_GT(m + n, std::int64_t(1) << 31);
  std::vector<std::uint32_t> a(m), b(n);
  for (std::int64_t i = 0; i < m; ++i) a[i] = std::uint32_t(i * 3 / 2);
  for (std::int64_t j = 0; j < n; ++j) b[j] = std::uint32_t(j * 5 / 3);
  std::vector<std::uint32_t> expected(m + n);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());

  const Stream stream;
  DeviceBuffer<std::uint32_t> da(m), db(n), dc(m + n);
  upload(da, a, stream);
  upload(db, b, stream);
  std::vector<std::uint32_t>().swap(a);
  std::vector<std::uint32_t>().swap(b);
  std::vector<std::uint32_t> got(m + n);
  for (const MergeVariant v : {MergeVariant::basic, MergeVariant::tiled, MergeVariant::circular, MergeVariant::tuned}) {
    SCOPED_TRACE(to_string(v));
    check_cuda(cudaMemsetAsync(dc.data(), 0xff, dc.bytes(), stream.get()), "cudaMemsetAsync");
    std::size_t temp_bytes = 0;
    merge<std::uint32_t>(nullptr, temp_bytes, da.span(), db.span(), dc.span(), stream.get(), v);
    DeviceBuffer<unsigned char> temp{static_cast<std::int64_t>(temp_bytes)};
    merge<std::uint32_t>(temp.data(), temp_bytes, da.span(), db.span(), dc.span(), stream.get(), v);
    check_cuda(cudaMemcpyAsync(got.data(), dc.data(), dc.bytes(), cudaMemcpyDeviceToHost, stream.get()),
               "cudaMemcpyAsync");
    stream.synchronize();
    const auto mismatch = std::mismatch(expected.begin(), expected.end(), got.begin());
    EXPECT_TRUE(mismatch.first == expected.end()) << "first wrong output at " << (mismatch.first - expected.begin());
  }
}

// ---- arguments ----

TEST(MergeArguments, RejectsMismatchedSizes) {
  std::size_t bytes = 0;
  const DeviceSpan<const std::uint64_t> a{nullptr, 3}, b{nullptr, 4};
  const DeviceSpan<std::uint64_t> c{nullptr, 6};
  EXPECT_THROW(merge<std::uint64_t>(nullptr, bytes, a, b, c, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace corank::gpu
