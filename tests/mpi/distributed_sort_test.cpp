// The whole distributed sort over ranks as threads of this process: for 1 to
// 4 ranks the output is corank::sort's, byte for byte, through every stage
// (CSV cut, sampling, exchange rounds, in-place and copied pieces, part
// files), and a bad record on one rank stops every rank with the single
// process's message. The same runs under mpirun in mpi_sort_test.sh.
#include "corank/mpi/distributed_sort.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "corank/gpu_backend.hpp"
#include "corank/mpi/part_files.hpp"
#include "fake_communicator.hpp"
#include "test_files.hpp"
#include "test_request.hpp"

namespace corank::mpi {
namespace {

namespace fs = std::filesystem;
using testing::FakeWorld;
using testing::read_file;
using testing::TestDir;
using testing::write_file;

// Several chunks and rounds on a few MB.
SortRequest base_request(const TestDir& dir, std::vector<std::string> inputs) {
  return testing::scratch_sort(dir, std::move(inputs), 1, std::uint64_t{4} << 20);
}

struct Outcome {
  std::vector<int> status;
  std::string error;  // rank 0's
};

Outcome run_ranks(int ranks, const DistributedRequest& request) {
  Outcome o;
  o.status.assign(static_cast<std::size_t>(ranks), -1);
  FakeWorld world(ranks);
  world.run([&](Communicator& c) {
    std::string error;
    o.status[static_cast<std::size_t>(c.rank())] = distributed_sort(c, request, &error);
    if (c.rank() == 0) o.error = error;
  });
  return o;
}

// corank-mpi with `ranks` ranks refuses `r`: status 2 on every rank, nothing
// written beside the output or left in -T.
Outcome refused(const TestDir& dir, const SortRequest& r, int ranks) {
  fs::create_directories(dir / "out");
  DistributedRequest d;
  d.sort = r;
  d.sort.output = dir / "out/sorted";
  const Outcome o = run_ranks(ranks, d);
  EXPECT_EQ(o.status, std::vector<int>(static_cast<std::size_t>(ranks), 2));
  EXPECT_TRUE(fs::is_empty(dir / "out")) << ranks << " ranks";
  EXPECT_TRUE(fs::is_empty(dir / "tmp")) << ranks << " ranks";
  return o;
}

// How the ranks of one node come by their records: through the exchange
// (--exchange=always), or, for fixed-size records in memory, each its part
// of the inputs where they lie (node_inputs.hpp, --exchange=parts), or all of
// them sorted by rank 0 where every rank names the same GPU, or none on
// cores they share, as the ranks here (threads of one process) do
// (one_sort.hpp, --exchange=auto).
enum class Way { Exchange, NodeInputs, OneDevice, OneSortOnCpu };

// The number of ranks whose --stats say `field` is true.
std::size_t ranks_with(const std::string& stats, const std::string& field) {
  std::size_t n = 0;
  for (auto at = stats.find("\"" + field + "\": true"); at != std::string::npos;
       at = stats.find("\"" + field + "\": true", at + 1))
    ++n;
  return n;
}

// corank::sort's output of `r`, and corank-mpi's with 1 to 4 ranks equal to it;
// nothing left in -T or beside the output. With 2 ranks or more, every rank
// went `way`. `keyed`: how many ranks' sorts, over the runs of 2 to 4 ranks,
// took the keys their exchange made as the records arrived (arriving_keys.hpp),
// or the records their exchange sent to the GPU (arriving_records.hpp).
void expect_like_single(const TestDir& dir, SortRequest r, bool part_files = false, Way way = Way::Exchange,
                        std::size_t* keyed = nullptr) {
  r.output = dir / "single";
  sort(r);
  const std::string want = read_file(r.output);
  ASSERT_FALSE(want.empty());
  fs::create_directories(dir / "out");
  for (int ranks = 1; ranks <= 4; ++ranks) {
    DistributedRequest d;
    d.sort = r;
    d.sort.output = dir / "out/sorted";
    d.part_files = part_files;
    using Exchange = DistributedRequest::Exchange;
    d.exchange = way == Way::Exchange ? Exchange::Always : way == Way::NodeInputs ? Exchange::Parts : Exchange::Auto;
    if (way == Way::OneDevice) d.device = "0";
    const bool one_sort = way == Way::OneDevice || way == Way::OneSortOnCpu;
    std::string stats;
    d.stats_file = "-";
    d.stats_text = &stats;
    const Outcome o = run_ranks(ranks, d);
    ASSERT_EQ(o.status, std::vector<int>(static_cast<std::size_t>(ranks), 0)) << o.error;
    if (ranks > 1) {
      const auto all = static_cast<std::size_t>(ranks);
      EXPECT_EQ(ranks_with(stats, "node_inputs"), way == Way::NodeInputs ? all : 0u) << ranks << " ranks";
      EXPECT_EQ(ranks_with(stats, "one_sort"), one_sort ? all : 0u) << ranks << " ranks";
      EXPECT_EQ(ranks_with(stats, "whole_input"), one_sort ? 1u : 0u) << ranks << " ranks";
      if (keyed) *keyed += ranks_with(stats, "keys_from_exchange") + ranks_with(stats, "device_from_exchange");
    }
    std::string got;
    if (part_files)
      for (int k = 0; k < ranks; ++k) got += read_file(part_name(d.sort.output, static_cast<unsigned>(k)));
    else
      got = read_file(d.sort.output);
    EXPECT_TRUE(got == want) << ranks << " ranks: the output differs from corank::sort's";
    EXPECT_TRUE(fs::is_empty(dir / "tmp")) << ranks << " ranks left temporaries";
    std::size_t beside = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "out")) ++beside;
    EXPECT_EQ(beside, part_files ? static_cast<std::size_t>(ranks) : 1u) << ranks << " ranks";
    fs::remove_all(dir / "out");
    fs::create_directories(dir / "out");
  }
}

