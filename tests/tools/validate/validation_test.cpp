#include "validation.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "corank/format.hpp"
#include "generator.hpp"
#include "record_stream.hpp"
#include "report.hpp"

namespace corank::tools {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

class Validation : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank_validate_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const Bytes& data) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(data.data()),
                                             static_cast<std::streamsize>(data.size()));
    return p.string();
  }

  static Bytes generate(GenDist dist, std::uint64_t count, GenFormat f = GenFormat::Gensort) {
    GenSpec spec;
    spec.format = f;
    spec.dist = dist;
    spec.seed = 21;
    const Generator gen(spec);
    Bytes out(count * gen.record_size());
    gen.fill(0, count, out.data());
    return out;
  }

  static void swap_records(Bytes& b, std::size_t i, std::size_t j, std::size_t size = 100) {
    std::swap_ranges(b.begin() + static_cast<std::ptrdiff_t>(i * size),
                     b.begin() + static_cast<std::ptrdiff_t>((i + 1) * size),
                     b.begin() + static_cast<std::ptrdiff_t>(j * size));
  }

  static ValidateOptions options(const std::string& file) {
    ValidateOptions o;
    o.file = file;
    return o;
  }

  fs::path dir_;
};

TEST_F(Validation, AcceptsASortedFile) {
  // 60000 records = 6 MB: more than one 4 MiB read block.
  const auto r = validate(options(write("sorted", generate(GenDist::Sorted, 60000))));
  EXPECT_EQ(r.records, 60000u);
  EXPECT_TRUE(r.in_order());
  EXPECT_EQ(r.duplicates, 0u);
  EXPECT_TRUE(r.valid());
}

TEST_F(Validation, RejectsTwoSwappedRecordsAndNamesTheFirst) {
  auto b = generate(GenDist::Sorted, 60000);
  swap_records(b, 45000, 45001);  // straddles no block edge; the index must still be exact
  const auto r = validate(options(write("swapped", b)));
  EXPECT_FALSE(r.valid());
  ASSERT_TRUE(r.first_disorder);
  EXPECT_EQ(*r.first_disorder, 45001u);
  EXPECT_EQ(r.disorders, 1u);
  EXPECT_NE(format_text(r).find("record 45001 (0-based)"), std::string::npos);
  EXPECT_NE(format_json(r).find("\"first_disorder\":45001"), std::string::npos);
}

TEST_F(Validation, FindsDisorderAcrossAReadBlockEdgeWithAnyThreadCount) {
  // 130000 records: four read blocks; disorders at the first seam and inside the third block.
  auto b = generate(GenDist::Sorted, 130000);
  const std::size_t edge = (4u << 20) / 100;  // first record of the second read block
  swap_records(b, edge - 1, edge);
  swap_records(b, 100000, 100001);
  std::memcpy(&b[120001 * 100], &b[120000 * 100], 10);  // one duplicate key
  auto o = options(write("edge", b));
  o.inputs = {write("input", generate(GenDist::Sorted, 130000))};
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    o.threads = threads;
    const auto r = validate(o);
    ASSERT_TRUE(r.first_disorder) << threads;
    EXPECT_EQ(*r.first_disorder, edge) << threads;
    EXPECT_EQ(r.disorders, 2u) << threads;
    EXPECT_EQ(r.duplicates, 1u) << threads;
    EXPECT_EQ(r.records, 130000u) << threads;
    EXPECT_FALSE(r.matches_input()) << threads;  // the copied key bytes changed a record
  }
}

TEST_F(Validation, ChecksumsDoNotDependOnThreadCount) {
  const auto b = generate(GenDist::Uniform, 100000);
  auto o = options(write("u", b));
  o.inputs = {o.file};
  o.threads = 1;
  const auto one = validate(o);
  o.threads = 5;
  const auto five = validate(o);
  EXPECT_EQ(one.checksum, five.checksum);
  EXPECT_EQ(one.input_checksum, five.input_checksum);
  EXPECT_EQ(one.first_disorder, five.first_disorder);
  EXPECT_EQ(one.disorders, five.disorders);
  EXPECT_TRUE(five.matches_input());
}

