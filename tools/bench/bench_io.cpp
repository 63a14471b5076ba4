// corank-bench io: read, write and copy a large file through the I/O engine,
// and in the same run copy it with dd (O_DIRECT, 4 MiB) and cp, so the engine
// is judged against the tools on the same disk at the same moment.
//
//   corank-bench io --file /tmp/corank-bench.dat --size 2G
//
// Every write includes its fsync (the engine's finish(), dd conv=fsync, sync
// FILE after cp): a copy is done when it is on the disk. Before each step the
// page cache is dropped where the kernel allows it; the output says whether it
// could be, since cp reads through the cache and would otherwise be flattered.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "corank/io/buffer_allocator.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/io_engine.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/source.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace cio = corank::io;

struct Args {
  std::string file = "/tmp/corank-bench-io.dat";
  std::string size = "1G";
  std::size_t block_size = std::size_t{4} << 20;
  unsigned queue_depth = 8;
  std::string engine = "uring";
  bool direct = true;
  int repeat = 3;
};

std::uint64_t parse_size(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::uint64_t mul = 1;
  switch (end && *end ? *end : 0) {
    case 'k': case 'K': mul = 1ull << 10; break;
    case 'm': case 'M': mul = 1ull << 20; break;
    case 'g': case 'G': mul = 1ull << 30; break;
    case 't': case 'T': mul = 1ull << 40; break;
    case 0: break;
    default: throw std::invalid_argument("bad size: " + s);
  }
  return static_cast<std::uint64_t>(v * static_cast<double>(mul));
}

// Empty when the cache was dropped, else why not.
std::string drop_caches() {
  ::sync();
  int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  ssize_t r = ::write(fd, "3\n", 2);
  int e = errno;
  ::close(fd);
  return r == 2 ? std::string() : std::strerror(e);
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  if (rc != 0) throw std::runtime_error("command failed (" + std::to_string(rc) + "): " + cmd);
}

void remove_file(const std::string& p) { ::unlink(p.c_str()); }

// Write `size` bytes of incompressible data to `path` through OutputFile.
double engine_write(const std::string& path, std::uint64_t size, const cio::IoOptions& opt) {
  std::vector<char> chunk(std::size_t{8} << 20);
  std::mt19937_64 rng(42);
  for (std::size_t i = 0; i + 8 <= chunk.size(); i += 8) {
    std::uint64_t x = rng();
    std::memcpy(chunk.data() + i, &x, 8);
  }
  auto t = Clock::now();
  cio::OutputFile out(path, opt);
  for (std::uint64_t at = 0; at < size; at += chunk.size()) {
    // Vary the first word so no two chunks are equal (no dedup anywhere).
    std::memcpy(chunk.data(), &at, sizeof at);
    out.sink().write(chunk.data(), static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - at)));
  }
  out.commit();
  return seconds_since(t);
}

double engine_read(const std::string& path, std::uint64_t size, const cio::IoOptions& opt) {
  std::vector<char> buf(std::size_t{4} << 20);
  auto t = Clock::now();
  auto src = cio::open_source(path, opt);
  std::uint64_t total = 0;
  for (;;) {
    std::size_t k = src->read(buf.data(), buf.size());
    total += k;
    if (k < buf.size()) break;
  }
  double s = seconds_since(t);
  if (total != size) throw std::runtime_error("read " + std::to_string(total) + " bytes, expected " + std::to_string(size));
  return s;
}

double engine_copy(const std::string& from, const std::string& to, const cio::IoOptions& opt) {
  std::vector<char> buf(opt.block_size);
  auto t = Clock::now();
  auto src = cio::open_source(from, opt);
  cio::OutputFile out(to, opt);
  for (;;) {
    std::size_t k = src->read(buf.data(), buf.size());
    out.sink().write(buf.data(), k);
    if (k < buf.size()) break;
  }
  out.commit();
  return seconds_since(t);
}

