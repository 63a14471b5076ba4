#include "corank/mpi/local_sort.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"

namespace corank::mpi {

namespace {

SortRequest request_for(const Job& job, const ReceivedPieces& received) {
  SortRequest r = job.local;
  if (received.in_memory()) {
    r.inputs.clear();
    // The sort counts them in its budget: they are part of this process's
    // resident memory, which the sort's memory plan takes off -S.
    r.input_buffers = received.buffers();
  } else {
    r.inputs = received.files();
  }
  return r;
}

}  // namespace

bool sorts_in_place(const Job& job) {
  return !job.request.part_files && !job.local.unique &&
         (!job.local.io.output_codec || *job.local.io.output_codec == io::Codec::none);
}

SortedPiece sort_in_place(const Job& job, ReceivedPieces& received, unsigned rank, const std::string& shared,
                          const Placement& place) {
  SortRequest r = request_for(job, received);
  r.output = shared;
  r.io.output_region = io::OutputRegion{place.offset, place.bytes};
  r.write_header = rank == 0;  // the others' sorts read it to name the columns
  SortedPiece piece;
  piece.stats = sort(r);
  received.release();
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

SortedPiece sort_to_file(const Job& job, ReceivedPieces& received, unsigned rank, RemoveUnlessKept& part_temp) {
  SortRequest r = request_for(job, received);
  const bool part_files = job.request.part_files;
  // Every rank's sort writes the header first; the output keeps rank 0's.
  SortedPiece piece;
  piece.header = job.header.size();
  const std::uint64_t drop = rank == 0 ? 0 : piece.header;
  if (part_files) {
    const std::string part = part_name(job.request.sort.output, rank);
    part_temp.path = dir_of(part) + "/." + base_of(part) + ".corank-mpi-" + std::to_string(::getpid());
  }
  r.output = part_files && drop == 0 ? part_temp.path : job.scratch->file("sorted");
  piece.stats = sort(r);
  piece.file = r.output;
  received.release();  // the sort has read them; free the space now
  piece.skip = drop;
  if (part_files && drop) {  // the part file without the header
    io::FileDesc out = io::FileDesc::open(part_temp.path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    copy_into(piece.file, out.get(), part_temp.path, 0, drop, job.local.threads);
    if (::close(out.release()) != 0) throw io::IoError("close failed", part_temp.path, errno);
    ::unlink(piece.file.c_str());
    piece.file = part_temp.path;
    piece.skip = piece.header = 0;
  }
  piece.end = file_size(piece.file);
  piece.begin = piece.header;
  piece.bytes = piece.end - piece.skip;
  return piece;
}

}  // namespace corank::mpi