TEST_F(Validation, ReverseOrder) {
  auto o = options(write("rev", generate(GenDist::Reverse, 1000, GenFormat::F64)));
  o.format = "f64";
  EXPECT_FALSE(validate(o).valid());
  o.reverse = true;
  EXPECT_TRUE(validate(o).valid());
}

TEST_F(Validation, CountsDuplicatesAndRejectsThemUnderUnique) {
  auto o = options(write("eq", generate(GenDist::AllEqual, 500)));
  auto r = validate(o);
  EXPECT_EQ(r.duplicates, 499u);
  EXPECT_TRUE(r.valid());
  o.unique = true;
  r = validate(o);
  EXPECT_FALSE(r.valid());
  EXPECT_NE(format_text(r).find("duplicate keys under --unique"), std::string::npos);
}

TEST_F(Validation, OutputMatchesItsShuffledInput) {
  const auto sorted = generate(GenDist::Sorted, 5000);
  auto shuffled = sorted;
  std::mt19937 rng(1);
  for (std::size_t i = 4999; i > 0; --i) swap_records(shuffled, i, rng() % (i + 1));
  auto o = options(write("out", sorted));
  o.inputs = {write("in", shuffled)};
  const auto r = validate(o);
  EXPECT_EQ(r.checksum, r.input_checksum);
  EXPECT_TRUE(r.valid());
  EXPECT_NE(format_json(r).find("\"match\":true"), std::string::npos);
}

TEST_F(Validation, SeveralInputsCountTogether) {
  const auto sorted = generate(GenDist::Sorted, 3000);
  auto o = options(write("out", sorted));
  o.inputs = {write("in1", Bytes(sorted.begin() + 100000, sorted.end())),
              write("in0", Bytes(sorted.begin(), sorted.begin() + 100000))};
  EXPECT_TRUE(validate(o).valid());
  o.inputs.pop_back();
  EXPECT_FALSE(validate(o).valid());
}

TEST_F(Validation, DetectsAChangedByteAgainstTheInput) {
  const auto input = generate(GenDist::Sorted, 5000);
  for (std::size_t pos : {5ul, 10ul, 250'050ul, 499'999ul}) {  // key, payload, middle, last byte
    auto output = input;
    output[pos] ^= 0x01;
    auto o = options(write("out", output));
    o.inputs = {write("in", input)};
    const auto r = validate(o);
    EXPECT_FALSE(r.matches_input()) << pos;
    EXPECT_FALSE(r.valid()) << pos;
    EXPECT_NE(format_text(r).find("records differ from the input"), std::string::npos);
  }
}

TEST_F(Validation, DetectsADroppedOrDuplicatedRecord) {
  const auto input = generate(GenDist::Sorted, 100);
  auto dup = input;
  std::memcpy(&dup[5100], &dup[5000], 100);  // record 51 replaced by a copy of record 50
  auto o = options(write("out", dup));
  o.inputs = {write("in", input)};
  EXPECT_FALSE(validate(o).matches_input());
  o.file = write("short", Bytes(input.begin(), input.end() - 100));
  EXPECT_FALSE(validate(o).matches_input());
}

TEST_F(Validation, SizeNotAMultipleOfTheRecordSize) {
  auto b = generate(GenDist::Sorted, 10);
  b.resize(950);
  const auto path = write("bad", b);
  try {
    validate(options(path));
    FAIL() << "no error";
  } catch (const RecordSizeError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": size 950 is not a multiple of the record size 100");
  }
}

TEST_F(Validation, EmptyFileIsValid) {
  const auto r = validate(options(write("empty", {})));
  EXPECT_EQ(r.records, 0u);
  EXPECT_TRUE(r.valid());
}

TEST_F(Validation, BadFormatIsAUsageError) {
  auto o = options(write("x", generate(GenDist::Sorted, 2)));
  o.format = "fixed:100";
  EXPECT_THROW(validate(o), corank::UsageError);
  o.keys = {"0:10"};
  EXPECT_TRUE(validate(o).valid());
}

}  // namespace
}  // namespace corank::tools
