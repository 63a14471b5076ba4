// Compressed input and output through open_source/OutputFile and run files:
// round trips per codec, detection by magic bytes, interoperation with the
// command-line tools, and corrupt or truncated input that must fail loudly.
#include <fcntl.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include "corank/io/compressed_stream.hpp"
#include "corank/io/error.hpp"
#include "corank/io/fault_injection.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/positional_file.hpp"
#include "corank/io/run_file.hpp"
#include "corank/io/source.hpp"
#include "corank/io/temp_files.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

struct CodecCase {
  Codec codec;
  const char* suffix;
  const char* tool;  // decompresses to stdout
};

const CodecCase kCodecs[] = {
    {Codec::gzip, ".gz", "gzip -dc"},
    {Codec::bzip2, ".bz2", "bzip2 -dc"},
    {Codec::xz, ".xz", "xz -dc"},
    {Codec::zstd, ".zst", "zstd -qdc"},
};

// Text-like data compresses; random bytes do not. Both, concatenated.
std::string sample(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; s.size() < n / 2; ++i) s += std::to_string(i * 2654435761u % 1000003) + "\n";
  s += pattern(n - s.size(), 9);
  return s;
}

std::string read_all(ByteSource& s) {
  std::string out, buf(1 << 16, '\0');
  for (;;) {
    std::size_t k = s.read(buf.data(), buf.size());
    out.append(buf.data(), k);
    if (k < buf.size()) return out;
  }
}

void write_output(const std::string& path, const std::string& data, const IoOptions& opt) {
  OutputFile out(path, opt);
  for (std::size_t at = 0; at < data.size(); at += 100000)
    out.sink().write(data.data() + at, std::min<std::size_t>(100000, data.size() - at));
  out.commit();
}

class CompressionTest : public ::testing::TestWithParam<std::tuple<CodecCase, Engine>> {
protected:
  void SetUp() override { CORANK_REQUIRE_ENGINE(engine()); }
  const CodecCase& codec() const { return std::get<0>(GetParam()); }
  Engine engine() const { return std::get<1>(GetParam()); }
  IoOptions opt() const { return options_for(engine()); }
  ScratchDir dir_;
};

TEST_P(CompressionTest, RoundTripBySuffix) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4097}, (std::size_t{2} << 20) + 1}) {
    const std::string data = sample(n);
    const std::string path = dir_.file("data" + std::to_string(n) + codec().suffix);
    write_output(path, data, opt());
    auto src = open_source(path, opt());
    EXPECT_FALSE(src->size());
    EXPECT_EQ(read_all(*src), data) << codec_name(codec().codec) << " size " << n;
    if (n > 100000) EXPECT_LT(slurp(path).size(), data.size()) << "output not compressed";
  }
}

// Threads cannot fill byte ranges of a compressed output: reserve_range()
// declines and leaves the sink to go on.
TEST_P(CompressionTest, NoRangeOfACompressedOutput) {
  const std::string data = sample(300000);
  const std::string path = dir_.file(std::string("ranged") + codec().suffix);
  {
    OutputFile out(path, opt());
    EXPECT_FALSE(out.can_reserve_range());
    out.sink().write(data.data(), 1000);
    EXPECT_FALSE(out.reserve_range());
    out.sink().write(data.data() + 1000, data.size() - 1000);
    out.commit();
  }
  EXPECT_EQ(read_all(*open_source(path, opt())), data);
}

