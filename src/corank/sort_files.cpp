// sort_files, the library's entry for fixed-size records: asks the GPU gate
// for a device and sorts there (device_pipeline.hpp) or on the CPU threads
// (external_sort.hpp). A GPU failure under --gpu=auto starts the sort again
// on the CPU with a fresh output; the gate sends only inputs that can be read
// again to the GPU under auto, so that this is always possible.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "corank/device_pipeline.hpp"
#include "corank/external_sort.hpp"
#include "corank/gpu_gate.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/positional_input.hpp"
#include "corank/io/worker_pool.hpp"
#include "corank/machine_share.hpp"
#include "corank/planner.hpp"
#include "corank/prepared_device.hpp"
#include "corank/record_source.hpp"
#include "corank/output_writer.hpp"
#include "corank/verify_output.hpp"
#include "corank/words_sort.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

namespace {

// What the gate needs to know of the inputs, from stat alone: their record
// count when every input is a regular file read as it is, and whether they can
// be read twice.
RecordDeviceRequest describe_inputs(const SortOptions& options, std::uint32_t R) {
  RecordDeviceRequest r;
  if (options.input_selection) {
    r.total_records = options.input_selection->records();
    return r;
  }
  if (!options.input_buffers.empty()) {
    std::uint64_t bytes = 0;
    for (const auto& b : options.input_buffers) bytes += b.size();
    r.total_records = bytes / R;
    return r;
  }
  const auto paths = options.inputs.empty() ? std::vector<std::string>{"-"} : options.inputs;
  std::uint64_t bytes = 0;
  for (const auto& p : paths) {
    struct stat st {};
    if (p == "-" || ::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      r.rereadable = false;
    else
      bytes += static_cast<std::uint64_t>(st.st_size);
  }
  if (io::PositionalInput::suits(options.inputs, options.io)) r.total_records = bytes / R;
  return r;
}

// The inputs as records for the device pipeline and the words sort.
RecordSource record_source(const SortOptions& options, std::uint32_t R, const io::IoOptions& io, unsigned threads) {
  if (options.input_selection) return RecordSource(options.input_buffers, R, *options.input_selection, threads);
  if (!options.input_buffers.empty()) return RecordSource(options.input_buffers, R);
  return RecordSource(options.inputs, R, io);
}

// Verifies (--verify) and commits the output; fills the byte counts.
void finish(io::OutputFile& output, const SortOptions& options, const RecordFormat& format, const KeyNormalizer& norm,
            const RecordChecksum& input_sum, SortStats& stats) {
  stats.bytes_in = stats.records_in * format.record_size;
  stats.bytes_out = stats.records_out * format.record_size;
  if (options.verify) {
    const auto tv = Clock::now();
    output.finish_writing();  // a mapped output cut to what -u kept
    verify_output(*output.read_back(options.io), options, format, norm, input_sum, stats.records_out, stats.threads);
    stats.seconds.verify = seconds_since(tv);
  }
  const auto tc = Clock::now();
  output.commit();
  stats.seconds.write += seconds_since(tc);
}

}  // namespace

SortStats sort_files(const SortOptions& options) {
  const auto t0 = Clock::now();
  if (options.verify) {
    struct stat st {};
    if (options.output.empty() || options.output == "-" ||
        (::stat(options.output.c_str(), &st) == 0 && !S_ISREG(st.st_mode)))
      throw UsageError("--verify needs the output in a regular file (-o FILE)");
  }

  const RecordFormat format = in_sort_order(options.format, options.reverse);
  const KeyNormalizer norm(format);
  const std::uint32_t R = format.record_size;
  SortStats fresh;
  fresh.memory_budget = options.memory_budget ? options.memory_budget : default_memory_budget();
  fresh.threads = threads_within(fresh.memory_budget,
                                 options.threads ? options.threads : machine_share().cpus);
  SortStats stats = fresh;

  RecordDeviceRequest request = describe_inputs(options, R);
  request.slot_bytes = staging_slot_bytes(stats.memory_budget, R);
  double setup = 0;
  // Records the caller put on the device already, where they are this input.
  PreparedDevice* prepared = options.prepared_device;
  if (prepared && (options.verify || !request.total_records || !prepared->holds(*request.total_records)))
    prepared = nullptr;
  std::unique_ptr<RecordDevice> opened;
  if (!prepared) opened = open_record_device(options, format, request, &setup);
  if (RecordDevice* device = prepared ? &prepared->device() : opened.get()) {
    try {
      // Inputs are opened before the output is created, so an unreadable input fails first.
      const MemoryPlan memory = plan_memory(options.io, stats.memory_budget, 1);  // the output's write-behind
      RecordSource source = record_source(options, R, memory.io, stats.threads);
      io::OutputFile output(options.output, memory.io);
      io::WorkerPool pool(stats.threads);
      Progress progress(options.progress);
      RecordChecksum input_sum;
      stats.gpu_seconds.setup = prepared ? prepared->setup_seconds() : setup;
      const std::uint64_t staging = device->staging_bytes();
      DeviceSortJob job{options, format, norm, *device, source, output, pool, progress, stats,
                        memory.arrays > staging ? memory.arrays - staging : 0,
                        options.verify ? &input_sum : nullptr, prepared};
      sort_on_device(job);
      progress.finish();
      finish(output, options, format, norm, input_sum, stats);
      stats.seconds.total = seconds_since(t0);
      return stats;
    } catch (const GpuError& e) {
      gpu_fail_over(options, "sort", e);  // throws under --gpu=on
      stats = fresh;
    }
  }

  // The input's read-ahead, the output's or a run's write-behind and the
  // merge's reads hold engine buffers at once.
  const MemoryPlan memory = plan_memory(io_within_descriptors(options.io), stats.memory_budget, 3);
  if (words_sort_applies(format, request.total_records, memory.arrays)) {
    RecordSource source = record_source(options, R, memory.io, stats.threads);
    io::OutputFile output(options.output, memory.io);
    io::WorkerPool pool(stats.threads);
    OutputWriter writer(output, pool, source.total_records().value_or(0) * R);
    Progress progress(options.progress);
    RecordChecksum input_sum;
    sort_words_on_cpu(WordsSortJob{options, format, source, writer, pool, progress, stats,
                                   options.verify ? &input_sum : nullptr});
    progress.finish();
    finish(output, options, format, norm, input_sum, stats);
    stats.seconds.total = seconds_since(t0);
    return stats;
  }
  SortOptions cpu_options = options;
  cpu_options.io = memory.io;
  // Cached input files are read by every thread at once (read_ahead_source.hpp).
  cpu_options.io.read_threads = stats.threads;
  RecordInput input = options.input_selection ? RecordInput(options.input_buffers, R, stats.threads,
                                                            *options.input_selection)
                      : options.input_buffers.empty() ? RecordInput(options.inputs, R, cpu_options.io)
                                                      : RecordInput(options.input_buffers, R, stats.threads);
  io::OutputFile output(options.output, memory.io);
  Progress progress(options.progress);
  RecordChecksum input_sum;
  sort_on_cpu(CpuSortJob{cpu_options, format, norm, input, output, stats, progress,
                         options.verify ? &input_sum : nullptr, memory.arrays});
  progress.finish();
  finish(output, options, format, norm, input_sum, stats);
  stats.seconds.total = seconds_since(t0);
  return stats;
}

}  // namespace corank
