#include "corank/text/rejects_option.hpp"

#include <sys/stat.h>

#include <string>

#include "corank/errors.hpp"
#include "corank/io/diagnostics.hpp"

namespace corank::text {

std::unique_ptr<Rejects> open_rejects(const TextSortOptions& o, const TextFormat& format,
                                      const io::IoOptions& plan_io) {
  if (o.rejects.empty()) return nullptr;
  struct stat a {}, b {};
  if (o.rejects == o.output ||
      (::stat(o.rejects.c_str(), &a) == 0 && ::stat(o.output.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
       a.st_ino == b.st_ino && S_ISREG(a.st_mode)))
    throw UsageError("--rejects names the output '" + o.output + "': give the rejects a file of their own");
  io::IoOptions io = plan_io;
  io.output_region.reset();  // the output's (corank-mpi's), not the rejects'
  io.output_codec.reset();   // by the rejects' own suffix
  return std::make_unique<Rejects>(o.rejects, io, format.terminator());
}

void report_rejects(const Rejects& rejects, const TextSortOptions& o, SortStats& stats) {
  stats.rejected_records = rejects.count();
  if (stats.rejected_records && o.io.diagnostics)
    o.io.diagnostics->warning(io::grouped_digits(stats.rejected_records) + " of " +
                              io::grouped_digits(stats.records_in + stats.rejected_records) + " rows went to " + rejects.path() +
                              "; the first: " + rejects.first());
}

}  // namespace corank::text