TEST_P(CompressionTest, DetectedByMagicOnAPipe) {
  const std::string data = sample(300000);
  IoOptions o = opt();
  o.output_codec = codec().codec;
  const std::string path = dir_.file("no-suffix");
  write_output(path, data, o);
  const std::string compressed = slurp(path);
  // A pipe has no name to judge by: the magic bytes decide.
  const std::string fifo = dir_.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream f(fifo, std::ios::binary);
    f.write(compressed.data(), static_cast<std::streamsize>(compressed.size()));
  });
  auto src = open_source(fifo, opt());
  EXPECT_EQ(read_all(*src), data);
  writer.join();
  // Unless the reader reads records, which are taken as they are, header or not.
  std::thread again([&] {
    std::ofstream f(fifo, std::ios::binary);
    f.write(compressed.data(), static_cast<std::streamsize>(compressed.size()));
  });
  auto records = open_source(fifo, opt(), std::nullopt, MagicBytes::ignore);
  EXPECT_EQ(read_all(*records), compressed);
  again.join();
  // A regular file without a codec suffix is taken as it is, magic or not.
  auto plain = open_source(path, opt());
  EXPECT_EQ(read_all(*plain), compressed);
}

TEST_P(CompressionTest, CommandLineToolReadsOurOutput) {
  const std::string tool = std::string(codec().tool).substr(0, std::string(codec().tool).find(' '));
  if (std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) != 0)
    GTEST_SKIP() << tool << " is not installed";
  const std::string data = sample(500000);
  const std::string path = dir_.file(std::string("c") + codec().suffix);
  write_output(path, data, opt());
  const std::string out = dir_.file("plain");
  ASSERT_EQ(std::system((std::string(codec().tool) + " '" + path + "' > '" + out + "'").c_str()), 0);
  EXPECT_EQ(slurp(out), data);
}

TEST_P(CompressionTest, TruncatedInputFails) {
  const std::string data = sample(400000);
  const std::string path = dir_.file(std::string("t") + codec().suffix);
  write_output(path, data, opt());
  const std::string full = slurp(path);
  for (std::size_t keep : {full.size() / 2, full.size() - 1, std::size_t{0}}) {
    spit(path, full.substr(0, keep));
    try {
      auto src = open_source(path, opt());
      std::string got = read_all(*src);
      FAIL() << "truncated to " << keep << " of " << full.size() << " bytes: read " << got.size()
             << " bytes without error";
    } catch (const IoError& e) {
      EXPECT_EQ(std::string(e.what()),
                "read failed: " + path + ": corrupt or truncated " + std::string(codec_name(codec().codec)) + " stream");
    }
  }
}

TEST_P(CompressionTest, CorruptInputFails) {
  const std::string data = sample(400000);
  const std::string path = dir_.file(std::string("x") + codec().suffix);
  write_output(path, data, opt());
  const std::string full = slurp(path);
  // Flip bytes in the header, the middle and near the end (the checksums).
  // (gzip's last 4 bytes are the length mod 2^32, which Boost does not check;
  // the data before them is verified by the CRC.)
  for (std::size_t at : {std::size_t{1}, full.size() / 2, full.size() - 6}) {
    std::string bad = full;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    spit(path, bad);
    try {
      auto src = open_source(path, opt());
      std::string got = read_all(*src);
      FAIL() << "flipped byte " << at << " of " << full.size() << ": read " << got.size()
             << " bytes without error (equal: " << (got == data) << ")";
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find("read failed: " + path + ": corrupt"), std::string::npos) << e.what();
    }
  }
}

TEST_P(CompressionTest, CompressedRunFile) {
  IoOptions o = opt();
  o.temp_codec = codec().codec;
  TempDirectories temps({dir_.path()});
  FileDesc fd = temps.create_anonymous();
  // Two runs back to back in one file, read back by offset and stored length.
  const std::string a = sample(700000), b = sample(123457);
  auto s1 = make_run_sink(fd.get(), "run", o);
  s1->write(a.data(), a.size());
  s1->finish();
  auto s2 = make_run_sink(fd.get(), "run", o);
  s2->write(b.data(), b.size());
  s2->finish();
  EXPECT_EQ(s1->bytes_written(), a.size());
  EXPECT_LT(s1->stored_bytes(), a.size());
  auto r1 = make_run_source(fd.get(), "run", o, 0, s1->stored_bytes());
  EXPECT_EQ(read_all(*r1), a);
  auto r2 = make_run_source(fd.get(), "run", o, s1->stored_bytes(), s2->stored_bytes());
  EXPECT_EQ(read_all(*r2), b);
}

