#pragma once
// --rejects for a text sort: its file opened beside its own target, as the
// output is (row_check.hpp's Rejects), and the line that ends a sort whose
// rows went there.
#include <memory>

#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {

// Never the output, which would replace it; written with the plan's I/O
// blocks, fitted to the budget. Null without --rejects.
std::unique_ptr<Rejects> open_rejects(const TextSortOptions& o, const TextFormat& format,
                                      const io::IoOptions& plan_io);

// Counts the rejected rows in `stats` and, where there are any, says on
// stderr how many went where and which was first.
void report_rejects(const Rejects& rejects, const TextSortOptions& o, SortStats& stats);

}  // namespace corank::text