std::string words(unsigned lines, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (unsigned i = 0; i < lines; ++i)
    s += (rng() % 10 < 3 ? std::string("dup") : "w" + std::to_string(rng() % 50000)) + " " +
         std::to_string(rng() % 1000) + "\n";
  return s;
}

TEST(MpiDistributedSort, LinesInRounds) {
  TestDir dir;
  write_file(dir / "words.txt", words(120000, 1));  // about 1.5 MB: two chunks of 1 MiB, rounds of 1 MiB / ranks
  expect_like_single(dir, base_request(dir, {dir / "words.txt"}));
}

TEST(MpiDistributedSort, LinesUniqueAndPartFiles) {
  TestDir dir;
  write_file(dir / "a.txt", words(20000, 2));
  write_file(dir / "b.txt", "zeta\nalpha");
  SortRequest r = base_request(dir, {dir / "a.txt", dir / "b.txt"});
  r.keys = {"1,1"};
  r.unique = true;
  expect_like_single(dir, r);
  r.unique = false;
  expect_like_single(dir, r, /*part_files=*/true);
}

TEST(MpiDistributedSort, CsvWithHeaderAndQuotedNewlines) {
  TestDir dir;
  std::mt19937 rng(5);
  std::string csv = "id,name,score\n";
  for (int i = 0; i < 15000; ++i)
    csv += std::to_string(i) + "," + (rng() % 5 == 0 ? "\"two\nlines, \"\"q\"\"\"" : "n" + std::to_string(rng() % 300)) +
           "," + std::to_string(static_cast<int>(rng() % 2000) - 700) + "\n";
  write_file(dir / "people.csv", csv);
  SortRequest r = base_request(dir, {dir / "people.csv", dir / "people.csv"});
  r.format = "csv";
  r.header = true;
  r.keys = {"score:n", "name"};
  expect_like_single(dir, r);
  expect_like_single(dir, r, /*part_files=*/true);
}

// A later input whose header names other columns is refused before anything
// is read, with the format's message on every rank (an empty input has none).
TEST(MpiDistributedSort, LaterHeaderThatDiffersIsRefused) {
  TestDir dir;
  write_file(dir / "a.csv", "id,name\n1,x\n2,y\n");
  write_file(dir / "empty.csv", "");
  write_file(dir / "same.csv", "id,name\n3,z\n");
  write_file(dir / "b.csv", "id,title\n4,w\n");
  SortRequest r = base_request(dir, {dir / "a.csv", dir / "empty.csv", dir / "same.csv", dir / "b.csv"});
  r.format = "csv";
  r.header = true;
  r.keys = {"name"};
  for (int ranks = 1; ranks <= 3; ++ranks)
    EXPECT_EQ(refused(dir, r, ranks).error, dir / "b.csv" + ":1: its header differs from that of " + dir / "a.csv" +
                                                ": column 2 is 'title', not 'name'");
  SortRequest same = base_request(dir, {dir / "a.csv", dir / "empty.csv", dir / "same.csv"});
  same.format = "csv";
  same.header = true;
  same.keys = {"name"};
  expect_like_single(dir, same);
}

TEST(MpiDistributedSort, FixedSizeInMemoryAndSpilled) {
  TestDir dir;
  std::mt19937_64 rng(7);
  std::string u64s;
  for (int i = 0; i < 300000; ++i) {  // 2.4 MB: more than half of -S, so the pieces go to files
    const std::uint64_t v = rng() % 100000;
    u64s.append(reinterpret_cast<const char*>(&v), 8);
  }
  write_file(dir / "keys.u64", u64s);
  SortRequest r = base_request(dir, {dir / "keys.u64"});
  r.format = "u64";
  expect_like_single(dir, r);
  r.memory_budget = std::uint64_t{64} << 20;  // in memory
  r.reverse = true;
  expect_like_single(dir, r);
}