// A run compressed on several threads, in pieces of its own streams written
// in order, reads back as one stream, whatever the sizes of the writes (some
// inside a batch, some of many batches at once); the pieces are really there,
// and a pool of one thread writes one stream.
TEST_P(CompressionTest, RunCompressedOnSeveralThreadsReadsBackAsOneStream) {
  IoOptions o = opt();
  o.temp_codec = codec().codec;
  TempDirectories temps({dir_.path()});
  const std::string data = sample(600000);
  // Stream starts: the codec's magic bytes.
  const std::string magic = codec().codec == Codec::gzip    ? std::string("\x1f\x8b\x08", 3)
                            : codec().codec == Codec::bzip2 ? std::string("BZh")
                            : codec().codec == Codec::xz    ? std::string("\xfd" "7zXZ", 5)
                                                            : std::string("\x28\xb5\x2f\xfd", 4);
  auto streams = [&](const std::string& packed) {
    std::size_t n = 0;
    for (std::size_t at = packed.find(magic); at != std::string::npos; at = packed.find(magic, at + 1)) ++n;
    return n;
  };
  for (unsigned threads : {1u, 3u, 8u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    FileDesc fd = temps.create_anonymous();
    std::string packed;
    auto sink = parallel_compressing_sink(std::make_unique<StringSink>(packed), o.temp_codec, "run", threads, 10000);
    std::mt19937 rng(threads);
    for (std::size_t at = 0; at < data.size();) {
      const std::size_t n = std::min<std::size_t>(data.size() - at, rng() % 2 ? rng() % 5000 : rng() % 200000);
      sink->write(data.data() + at, n);
      at += n;
    }
    sink->finish();
    EXPECT_EQ(sink->bytes_written(), data.size());
    EXPECT_EQ(sink->stored_bytes(), packed.size());
    if (threads == 1)
      EXPECT_EQ(streams(packed), 1u);
    else
      EXPECT_GE(streams(packed), data.size() / 10000);  // one stream a piece
    pwrite_full(fd.get(), packed.data(), packed.size(), 0, "run");
    auto back = make_run_source(fd.get(), "run", o);
    EXPECT_EQ(read_all(*back), data);
  }
  // Nothing written is one empty stream, which reads back as nothing.
  {
    FileDesc fd = temps.create_anonymous();
    std::string packed;
    auto sink = parallel_compressing_sink(std::make_unique<StringSink>(packed), o.temp_codec, "run", 4, 10000);
    sink->finish();
    EXPECT_EQ(streams(packed), 1u);
    pwrite_full(fd.get(), packed.data(), packed.size(), 0, "run");
    auto back = make_run_source(fd.get(), "run", o);
    EXPECT_EQ(read_all(*back), "");
  }
  // make_run_sink compresses on the threads it is given, to the same bytes.
  FileDesc fd = temps.create_anonymous();
  auto sink = make_run_sink(fd.get(), "run", o, 4);
  sink->write(data.data(), data.size());
  sink->finish();
  EXPECT_LT(sink->stored_bytes(), data.size());
  auto back = make_run_source(fd.get(), "run", o, 0, sink->stored_bytes());
  EXPECT_EQ(read_all(*back), data);
}

TEST_P(CompressionTest, WriteFailureInsideCompressorIsReported) {
  const std::string path = dir_.file(std::string("f") + codec().suffix);
  try {
    FailAfter full_disk(FaultPoint::write, 1);
    ScopedFaultInjector faults(full_disk);
    write_output(path, sample(3 << 20), opt());
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "write failed: " + path + ": No space left on device");
  }
  EXPECT_TRUE(dir_.entries().empty());
}

