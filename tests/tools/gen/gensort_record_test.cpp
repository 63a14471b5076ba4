#include "gensort_record.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <cctype>
#include <string>

namespace corank::tools {
namespace {

using Record = std::array<std::uint8_t, kGensortRecordSize>;

std::string field(const Record& r, std::size_t offset, std::size_t length) {
  return std::string(reinterpret_cast<const char*>(r.data()) + offset, length);
}

// Every filler group is four copies of one uppercase hex digit; returns the digits.
std::string filler_digits(const Record& r, std::uint32_t offset, std::uint32_t groups) {
  std::string digits;
  for (std::uint32_t g = 0; g < groups; ++g) {
    const std::uint8_t c = r[offset + 4 * g];
    EXPECT_TRUE(std::isxdigit(c) && !std::islower(c)) << "group " << g;
    for (int j = 1; j < 4; ++j) EXPECT_EQ(r[offset + 4 * g + j], c) << "group " << g;
    digits += static_cast<char>(c);
  }
  return digits;
}

TEST(GensortRecord, BinaryLayout) {
  const std::uint8_t key[10] = {0xFF, 0x00, 1, 2, 3, 4, 5, 6, 7, 0x80};
  Record r{};
  write_gensort_binary(r.data(), key, 0x1234ABCDEF, 0xFEDCBA9876543210ULL);
  EXPECT_EQ(0, std::memcmp(r.data(), key, 10));
  EXPECT_EQ(r[10], 0x00);
  EXPECT_EQ(r[11], 0x11);
  EXPECT_EQ(field(r, 12, 32), "000000000000000000000012" "34ABCDEF");
  EXPECT_EQ(r[44], 0x88);
  EXPECT_EQ(r[45], 0x99);
  EXPECT_EQ(r[46], 0xAA);
  EXPECT_EQ(r[47], 0xBB);
  // Group g holds nibble g of the filler bits, lowest first.
  EXPECT_EQ(filler_digits(r, 48, 12), "0123456789AB");
  EXPECT_EQ(r[96], 0xCC);
  EXPECT_EQ(r[97], 0xDD);
  EXPECT_EQ(r[98], 0xEE);
  EXPECT_EQ(r[99], 0xFF);
}

TEST(GensortRecord, AsciiLayout) {
  const std::uint8_t key[10] = {' ', '~', 'a', 'B', '0', '!', '#', 'z', 'Q', '.'};
  Record r{};
  write_gensort_ascii(r.data(), key, ~0ULL, 0x0123456789ABCDEFULL);
  EXPECT_EQ(field(r, 0, 10), " ~aB0!#zQ.");
  EXPECT_EQ(field(r, 10, 2), "  ");
  EXPECT_EQ(field(r, 12, 32), "0000000000000000FFFFFFFFFFFFFFFF");
  EXPECT_EQ(field(r, 44, 2), "  ");
  EXPECT_EQ(filler_digits(r, 46, 13), "FEDCBA9876543");
  EXPECT_EQ(field(r, 98, 2), "\r\n");
  for (std::size_t i = 0; i < 98; ++i) EXPECT_TRUE(std::isprint(r[i])) << "byte " << i;
}

}  // namespace
}  // namespace corank::tools
