#include "validation.hpp"

#include "corank/format.hpp"
#include "order_checker.hpp"
#include "record_stream.hpp"

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

  OrderChecker order(format, o.reverse);
  scan_records(o.file, format.record_size, [&](const std::uint8_t* records, std::uint64_t count) {
    order.add(records, count);
    rep.checksum.add(records, count, format.record_size);
  });
  rep.records = order.records();
  rep.first_disorder = order.first_disorder();
  rep.disorders = order.disorders();
  rep.duplicates = order.duplicates();

  for (const auto& input : o.inputs) {
    scan_records(input, format.record_size, [&](const std::uint8_t* records, std::uint64_t count) {
      rep.input_checksum.add(records, count, format.record_size);
    });
  }
  return rep;
}

}  // namespace corank::tools
