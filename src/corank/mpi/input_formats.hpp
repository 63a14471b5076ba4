#pragma once
// The formats --time looks for: corank finds them in each input's first
// lines (text/time_inputs.hpp), but a rank sorts the pieces it received,
// whose first lines are whichever records the exchange sent it (a piece of
// the earliest syslog lines would never show the ISO 8601 lines among
// them). So before any rank sorts, the formats corank would find become the
// request's own (SortRequest::time_search_formats), read from the inputs.
#include "corank/sort.hpp"

namespace corank::mpi {

// Where a key finds its time anywhere in a line (--time) and no
// --time-format is given: sets time_search_formats and time_json_members to
// what corank's single process finds in the inputs, every input's together.
// (corank reads each file of lines by its own: a line that holds no
// timestamp of its file's formats but one of another file's sorts by it
// here, and as having no time there.) After settle_input_years.
void settle_input_formats(SortRequest& r);

}  // namespace corank::mpi
