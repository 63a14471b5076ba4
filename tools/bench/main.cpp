// corank-bench: one benchmark tool, one subcommand per subsystem.
#include <cstdio>
#include <cstring>
#include <string_view>

int bench_io(int argc, char** argv);
int bench_copy(int argc, char** argv);
int bench_cpusort(int argc, char** argv);
int bench_touch(int argc, char** argv);
int bench_timesearch(int argc, char** argv);
#ifdef CORANK_HAVE_CUDA
int bench_merge(int argc, char** argv);
int bench_pcie(int argc, char** argv);
int bench_hostsort(int argc, char** argv);
#endif

namespace {
void usage() {
  std::fprintf(stderr,
               "usage: corank-bench SUBCOMMAND [OPTION]...\n"
               "  io      read, write and copy a file through the I/O engine, against dd and cp\n"
               "  copy    copy a file through corank's sort I/O with all threads: the peer of a sort\n"
               "  cpusort the CPU radix sort against std::sort and the parallel comparison sort\n"
               "  touch   a first touch of fresh memory: 4 KiB or huge pages, touched or populated\n"
               "  timesearch  finding each log line's time as --time does, on one thread\n"
#ifdef CORANK_HAVE_CUDA
               "  merge   GPU merge kernels against thrust::merge\n"
               "  pcie    pinned host-device copy bandwidth\n"
               "  hostsort  sort a u64 array in host RAM on the GPU, against the PCIe bound\n"
#endif
               "Run 'corank-bench SUBCOMMAND --help' for the options of each.\n");
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    usage();
    return argc < 2 ? 2 : 0;
  }
  std::string_view sub = argv[1];
  if (sub == "io") return bench_io(argc - 1, argv + 1);
  if (sub == "copy") return bench_copy(argc - 1, argv + 1);
  if (sub == "cpusort") return bench_cpusort(argc - 1, argv + 1);
  if (sub == "touch") return bench_touch(argc - 1, argv + 1);
  if (sub == "timesearch") return bench_timesearch(argc - 1, argv + 1);
#ifdef CORANK_HAVE_CUDA
  if (sub == "merge") return bench_merge(argc - 1, argv + 1);
  if (sub == "pcie") return bench_pcie(argc - 1, argv + 1);
  if (sub == "hostsort") return bench_hostsort(argc - 1, argv + 1);
#endif
  std::fprintf(stderr, "corank-bench: unknown subcommand '%s'\n", argv[1]);
  usage();
  return 2;
}
