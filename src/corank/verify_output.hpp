#pragma once
// --verify for fixed-size records: the written output, read back before it
// is committed (io::OutputFile::read_back), must be in order (strictly under
// -u) and, without -u, hold the input's records (count and checksum); under
// -u, as many records as were written. Throws InputError naming what failed.
#include <cstdint>

#include "corank/checksum.hpp"
#include "corank/io/source.hpp"
#include "corank/normalize.hpp"
#include "corank/sort_options.hpp"

namespace corank {

void verify_output(io::ByteSource& written, const SortOptions& options, const RecordFormat& format,
                   const KeyNormalizer& norm, const RecordChecksum& input, std::uint64_t records_out, unsigned threads);

}  // namespace corank
