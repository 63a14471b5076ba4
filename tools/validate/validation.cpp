#include "validation.hpp"

#include "corank/format.hpp"
#include "order_checker.hpp"
#include "parallel_scan.hpp"

namespace corank::tools {

ValidationReport validate(const ValidateOptions& o) {
  const corank::RecordFormat format = corank::parse_format(o.format, o.keys);
  ValidationReport rep;
  rep.file = o.file;
  rep.format = format.name;
  rep.record_size = format.record_size;
  rep.reverse = o.reverse;
  rep.unique = o.unique;
  rep.inputs = o.inputs;

  const unsigned threads = o.threads == 0 ? 1 : o.threads;
  struct BlockFindings {
    OrderChecker order;
    RecordChecksum checksum;
  };
  OrderChecker order(format, o.reverse);
  scan_parallel(
      o.file, format.record_size, threads,
      [&](const std::uint8_t* records, std::uint64_t count) {
        BlockFindings f{OrderChecker(format, o.reverse), {}};
        f.order.add(records, count);
        f.checksum.add(records, count, format.record_size);
        return f;
      },
      [&](BlockFindings&& f) {
        order.append(f.order);
        rep.checksum.merge(f.checksum);
      });
  rep.records = order.records();
  rep.first_disorder = order.first_disorder();
  rep.disorders = order.disorders();
  rep.duplicates = order.duplicates();

  for (const auto& input : o.inputs) {
    scan_parallel(
        input, format.record_size, threads,
        [&](const std::uint8_t* records, std::uint64_t count) {
          RecordChecksum c;
          c.add(records, count, format.record_size);
          return c;
        },
        [&](RecordChecksum&& c) { rep.input_checksum.merge(c); });
  }
  return rep;
}

}  // namespace corank::tools
