#pragma once
// The plan of a text sort (planner.hpp's TextSortPlan) from its options: the
// budget and threads given, or the machine's defaults; the I/O blocks fitted
// to the budget and to the descriptors the process may open.
#include "corank/planner.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {

TextSortPlan plan_text_sort(const TextSortOptions& options);

}  // namespace corank::text
