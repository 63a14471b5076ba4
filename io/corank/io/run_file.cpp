#include "corank/io/run_file.hpp"

#include "corank/io/compressed_stream.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/program_codec.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/write_behind_sink.hpp"

namespace corank::io {

std::unique_ptr<ByteSink> make_run_sink(int fd, std::string name, const IoOptions& opt, unsigned threads) {
  if (!opt.temp_program.empty()) return program_compressing_sink(fd, opt.temp_program, std::move(name));
  auto raw = std::make_unique<WriteBehindSink>(fd, name, opt, false);
  return parallel_compressing_sink(std::move(raw), opt.temp_codec, std::move(name), threads);
}

std::unique_ptr<ByteSource> make_run_source(int fd, std::string name, const IoOptions& opt, std::uint64_t offset,
                                            std::optional<std::uint64_t> length) {
  // PROG -d reads to the end of the file: a run is the rest of its file.
  if (!opt.temp_program.empty()) return program_decompressing_source(fd, opt.temp_program, std::move(name), offset);
  std::optional<std::uint64_t> end;
  if (length) end = offset + *length;
  auto raw = std::make_unique<ReadAheadSource>(fd, FileDesc{}, std::move(name), opt, offset, end,
                                               ReadAheadSource::Content::run);
  return decompressing_source(std::move(raw), opt.temp_codec);
}

}  // namespace corank::io
