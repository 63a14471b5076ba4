// merge_runs_streamed (streamed_run_merge.hpp), the record-by-record merge of
// spilled runs: for runs in every store, of many sizes (empty, one record,
// shorter and longer than a read buffer) and with keys drawn from few values,
// the records delivered, batch by batch, are the stable sort of all of them
// (std::stable_sort by the key bytes, earlier runs first on ties), each batch
// at most batch_records long, each entry naming its record in the batch.
#include "corank/streamed_run_merge.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/io/temp_files.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/key_entry.hpp"

namespace corank {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;
using E = KeyEntry<1>;

// 12-byte records: a 4-byte big-endian key of few values, then 8 bytes
// naming the record's place in the input.
Bytes make_records(std::uint64_t n, std::uint64_t first, std::mt19937_64& rng) {
  Bytes b(n * 12);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t key = static_cast<std::uint32_t>(rng() % 37);
    for (int k = 0; k < 4; ++k) b[i * 12 + k] = static_cast<std::byte>(key >> (24 - 8 * k));
    const std::uint64_t id = first + i;
    std::memcpy(&b[i * 12 + 4], &id, 8);
  }
  // A run is sorted by key, stably.
  std::vector<std::uint64_t> order(n);
  for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint64_t a, std::uint64_t c) { return std::memcmp(&b[a * 12], &b[c * 12], 4) < 0; });
  Bytes sorted;
  for (std::uint64_t i : order) sorted.insert(sorted.end(), b.begin() + i * 12, b.begin() + (i + 1) * 12);
  return sorted;
}

TEST(StreamedRunMerge, DeliversTheStableSortOfTheRuns) {
  const fs::path dir = fs::temp_directory_path() / ("corank-streamed-merge-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  io::TempDirectories temps({dir.string()});
  io::WorkerPool pool(2);
  const RecordFormat format = parse_format("fixed:12", {"0:4:u32"});
  ASSERT_EQ(format.key_words(), 1u);
  const KeyNormalizer norm(format);
  io::IoOptions opt;
  opt.direct = false;
  for (RunStore store : {RunStore::memory, RunStore::file, RunStore::compressed}) {
    io::IoOptions o = opt;
    if (store == RunStore::compressed) o.temp_codec = io::Codec::zstd;
    std::mt19937_64 rng(3);
    const std::vector<std::uint64_t> sizes{0, 1, 3, 700, 0, 5000, 4, 4, 1234};
    std::vector<IndexedRun<E>> runs;
    Bytes all;
    std::uint64_t base = 0;
    for (std::uint64_t n : sizes) {
      const Bytes recs = make_records(n, base, rng);
      all.insert(all.end(), recs.begin(), recs.end());
      runs.push_back(IndexedRun<E>{SortedRun(n, base, 12, store, temps), {}});
      SortedRun::Writer w(runs.back().records, o, pool);
      w.append(recs.data(), n);
      w.finish();
      base += n;
    }
    // Runs in input order: equal keys keep it.
    std::vector<std::uint64_t> order(all.size() / 12);
    for (std::uint64_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint64_t a, std::uint64_t c) { return std::memcmp(&all[a * 12], &all[c * 12], 4) < 0; });
    Bytes want;
    for (std::uint64_t i : order) want.insert(want.end(), all.begin() + i * 12, all.begin() + (i + 1) * 12);
    for (std::uint64_t buffer : {1u, 7u, 512u})
      for (std::uint64_t batch : {1u, 100u, 100000u}) {
        SCOPED_TRACE("store " + std::to_string(static_cast<int>(store)) + ", buffer " + std::to_string(buffer) +
                     ", batch " + std::to_string(batch));
        Bytes got;
        bool whole = true;
        merge_runs_streamed(std::span<IndexedRun<E>>(runs), StreamMergeJob{norm, o, 12, buffer, batch},
                            [&](E* entries, std::uint64_t n, const std::byte* records) {
                              whole &= n >= 1 && n <= batch;
                              for (std::uint64_t j = 0; j < n; ++j) {
                                whole &= entries[j].pos < n;
                                got.insert(got.end(), records + entries[j].pos * 12, records + (entries[j].pos + 1) * 12);
                              }
                            });
        EXPECT_TRUE(whole);
        EXPECT_TRUE(got == want);
      }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace corank
