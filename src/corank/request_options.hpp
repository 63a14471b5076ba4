#pragma once
// What a SortRequest means for the sorters: the options of a binary or text
// sort, the text format with its keys and orderings, the seed of -R, and the
// time rules of each input. Not installed: text/ is the library's own.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "corank/sort.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/collation.hpp"
#include "corank/text/key_spec.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"
#include "corank/text/time_inputs.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::request {

// Throws UsageError naming an option that only means something for text,
// for a binary format.
void reject_text_options(const SortRequest& r);

// The seed of -R's order: the first 8 bytes of --random-source, or fresh ones.
std::uint64_t random_salt(const SortRequest& r);
// Whether any key orders at random (-R, a KEYDEF's R, a CSV :R type).
bool uses_random(const SortRequest& r);

// The global ordering letters as a key, with the time rules of its keys
// (`rules`, or those of the request; `read_inputs`: completed by what the
// input files say).
text::KeyField global_ordering(const SortRequest& r, std::uint64_t salt, bool read_inputs = false,
                               std::shared_ptr<const text::TimeRules> rules = nullptr);
// The ICU collation the request names; null for none.
std::shared_ptr<const text::Collation> collation(const SortRequest& r);
text::LineOrdering line_ordering(const SortRequest& r, std::uint64_t salt, const text::KeyField& global);

// The text format; `rules`: the time rules of lines, where the inputs were
// looked at already. Throws UsageError for options the format does not take.
std::unique_ptr<text::TextFormat> make_text_format(const SortRequest& r, std::uint64_t salt, bool read_inputs,
                                                   std::shared_ptr<const text::TimeRules> rules = nullptr);
// make_text_format with the seed of -R, and checks of the options that only
// some text formats take.
std::unique_ptr<text::TextFormat> text_format(const SortRequest& r,
                                              std::shared_ptr<const text::TimeRules> rules = nullptr);

SortOptions binary_options(const SortRequest& r);
text::TextSortOptions text_options(const SortRequest& r);

// Throws UsageError where the inputs' zones (--time-zone PATTERN=ZONE)
// differ, a key reads times, and the sort reads every input in one zone
// (--debug, formats other than lines).
void check_input_zones(const SortRequest& r);
// Whether a key of lines finds its time anywhere in a record (--time, T
// without field positions, --multiline): the inputs' formats decide what it finds.
bool finds_times(const SortRequest& r);
// The zone each input's times without an offset are read in (standard
// input's for none): the first --time-zone PATTERN=ZONE whose pattern names
// it, else --time-zone ZONE's; empty for the default, UTC.
std::vector<std::string> zone_of_each_input(const SortRequest& r);
// A line for each --time-zone PATTERN=ZONE that names no input file (a
// mistyped pattern, or a zone written as a pattern: TZ=Europe/Berlin).
std::vector<std::string> zone_pattern_warnings(const SortRequest& r);

// For a sort of other files than the request's inputs (a rank's received
// pieces, which no --time-zone PATTERN names): the zone the inputs share
// becomes time_zone, the patterns dropped; throws UsageError where the
// inputs' zones differ and a key reads times.
void settle_input_zones(SortRequest& r);

// Lines of several files with time keys: each file's own rules (its formats,
// its group's year reference), one per input (time_inputs.hpp); empty where
// one set of rules serves every input alike (the others, and --debug, which
// shows one format's marks).
std::vector<std::shared_ptr<const text::TimeRules>> rules_by_input(const SortRequest& r);

}  // namespace corank::request
