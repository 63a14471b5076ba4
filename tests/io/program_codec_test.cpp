// Runs compressed by an outside program (program_codec.hpp): round trips
// through make_run_sink/make_run_source, and every way the program can fail,
// each an IoError, never a SIGPIPE to this process, and no child left behind.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/program_codec.hpp"
#include "corank/io/run_file.hpp"
#include "corank/io/temp_files.hpp"

namespace corank::io::test {
namespace {

namespace fs = std::filesystem;

class ProgramCodec : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("corank-program-codec-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::remove_all(dir_);
    // Every child was reaped: none is left to wait for.
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
  }
  std::string script(const std::string& name, const std::string& body) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << body;
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  static std::string data(std::size_t n) {
    std::mt19937 rng(3);
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 7);
    return s;
  }
  static std::string read_all(ByteSource& src) {
    std::string out, buf(100000, '\0');
    while (std::size_t n = src.read(buf.data(), buf.size())) out.append(buf.data(), n);
    return out;
  }
  static std::string error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const IoError& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(ProgramCodec, RoundTripThroughRunFiles) {
  IoOptions opt;
  opt.temp_program = script("gz", "if [ \"$1\" = -d ]; then exec gzip -dc; fi\nexec gzip -c\n");
  TempDirectories temps({dir_.string()});
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5} << 20}) {
    SCOPED_TRACE(n);
    const std::string want = data(n);
    FileDesc fd = temps.create_anonymous();
    auto sink = make_run_sink(fd.get(), "temporary file", opt);
    // Pieces of many sizes: small ones are gathered, large ones go straight to the pipe.
    for (std::size_t at = 0, step = 1; at < n; at += step, step = step * 3 + 1)
      sink->write(want.data() + at, std::min(step, n - at));
    sink->finish();
    EXPECT_EQ(sink->bytes_written(), n);
    EXPECT_GT(sink->stored_bytes(), 0u);  // gzip's header at least: PROG wrote the file
    EXPECT_EQ(static_cast<std::uint64_t>(::lseek(fd.get(), 0, SEEK_END)), sink->stored_bytes());
    auto src = make_run_source(fd.get(), "temporary file", opt);
    EXPECT_TRUE(read_all(*src) == want);
  }
}

TEST_F(ProgramCodec, ProgramThatStopsReadingFailsWithItsStatus) {
  // 5 MiB into a program that reads nothing: the writes meet a closed pipe.
  const std::string prog = script("quit", "exit 7\n");
  TempDirectories temps({dir_.string()});
  FileDesc fd = temps.create_anonymous();
  const std::string bytes = data(std::size_t{5} << 20);
  const std::string err = error_of([&] {
    auto sink = program_compressing_sink(fd.get(), prog, "temporary file");
    sink->write(bytes.data(), bytes.size());
    sink->finish();
  });
  EXPECT_EQ(err, "compress program: '" + prog + "': terminated abnormally (exit status 7)");
}

TEST_F(ProgramCodec, ProgramThatExitsZeroEarlyLosesNoDataSilently) {
  const std::string prog = script("head", "exit 0\n");
  TempDirectories temps({dir_.string()});
  FileDesc fd = temps.create_anonymous();
  const std::string bytes = data(std::size_t{5} << 20);
  const std::string err = error_of([&] {
    auto sink = program_compressing_sink(fd.get(), prog, "temporary file");
    sink->write(bytes.data(), bytes.size());
    sink->finish();
  });
  EXPECT_EQ(err, "compress program: '" + prog + "': exited before reading all its input");
}

TEST_F(ProgramCodec, FailedDecompressionIsAnErrorNotAShortRun) {
  const std::string prog = script("half", "if [ \"$1\" = -d ]; then head -c 10; exit 1; fi\nexec cat\n");
  TempDirectories temps({dir_.string()});
  FileDesc fd = temps.create_anonymous();
  const std::string bytes = data(1000);
  auto sink = program_compressing_sink(fd.get(), prog, "temporary file");
  sink->write(bytes.data(), bytes.size());
  sink->finish();
  auto src = program_decompressing_source(fd.get(), prog, "temporary file");
  EXPECT_EQ(error_of([&] { read_all(*src); }),
            "compress program: '" + prog + " -d': terminated abnormally (exit status 1)");
}

TEST_F(ProgramCodec, ProgramThatCannotStart) {
  TempDirectories temps({dir_.string()});
  FileDesc fd = temps.create_anonymous();
  const std::string missing = (dir_ / "missing").string();
  EXPECT_EQ(error_of([&] { program_compressing_sink(fd.get(), missing, "temporary file"); }),
            "couldn't execute compress program: '" + missing + "': No such file or directory");
  EXPECT_EQ(error_of([&] { program_decompressing_source(fd.get(), missing, "temporary file"); }),
            "couldn't execute compress program: '" + missing + " -d': No such file or directory");
}

// A sink or source dropped halfway (an error elsewhere) kills and reaps its
// child; TearDown checks that none is left.
TEST_F(ProgramCodec, AbandonedStreamsReapTheirChildren) {
  const std::string prog = script("slow", "exec cat\n");
  TempDirectories temps({dir_.string()});
  FileDesc fd = temps.create_anonymous();
  const std::string bytes = data(std::size_t{1} << 20);
  {
    auto sink = program_compressing_sink(fd.get(), prog, "temporary file");
    sink->write(bytes.data(), bytes.size());
  }
  {
    auto sink = program_compressing_sink(fd.get(), prog, "temporary file");
    sink->write(bytes.data(), bytes.size());
    sink->finish();
    auto src = program_decompressing_source(fd.get(), prog, "temporary file");
    char buf[16];
    ASSERT_EQ(src->read(buf, sizeof buf), sizeof buf);
  }
}

}  // namespace
}  // namespace corank::io::test
