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
// what corank's single process finds in the inputs. Throws UsageError where
// files of lines show different formats: corank reads each by its own, and
// a line of one read by another's format (an app log's line that quotes a
// syslog line) would sort otherwise. After settle_input_years.
void settle_input_formats(SortRequest& r);

}  // namespace corank::mpi
