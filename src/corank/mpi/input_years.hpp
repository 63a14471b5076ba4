#pragma once
// The year reference of yearless timestamps (syslog's "Mar 10 10:00:00"):
// corank takes it from the inputs' modification times (text/time_inputs.hpp),
// but a rank sorts the pieces it received, anonymous files or memory whose
// time is now. So before any rank sorts, the reference corank would take
// becomes the request's own (--time-year YEAR-MM), read from the inputs.
#include "corank/sort.hpp"

namespace corank::mpi {

// Where no --time-year is given and a key reads times: sets time_year and
// time_year_month to the inputs' reference, as corank's single process finds
// it (the newest input's modification time where one set of rules reads
// every input; each input's own for lines of several files). Throws
// UsageError where inputs with yearless timestamps take different references,
// which one set of rules cannot give. After request::settle_input_zones.
void settle_input_years(SortRequest& r);

}  // namespace corank::mpi
