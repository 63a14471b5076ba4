// corank-bench copy: copies a file the way corank's sort moves its bytes, for
// the peer of a sort in the same run: the inputs read positionally by every
// thread into a staging slot (RecordSource), the slot written by every thread
// through a shared mapping on tmpfs, else through the output's write-behind
// sink (OutputWriter), committed as a sort's output is (fsync unless
// --no-fsync, rename). A sort that reads all, sorts, then writes all cannot
// beat this copy; the ratio of the two is what sorting costs on top of I/O.
//
//   corank-bench copy --input /dev/shm/in --output /dev/shm/out [--threads 16] [--reps 3]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/output_writer.hpp"
#include "corank/record_source.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double copy_once(const std::string& in, const std::string& out, unsigned threads, std::uint64_t slot, bool fsync,
                 bool& mapped) {
  const auto t0 = Clock::now();
  corank::io::IoOptions io;
  io.sync_output = fsync;
  corank::RecordSource source({in}, 1, io);
  corank::io::OutputFile output(out, io);
  corank::io::WorkerPool pool(threads);
  corank::OutputWriter writer(output, pool, source.total_records());
  mapped = writer.mapped();
  corank::io::HugeVector<std::byte> buf(slot);
  for (;;) {
    const std::uint64_t got = source.read(buf.data(), slot, pool);
    if (got == 0) break;
    writer.write(buf.data(), got);
  }
  writer.finish();
  output.commit();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int bench_copy(int argc, char** argv) {
  std::string input, output;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t slot_mib = 16;
  int reps = 3;
  bool no_fsync = false;
  CLI::App app{"corank-bench copy: a file copied through corank's sort I/O (positional reads by all threads, "
               "mapped or write-behind output), the peer of a sort in the same run"};
  app.add_option("--input", input, "file to copy")->required();
  app.add_option("--output", output, "where the copy goes (replaced)")->required();
  app.add_option("--threads", threads, "threads (default: all cores)");
  app.add_option("--slot-mib", slot_mib, "staging slot size in MiB (the sort's default is 16)");
  app.add_option("--reps", reps, "copies; each is printed, then the median")->check(CLI::Range(1, 99));
  app.add_flag("--no-fsync", no_fsync, "do not fsync the copy (as corank --no-fsync)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    std::vector<double> times;
    bool mapped = false;
    for (int r = 0; r < reps; ++r) {
      times.push_back(copy_once(input, output, threads, slot_mib << 20, !no_fsync, mapped));
      std::printf("copy rep %d: %.3f s\n", r + 1, times.back());
    }
    std::sort(times.begin(), times.end());
    std::printf("copy %s -> %s: median %.3f s, %u threads, %s output\n", input.c_str(), output.c_str(),
                times[times.size() / 2], threads, mapped ? "mapped" : "write-behind");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank-bench copy: %s\n", e.what());
    return 2;
  }
}