double timed_shell(const std::string& cmd) {
  auto t = Clock::now();
  shell(cmd);
  return seconds_since(t);
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

int bench_io(int argc, char** argv) {
  Args a;
  CLI::App app{"corank-bench io: the I/O engine against dd (O_DIRECT, 4 MiB) and cp on one file"};
  app.add_option("--file", a.file, "scratch file to create (and copies beside it, all removed at the end)");
  app.add_option("--size", a.size, "file size, with K/M/G/T suffix");
  app.add_option("--block-size", a.block_size, "engine request size in bytes");
  app.add_option("--queue-depth", a.queue_depth, "engine requests in flight");
  app.add_option("--engine", a.engine, "uring or pread")->check(CLI::IsMember({"uring", "pread"}));
  app.add_option("--direct", a.direct, "O_DIRECT for aligned blocks (0 or 1)");
  app.add_option("--repeat", a.repeat, "runs of each step; the median is reported")->check(CLI::Range(1, 99));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    const std::uint64_t size = parse_size(a.size);
    cio::IoOptions opt;
    opt.block_size = a.block_size;
    opt.queue_depth = a.queue_depth;
    opt.use_uring = a.engine == "uring";
    opt.direct = a.direct;
    const std::string copy = a.file + ".copy", dd = a.file + ".dd", cp = a.file + ".cp";

    const std::string drop = drop_caches();
    std::vector<double> w, r, c, d, p;
    for (int i = 0; i < a.repeat; ++i) {
      remove_file(a.file);
      drop_caches();
      w.push_back(engine_write(a.file, size, opt));
      drop_caches();
      r.push_back(engine_read(a.file, size, opt));
      drop_caches();
      c.push_back(engine_copy(a.file, copy, opt));
      remove_file(copy);
      drop_caches();
      d.push_back(timed_shell("dd if=" + quote(a.file) + " of=" + quote(dd) +
                              " iflag=direct oflag=direct bs=4M conv=fsync status=none"));
      remove_file(dd);
      drop_caches();
      p.push_back(timed_shell("cp " + quote(a.file) + " " + quote(cp) + " && sync " + quote(cp)));
      remove_file(cp);
    }
    remove_file(a.file);

    std::string engine_name;
    {
      auto e = cio::make_engine(opt);
      engine_name = std::string(e->name());
    }
    const double gb = static_cast<double>(size) / 1e9;
    auto rate = [&](double s) { return gb / s; };
    std::printf("corank-bench io: file %s, %.3f GB, engine %s, block %zu KiB, queue depth %u, O_DIRECT %s, median of %d\n",
                a.file.c_str(), gb, engine_name.c_str(), a.block_size >> 10, a.queue_depth, a.direct ? "on" : "off",
                a.repeat);
    if (drop.empty())
      std::printf("page cache: dropped before every step (/proc/sys/vm/drop_caches)\n");
    else
      std::printf("page cache: could NOT be dropped (%s); cp may read from the cache\n", drop.c_str());
    std::printf("  %-34s %8.3f s  %7.3f GB/s\n", "engine write (+fsync)", median(w), rate(median(w)));
    std::printf("  %-34s %8.3f s  %7.3f GB/s\n", "engine read", median(r), rate(median(r)));
    std::printf("  %-34s %8.3f s  %7.3f GB/s\n", "engine copy (+fsync)", median(c), rate(median(c)));
    std::printf("  %-34s %8.3f s  %7.3f GB/s\n", "dd iflag/oflag=direct bs=4M (+fsync)", median(d), rate(median(d)));
    std::printf("  %-34s %8.3f s  %7.3f GB/s\n", "cp (+sync)", median(p), rate(median(p)));
    const double best = std::max(rate(median(d)), rate(median(p)));
    std::printf("  engine copy / best of dd, cp: %.2f (goal >= 0.95); / dd %.2f; / cp %.2f\n", rate(median(c)) / best,
                rate(median(c)) / rate(median(d)), rate(median(c)) / rate(median(p)));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-bench io: %s\n", e.what());
    return 2;
  }
}