// `n` 16-byte records (a u64 key below `keys`, then the record's number, so
// that equal keys show their order) into a.rec and, every `every`-th, b.rec.
void write_keyed_records(const TestDir& dir, int n, std::uint64_t keys, int every, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::string a, b;
  for (int i = 0; i < n; ++i) {
    char rec[16];
    const std::uint64_t key = rng() % keys, payload = static_cast<std::uint64_t>(i);
    std::memcpy(rec, &key, 8);
    std::memcpy(rec + 8, &payload, 8);
    (i % every ? a : b).append(rec, 16);
  }
  write_file(dir / "a.rec", a);
  write_file(dir / "b.rec", b);
}

// The records of write_keyed_records (with `inputs` between them), by their keys.
SortRequest keyed_request(const TestDir& dir, std::vector<std::string> inputs) {
  SortRequest r = base_request(dir, std::move(inputs));
  r.format = "fixed:16";
  r.keys = {"0:8:u64"};
  return r;
}

// Through the exchange, fixed-size records kept in memory have their keys
// made as they arrive (arriving_keys_test.cpp has them in many batches), and
// each rank's sort takes them: equal keys keep their input order, -r, -u,
// part files, keys of two words. Where the pieces go to files instead (-S
// 1M: past half of it), the sorts make their own. (The ranks here are
// threads of one process, whose memory each rank's plan takes off its -S:
// -S 256M keeps their sorts in memory.)
TEST(MpiDistributedSort, FixedSizeRecordsKeyedAsTheyArrive) {
  TestDir dir;
  write_keyed_records(dir, 100000, 4000, 3, 12);
  SortRequest r = keyed_request(dir, {dir / "a.rec", dir / "b.rec"});
  r.memory_budget = std::uint64_t{256} << 20;
  const std::size_t every = 2 + 3 + 4;  // ranks, over the runs of 2, 3 and 4
  for (int variant = 0; variant < 4; ++variant) {
    r.reverse = variant >= 1;
    r.unique = variant == 3;
    std::size_t keyed = 0;
    expect_like_single(dir, r, variant == 2, Way::Exchange, &keyed);
    EXPECT_EQ(keyed, every) << "variant " << variant;
  }
  r.reverse = r.unique = false;
  r.memory_budget = std::uint64_t{1} << 20;
  std::size_t keyed = 0;
  expect_like_single(dir, r, false, Way::Exchange, &keyed);
  EXPECT_EQ(keyed, 0u);
  r.memory_budget = std::uint64_t{256} << 20;
  r.threads = 3;
  r.keys = {"0:8:u64", "8:8:u64:desc"};  // two words a key
  expect_like_single(dir, r, false, Way::Exchange, &keyed);
  EXPECT_EQ(keyed, every);
}

