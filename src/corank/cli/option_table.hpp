#pragma once
// corank's options as getopt_long sees them: GNU sort's short letters and
// every long option, GNU's and corank's own. A new option is a code here (when
// it has no letter), a row in kLongOptions, a case in parse_args (args.cpp), a
// line in help_text (help_text.cpp) and its place in the shell completions
// (packaging/completion; the package.completion_options test holds them to
// --help, and to the values match_argument lists). A new option's name may
// begin as one of GNU sort's does: GNU's keeps the shorter prefixes
// (gnu_abbreviations.hpp).
#include <getopt.h>

namespace corank::cli {

// Long options without a short form get codes past the byte range.
enum OptionCode : int {
  kBatchSize = 256, kCheck, kCompressProgram, kCompressTemp, kDebug, kDelimiter, kFiles0From, kFormat, kGpu,
  kGpuMemory, kHeader, kHelp, kIoEngine, kNoFsync, kNoProgress, kNull, kNulls, kParallel, kProgress, kRandomSource,
  kSort, kStats, kTimeYear, kVerify, kVersion, kTime, kTimeFormat, kTimeZone, kCollation, kMultiline, kRejects,
  kDecimalSeparator
};

// GNU sort's short options; the leading '-' hands operands over in order, which
// the obsolete +POS keys need.
inline constexpr char kShortOptions[] = "-bcCdfghik:mMno:rRsS:t:T:uVvy:z";

// Every long option, ended by a row of zeros.
extern const option kLongOptions[];

}  // namespace corank::cli
