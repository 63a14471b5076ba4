#pragma once
// Inputs that are sorted already: -m merges them into the output
// (text_sorter.hpp's sort_text with merge_only); -c checks one
// (text_sorter.hpp's check_text, defined in sorted_inputs.cpp).
//
// -m merges at most a batch of inputs at once, as GNU sort does: the batch
// is as wide as --batch-size, the memory for the inputs' buffers and the
// descriptors left allow. With more inputs than that, each batch is merged
// into a temporary run and the runs are merged (sort_driver.hpp: a batch is
// the model's chunk), so that thousands of inputs merge within -S and
// ulimit -n.
#include "corank/planner.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/row_check.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {

// Merges options.inputs into options.output within `plan` (its I/O options,
// arrays, merge buffer and fan-in); fills the counts and times of `stats`.
// Records pass `rows` (row_check.hpp) where given; its rejects are committed
// just before the output.
void merge_sorted_inputs(const TextSortOptions& options, const TextSortPlan& plan, TextFormat& format,
                         SortStats& stats, RowCheck* rows = nullptr);

}  // namespace corank::text
