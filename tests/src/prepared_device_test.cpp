// Records put on the device before the sort (prepared_device.hpp), against a
// RecordDevice that sorts in host memory (host_record_device.hpp): a sort
// that takes them gives what a sort of the kept records alone gives (equal
// keys in input order, -r, -u), whether the groups' pieces came taking turns
// or each group whole; where the device does not hold exactly the input (a
// group left out, records past its room, --verify), the sort reads its
// input itself and the output is the same.
#include "corank/prepared_device.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "corank/request_options.hpp"
#include "corank/sort.hpp"
#include "host_record_device.hpp"
#include "keep_ranges.hpp"
#include "library_test_util.hpp"

namespace corank {
namespace {

constexpr std::uint32_t R = 16;  // a u64 key below 300 (ties), then the record's number

struct Fixture {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("corank-prepared-device-" + std::to_string(::getpid()));
  std::string buffer;  // every record, kept or in a gap
  std::string kept;    // the kept records, in order
  // The groups' regions (the senders'), with gaps between them, one empty.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges{{0, 20000}, {25000, 0}, {30000, 31000}, {70000, 7000}};
  const test::KeepRanges selection{ranges};

  Fixture() {
    std::filesystem::create_directories(dir);
    buffer = test::numbered_records(80000, 300, 5);
    for (const auto& [b, n] : ranges) kept.append(buffer, b * R, n * R);
    std::ofstream(dir / "kept.rec", std::ios::binary) << kept;
  }
  ~Fixture() { std::filesystem::remove_all(dir); }

  const std::byte* records() const { return reinterpret_cast<const std::byte*>(buffer.data()); }
  std::uint64_t kept_records() const { return kept.size() / R; }

  // The sort of the kept records alone, into dir/want.
  SortRequest want(bool reverse, bool unique) const {
    SortRequest r;
    r.format = "fixed:16";
    r.keys = {"0:8:u64"};
    r.reverse = reverse;
    r.unique = unique;
    r.gpu = GpuMode::Off;
    r.threads = 2;
    r.memory_budget = std::uint64_t{64} << 20;
    r.temp_dirs = {dir};
    r.io.sync_output = false;
    r.inputs = {dir / "kept.rec"};
    r.output = dir / "want";
    return r;
  }
};

struct Prepared {
  test::HostRecordDevice* device = nullptr;
  std::unique_ptr<PreparedDevice> prepared;
  bool all_added = true;  // no add() refused
};

// A device of `capacity` records for `want`'s sort, the groups' records
// uploaded `piece` at a time, the groups taking turns (or each whole in
// turn); every group but `skip`.
Prepared prepare(const Fixture& f, const SortRequest& want, std::uint64_t capacity, std::uint64_t piece,
                 bool take_turns, std::size_t skip = SIZE_MAX) {
  const SortOptions o = request::binary_options(want);
  auto device = std::make_unique<test::HostRecordDevice>(in_sort_order(o.format, o.reverse), capacity, 1000);
  Prepared p;
  p.device = device.get();
  p.prepared = std::make_unique<PreparedDevice>(std::move(device), R, static_cast<unsigned>(f.ranges.size()));
  const auto copy = [](std::byte* dst, const std::byte* src, std::size_t bytes) { std::memcpy(dst, src, bytes); };
  std::vector<std::uint64_t> done(f.ranges.size(), 0);
  for (bool more = true; more;) {
    more = false;
    for (std::size_t g = 0; g < f.ranges.size(); ++g) {
      const auto [b, n] = f.ranges[g];
      while (g != skip && done[g] < n) {
        const std::uint64_t k = std::min(piece, n - done[g]);
        const std::byte* src = f.records() + (b + done[g]) * R;
        p.all_added = p.prepared->add(static_cast<unsigned>(g), src, k, copy) && p.all_added;
        done[g] += k;
        if (take_turns) break;
      }
      more = more || (g != skip && done[g] < n);
    }
  }
  return p;
}

// The sort of the selection with the prepared device, its output equal to
// the sort of the kept records alone; its stats.
SortStats sorted_alike(const Fixture& f, const SortRequest& want, PreparedDevice& prepared) {
  sort(want);
  SortRequest r = want;
  r.inputs.clear();
  r.input_buffers = {{f.records(), f.buffer.size()}};
  r.input_selection = &f.selection;
  r.prepared_device = &prepared;
  r.gpu = GpuMode::Auto;
  r.output = f.dir / "got";
  const SortStats stats = sort(r);
  EXPECT_EQ(stats.records_in, f.kept_records());
  EXPECT_TRUE(test::slurp(f.dir / "got") == test::slurp(f.dir / "want"))
      << "-r " << want.reverse << " -u " << want.unique;
  return stats;
}

TEST(PreparedDevice, ASortTakesItAndGivesTheSortOfTheKeptRecords) {
  const Fixture f;
  for (bool reverse : {false, true})
    for (bool unique : {false, true})
      for (std::uint64_t piece : {std::uint64_t{1500}, std::uint64_t{1} << 20}) {
        const SortRequest want = f.want(reverse, unique);
        Prepared p = prepare(f, want, f.kept_records() + 100, piece, true);
        ASSERT_TRUE(p.all_added);
        EXPECT_EQ(p.prepared->records(), f.kept_records());
        const SortStats stats = sorted_alike(f, want, *p.prepared);
        EXPECT_TRUE(p.prepared->taken()) << "the sort read its input again";
        EXPECT_EQ(stats.backend, "gpu");
        EXPECT_EQ(p.device->uploads_, f.kept_records()) << "records uploaded twice";
        // Groups taking turns in small pieces come out of group order; whole ones do not.
        EXPECT_EQ(p.device->arranged_, piece < 20000 ? 1u : 0u) << "piece " << piece;
      }
}

TEST(PreparedDevice, GroupsUploadedInOrderNeedNoArranging) {
  const Fixture f;
  const SortRequest want = f.want(false, false);
  Prepared p = prepare(f, want, f.kept_records(), 999, false);
  ASSERT_TRUE(p.all_added);
  sorted_alike(f, want, *p.prepared);
  EXPECT_TRUE(p.prepared->taken());
  EXPECT_EQ(p.device->arranged_, 0u);
}

TEST(PreparedDevice, NotTakenWhereItDoesNotHoldTheInput) {
  const Fixture f;
  const SortRequest want = f.want(false, true);
  {
    Prepared p = prepare(f, want, f.kept_records(), 2000, true, 3);  // the last group left out
    ASSERT_TRUE(p.all_added);
    EXPECT_FALSE(p.prepared->holds(f.kept_records()));
    sorted_alike(f, want, *p.prepared);
    EXPECT_FALSE(p.prepared->taken());
    EXPECT_EQ(p.device->arranged_, 0u);
  }
  {
    Prepared p = prepare(f, want, f.kept_records() - 1, 2000, true);  // one record past its room
    EXPECT_FALSE(p.all_added);
    EXPECT_FALSE(p.prepared->holds(f.kept_records()));
    EXPECT_FALSE(p.prepared->add(0, f.records(), 0, nullptr)) << "a device past its room takes nothing more";
    sorted_alike(f, want, *p.prepared);
    EXPECT_FALSE(p.prepared->taken());
  }
  {
    SortRequest verified = want;
    verified.verify = true;  // checks what it reads: the device's records were not read
    Prepared p = prepare(f, verified, f.kept_records(), 2000, true);
    ASSERT_TRUE(p.all_added);
    sorted_alike(f, verified, *p.prepared);
    EXPECT_FALSE(p.prepared->taken());
  }
}

}  // namespace
}  // namespace corank
