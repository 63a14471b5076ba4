#include "corank/mpi/local_sort.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "corank/errors.hpp"
#include "corank/io/error.hpp"

namespace corank::mpi {

namespace {

SortRequest request_for(const Job& job, const PieceInput& in) {
  SortRequest r = job.local;
  if (in.files.empty()) {
    r.inputs.clear();
    // The sort counts them in its budget: they are part of this process's
    // resident memory, which the sort's memory plan takes off -S.
    r.input_buffers = in.buffers;
    // No buffer at all would be no input buffers: standard input.
    if (r.input_buffers.empty()) r.input_buffers.emplace_back();
    r.input_selection = in.selection;
    r.prepared_keys = in.prepared;
    r.prepared_device = in.device;
  } else {
    r.inputs = in.files;
  }
  return r;
}

void release(const PieceInput& in) {
  if (in.release) in.release();
}

// As the library verifies a -u output of fixed-size records: strictly in
// order (corank -c's check), and as many records as the sort wrote.
void verify_unique(const Job& job, const SortedPiece& piece) {
  SortRequest c = job.local;
  c.inputs = {piece.file};
  c.io.output_region.reset();
  const CheckReport report = check(c);
  if (!report.sorted) throw InputError("verification failed: " + report.diagnostic);
  if (piece.bytes != piece.stats.records_out * job.record_size)
    throw InputError("verification failed: " + std::to_string(piece.bytes) + " bytes written for " +
                     std::to_string(piece.stats.records_out) + " records");
}

}  // namespace

PieceInput piece_input(ReceivedPieces& received) {
  PieceInput in;
  if (received.in_memory())
    in.buffers = {received.joined()};
  else
    in.files = received.files();
  in.bytes = received.total();
  in.release = [&received] { received.release(); };
  return in;
}

SortedPiece empty_piece(const std::string& file, std::uint64_t at) {
  SortedPiece piece;
  piece.file = file;
  piece.begin = piece.end = at;
  return piece;
}

bool sorts_in_place(const Job& job) { return !job.request.part_files && !job.local.unique; }

SortedPiece sort_in_place(const Job& job, const PieceInput& in, unsigned rank, const std::string& shared,
                          const Placement& place) {
  SortRequest r = request_for(job, in);
  r.output = shared;
  r.io.output_region = io::OutputRegion{place.offset, place.bytes};
  r.write_header = rank == 0;  // the others' sorts read it to name the columns
  SortedPiece piece;
  piece.stats = sort(r);
  release(in);
  // The region was sized from the bytes received; a sort that wrote
  // otherwise left a gap or overran the next rank's region.
  if (piece.stats.bytes_out != place.bytes)
    throw std::runtime_error("the sorted piece holds " + std::to_string(piece.stats.bytes_out) + " bytes, not the " +
                             std::to_string(place.bytes) + " expected");
  piece.file = shared;
  piece.begin = place.offset + (rank == 0 ? job.header.size() : 0);
  piece.end = place.offset + place.bytes;
  piece.bytes = place.bytes;
  return piece;
}

SortedPiece sort_into(const Job& job, const PieceInput& in, unsigned rank, const ScratchFile& into) {
  // The most the piece can hold: what was received, and rank 0's header.
  const std::uint64_t most = in.bytes + (rank == 0 ? job.header.size() : 0);
  if (::ftruncate(into.fd(), static_cast<off_t>(most)) != 0) throw io::IoError("write failed", into.path(), errno);
  SortRequest r = request_for(job, in);
  r.output = into.path();
  r.io.output_region = io::OutputRegion{0, most};
  r.write_header = rank == 0;
  // --verify reads the whole region back, longer than a -u piece: such a
  // piece is checked here instead, once cut to its size.
  const bool verify_after = r.verify && r.unique;
  r.verify = r.verify && !verify_after;
  SortedPiece piece;
  piece.stats = sort(r);
  release(in);  // the sort has read them; free the space now
  piece.bytes = piece.stats.bytes_out;
  if (piece.bytes > most || ::ftruncate(into.fd(), static_cast<off_t>(piece.bytes)) != 0)
    throw io::IoError("write failed", into.path(), piece.bytes > most ? "the sorted piece outgrew what was received" : std::strerror(errno));
  piece.file = into.path();
  piece.begin = rank == 0 ? job.header.size() : 0;
  piece.end = piece.bytes;
  if (verify_after) verify_unique(job, piece);
  return piece;
}

}  // namespace corank::mpi
