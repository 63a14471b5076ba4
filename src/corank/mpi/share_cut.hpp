#pragma once
// Where each rank's share of the inputs begins and ends: rank r of n takes
// bytes [total*r/n, total*(r+1)/n), with each cut moved to a record start:
// a multiple of the record size, the next line start (of a pgtext row: an
// escaped newline is data, inputs.hpp), or for CSV/TSV the
// next row start, found by composing the ranks' maps of the CSV reader's
// automaton (csv_scanner.hpp) so that no rank reads another's bytes.
#include <cstdint>
#include <vector>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/csv_scanner.hpp"
#include "corank/mpi/inputs.hpp"

namespace corank::mpi {

struct Share {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t bytes() const { return end - begin; }
};

// Fixed-size records: cuts at multiples of record_size.
Share fixed_share(const Inputs& in, unsigned rank, unsigned ranks, std::uint32_t record_size);
// Lines ended by `term` (escapes: pgtext rows, inputs.hpp): cuts at the next line start.
Share line_share(const Inputs& in, unsigned rank, unsigned ranks, char term, bool escapes = false);

// CSV/TSV in two steps around a gather. First this rank maps the automaton's
// states over its nominal range (a file's start resets them to RowStart)...
CsvScanner::Map csv_range_map(const Inputs& in, unsigned rank, unsigned ranks, char delimiter);
// ...then, from every rank's map in rank order, the state at each of its
// two cuts is known, and a cut whose state is not RowStart moves on to the
// end of the row under way.
Share csv_share(const Inputs& in, const std::vector<CsvScanner::Map>& maps, unsigned rank, char delimiter);
// Both steps and the gather between them, failures agreed at each step.
Share cut_csv_share(Communicator& c, const Inputs& in, char delimiter);

}  // namespace corank::mpi