std::string name(const ::testing::TestParamInfo<std::tuple<CodecCase, Engine>>& i) {
  return std::string(codec_name(std::get<0>(i.param).codec)) + "_" +
         (std::get<1>(i.param) == Engine::uring ? "uring" : "pread");
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressionTest,
                         ::testing::Combine(::testing::ValuesIn(kCodecs), ::testing::Values(Engine::uring, Engine::pread)),
                         name);

// What every codec's compressor writes, empty or not, is told by its header;
// text lines that begin like one (bzip2's "BZh" and a digit are plain words)
// are not.
TEST(CodecDetection, CompressedStreamsAreToldAndLinesAreNot) {
  for (const Codec c : {Codec::gzip, Codec::bzip2, Codec::xz, Codec::zstd})
    for (const std::string& data : {std::string(), std::string("b\na\n"), pattern(100000, 3)}) {
      SCOPED_TRACE(std::string(codec_name(c)) + ", " + std::to_string(data.size()) + " bytes");
      std::string packed;
      for (const CompressionLevel level : {CompressionLevel::fast, CompressionLevel::normal}) {
        packed.clear();
        auto sink = compressing_sink(std::make_unique<StringSink>(packed), c, "test", level);
        sink->write(data.data(), data.size());
        sink->finish();
        EXPECT_EQ(codec_from_magic(reinterpret_cast<const unsigned char*>(packed.data()), packed.size()), c);
      }
    }
  const std::vector<std::string> lines{"BZh5 is a line\n", "BZh91AY&S\n", "BZh9 1AY&SY\n", "\xfd" "7zXZ\n",
                                      std::string("\xfd" "7zXZ\0\x01\0", 8), "(\xb5/\xfd\x08 ok\n", "\x1f\x8b\x07 x\n"};
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    EXPECT_EQ(codec_from_magic(reinterpret_cast<const unsigned char*>(line.data()), line.size()), Codec::none);
  }
}

TEST(CodecDetection, SuffixAndMagic) {
  EXPECT_EQ(codec_from_suffix("a.gz"), Codec::gzip);
  EXPECT_EQ(codec_from_suffix("a.tar.bz2"), Codec::bzip2);
  EXPECT_EQ(codec_from_suffix("x.xz"), Codec::xz);
  EXPECT_EQ(codec_from_suffix("x.zst"), Codec::zstd);
  EXPECT_EQ(codec_from_suffix(".gz"), Codec::none);  // a hidden file named ".gz", no stem
  EXPECT_EQ(codec_from_suffix("gz"), Codec::none);
  EXPECT_EQ(codec_from_suffix("data.bin"), Codec::none);
  const unsigned char gz[] = {0x1f, 0x8b, 8, 0, 0, 0};
  const unsigned char not_gz[] = {0x1f, 0x8b, 7, 0, 0, 0};
  const unsigned char zst[] = {0x28, 0xb5, 0x2f, 0xfd, 0x24};
  const unsigned char zst_reserved[] = {0x28, 0xb5, 0x2f, 0xfd, 0x2c};
  EXPECT_EQ(codec_from_magic(gz, 6), Codec::gzip);
  EXPECT_EQ(codec_from_magic(not_gz, 6), Codec::none);
  EXPECT_EQ(codec_from_magic(zst, 5), Codec::zstd);
  EXPECT_EQ(codec_from_magic(zst, 4), Codec::none);
  EXPECT_EQ(codec_from_magic(zst_reserved, 5), Codec::none);
  EXPECT_EQ(parse_codec("zst"), Codec::zstd);
  EXPECT_EQ(parse_codec("lz4"), std::nullopt);
}

TEST(CodecDetection, PlainInputPassesThroughDetection) {
  ScratchDir dir;
  for (std::size_t n : {0, 1, 5, 6, 7, 100000}) {
    const std::string data = pattern(n, 77);
    spit(dir.file("p"), data);
    auto src = open_source(dir.file("p"), IoOptions{});
    ASSERT_TRUE(src->size());
    EXPECT_EQ(*src->size(), n);
    EXPECT_EQ(read_all(*src), data) << n;
  }
}

}  // namespace
}  // namespace corank::io::test