// With the GPU, fixed-size records kept in memory go up to each rank's
// device as they arrive, and each rank's sort takes them there: equal keys
// keep their input order, -r, -u, part files, keys of two words. Where the
// pieces go to files instead (-S 1M: the parts of 2 and 3 ranks pass half of
// it, those of 4 ranks do not), the sorts read them.
TEST(MpiDistributedSort, FixedSizeRecordsSentToTheGpuAsTheyArrive) {
  if (const std::string why = gpu_backend::unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  TestDir dir;
  write_keyed_records(dir, 100000, 4000, 3, 14);
  SortRequest r = keyed_request(dir, {dir / "a.rec", dir / "b.rec"});
  r.gpu = GpuMode::On;
  r.memory_budget = std::uint64_t{256} << 20;
  const std::size_t every = 2 + 3 + 4;  // ranks, over the runs of 2, 3 and 4
  for (int variant = 0; variant < 4; ++variant) {
    r.reverse = variant >= 1;
    r.unique = variant == 3;
    std::size_t fed = 0;
    expect_like_single(dir, r, variant == 2, Way::Exchange, &fed);
    EXPECT_EQ(fed, every) << "variant " << variant;
  }
  r.reverse = r.unique = false;
  r.memory_budget = std::uint64_t{1} << 20;
  std::size_t fed = 0;
  expect_like_single(dir, r, false, Way::Exchange, &fed);
  EXPECT_EQ(fed, 4u);
  r.memory_budget = std::uint64_t{256} << 20;
  r.keys = {"0:8:u64", "8:8:u64:desc"};  // two words a key
  fed = 0;
  expect_like_single(dir, r, false, Way::Exchange, &fed);
  EXPECT_EQ(fed, every);
}

// Each rank's part taken where the inputs lie: several files (one empty),
// equal keys whose input order must survive, -r, -u, part files, and a
// budget that makes each rank's sort spill runs.
TEST(MpiDistributedSort, FixedSizeRecordsReadInPlaceOnOneNode) {
  TestDir dir;
  write_keyed_records(dir, 120000, 5000, 3, 8);
  write_file(dir / "empty.rec", "");
  SortRequest r = keyed_request(dir, {dir / "a.rec", dir / "empty.rec", dir / "b.rec"});
  expect_like_single(dir, r, false, Way::NodeInputs);  // -S 4M: runs spilled
  r.memory_budget = std::uint64_t{64} << 20;
  expect_like_single(dir, r, false, Way::NodeInputs);
  r.reverse = true;
  expect_like_single(dir, r, true, Way::NodeInputs);
  r.unique = true;
  expect_like_single(dir, r, false, Way::NodeInputs);
}

// `r` sorted by `ranks` ranks that all name `device` ("" for none), into
// dir/NAME-sorted, equal to corank::sort's (dir/NAME-single); their --stats.
std::string sorted_naming(const TestDir& dir, SortRequest r, int ranks, const std::string& device,
                          const std::string& name) {
  DistributedRequest d;
  d.sort = r;
  d.sort.output = dir / (name + "-sorted");
  d.device = device;
  std::string stats;
  d.stats_file = "-";
  d.stats_text = &stats;
  const Outcome o = run_ranks(ranks, d);
  EXPECT_EQ(o.status, std::vector<int>(static_cast<std::size_t>(ranks), 0)) << o.error;
  r.output = dir / (name + "-single");
  sort(r);
  EXPECT_TRUE(read_file(d.sort.output) == read_file(r.output)) << name << ": the output differs from corank::sort's";
  return stats;
}

// Ranks that leave the sort to rank 0 (`way`: all naming one GPU, or none on
// the cores they share, as threads of one process do): rank 0 sorts every
// record where the inputs lie, the others write nothing; in place, -r into
// part files, and -u (sorted into -T, then moved). Inputs over half of rank
// 0's -S: each rank sorts its own part where the inputs lie.
void expect_rank_zero_sorts(const TestDir& dir, Way way) {
  write_keyed_records(dir, 60000, 3000, 4, 9);
  SortRequest r = keyed_request(dir, {dir / "a.rec", dir / "b.rec"});
  r.memory_budget = std::uint64_t{64} << 20;
  expect_like_single(dir, r, false, way);
  r.reverse = true;
  expect_like_single(dir, r, true, way);
  r.unique = true;
  expect_like_single(dir, r, false, way);
  r.unique = false;
  r.memory_budget = std::uint64_t{1} << 20;
  const std::string stats = sorted_naming(dir, r, 3, way == Way::OneDevice ? "0" : "", "big");
  EXPECT_EQ(ranks_with(stats, "one_sort"), 0u);
  EXPECT_EQ(ranks_with(stats, "node_inputs"), 3u);
}

TEST(MpiDistributedSort, RanksSharingOneDeviceLeaveTheSortToRankZero) {
  TestDir dir;
  expect_rank_zero_sorts(dir, Way::OneDevice);
  // Text goes the exchange's way whatever the device.
  write_file(dir / "w.txt", words(20000, 3));
  const std::string stats = sorted_naming(dir, base_request(dir, {dir / "w.txt"}), 2, "0", "text");
  EXPECT_EQ(ranks_with(stats, "one_sort"), 0u);
}

TEST(MpiDistributedSort, RanksOnSharedCoresLeaveTheSortToRankZero) {
  TestDir dir;
  expect_rank_zero_sorts(dir, Way::OneSortOnCpu);
}

TEST(MpiDistributedSort, BadRecordStopsEveryRankWithTheSingleProcessMessage) {
  TestDir dir;
  std::string jsonl;
  for (int i = 0; i < 30000; ++i) jsonl += "{\"id\":" + std::to_string(i) + ",\"score\":" + std::to_string(i * 7 % 1000) + "}\n";
  jsonl += "{\"id\": 30000, \"score\": oops\n{\"id\": 30001, \"score\": 1}\n";
  write_file(dir / "bad.jsonl", jsonl);
  SortRequest r = base_request(dir, {dir / "bad.jsonl"});
  r.format = "jsonl";
  r.keys = {"score:n"};
  r.output = dir / "single";
  std::string single;
  try {
    sort(r);
  } catch (const std::exception& e) {
    single = e.what();
  }
  ASSERT_NE(single, "");
  for (int ranks = 1; ranks <= 3; ++ranks)
    EXPECT_EQ(refused(dir, r, ranks).error, ranks == 1 ? single : "rank " + std::to_string(ranks - 1) + ": " + single);
}

}  // namespace
}  // namespace corank::mpi
