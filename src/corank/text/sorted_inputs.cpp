#include "corank/text/sorted_inputs.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corank/io/output_file.hpp"
#include "corank/io/source.hpp"
#include "corank/stopwatch.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_writer.hpp"
#include "corank/text/run_merge.hpp"

namespace corank::text {

void merge_sorted_inputs(const TextSortOptions& options, const io::IoOptions& io, std::size_t merge_buffer,
                         TextFormat& format, SortStats& stats) {
  std::vector<std::unique_ptr<io::ByteSource>> sources;
  std::vector<std::string> names = options.inputs.empty() ? std::vector<std::string>{"-"} : options.inputs;
  for (const auto& n : names) sources.push_back(io::open_source(n, io));
  io::OutputFile output(options.output, io);
  stats.mode = "merge";
  std::vector<std::unique_ptr<RecordReader>> readers;
  for (auto& s : sources) {
    io::ByteSource* src = s.get();
    readers.push_back(std::make_unique<RecordReader>(
        [src](char* dst, std::size_t n) { return src->read(dst, n); }, src->name(), format, merge_buffer));
  }
  std::string header;
  bool have_header = false;
  if (format.has_header()) {
    std::string from;
    for (std::size_t i = 0; i < readers.size(); ++i) {
      std::string_view h;
      if (readers[i]->next(h) && !have_header) header.assign(h), have_header = true, from = sources[i]->name();
    }
    if (have_header) format.set_header(header, from);
  }
  RecordWriter out(output.sink(), format.terminator(), format.unique() ? &format : nullptr);
  if (options.debug) out.show_debug_view(format);
  if (have_header && options.write_header) out.write_raw(header + '\n');
  auto t_merge = Clock::now();
  merge_streams(readers, format, out);
  out.finish();
  stats.seconds.merge = seconds_since(t_merge);
  stats.records_in = stats.records_out = out.records();
  stats.bytes_out = out.bytes();
  output.commit();
}

TextCheckResult check_text(const std::string& path, TextFormat& format, const io::IoOptions& io) {
  auto source = io::open_source(path, io);
  io::ByteSource* src = source.get();
  RecordReader reader([src](char* dst, std::size_t n) { return src->read(dst, n); }, path, format, 1 << 20);
  TextCheckResult result;
  std::string_view rec;
  std::uint64_t number = 0;
  if (format.has_header()) {
    if (!reader.next(rec)) return result;
    format.set_header(rec, path);
    ++number;
  }
  std::string prev;
  bool have_prev = false;
  // Under -u equal neighbours are disorder too, as in GNU sort -c -u.
  const int limit = format.unique() ? 0 : 1;
  while (reader.next(rec)) {
    ++number;
    if (have_prev && format.compare(prev, rec) >= limit) {
      result.sorted = false;
      result.record_number = number;
      result.record.assign(rec);
      return result;
    }
    prev.assign(rec);
    have_prev = true;
  }
  return result;
}

}  // namespace corank::text
