#include "report.hpp"

#include <cstdio>

namespace corank::tools {

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

const char* boolean(bool b) { return b ? "true" : "false"; }

std::string problems(const ValidationReport& r) {
  std::string out;
  auto add = [&](const char* p) { out += out.empty() ? p : std::string("; ") + p; };
  if (!r.in_order()) add("records out of order");
  if (r.unique && r.duplicates > 0) add("duplicate keys under --unique");
  if (!r.matches_input()) add("records differ from the input");
  return out;
}

}  // namespace

std::string format_text(const ValidationReport& r) {
  const std::string order = r.reverse ? "descending" : "ascending";
  std::string out;
  out += "file:            " + (r.file == "-" ? std::string("standard input") : r.file) + " (" + r.format + ", " +
         std::to_string(r.record_size) + "-byte records)\n";
  out += "records:         " + std::to_string(r.records) + "\n";
  if (r.in_order()) {
    out += "order:           " + order + ", all records in order\n";
  } else {
    out += "order:           NOT " + order + ": record " + std::to_string(*r.first_disorder) +
           " (0-based) sorts before record " + std::to_string(*r.first_disorder - 1) + "; " +
           std::to_string(r.disorders) + " such records\n";
  }
  out += "duplicate keys:  " + std::to_string(r.duplicates) + (r.unique ? " (--unique: none allowed)" : "") + "\n";
  out += "checksum:        " + r.checksum.crc_sum_hex() + " (sum of CRC32 per record)\n";
  out += "hash sum:        " + r.checksum.hash_sum_hex() + " (sum of 64-bit hash per record)\n";
  if (!r.inputs.empty()) {
    out += "input:           " + std::to_string(r.input_checksum.records) + " records, checksum " +
           r.input_checksum.crc_sum_hex() + ", hash sum " + r.input_checksum.hash_sum_hex() + "\n";
    out += std::string("input match:     ") +
           (r.matches_input() ? "yes, the same records" : "NO, the records differ from the input") + "\n";
  }
  out += r.valid() ? "result:          VALID\n" : "result:          INVALID (" + problems(r) + ")\n";
  return out;
}

std::string format_json(const ValidationReport& r) {
  std::string out = "{";
  out += "\"file\":" + json_string(r.file);
  out += ",\"format\":" + json_string(r.format);
  out += ",\"record_size\":" + std::to_string(r.record_size);
  out += ",\"records\":" + std::to_string(r.records);
  out += std::string(",\"order\":\"") + (r.reverse ? "descending" : "ascending") + "\"";
  out += std::string(",\"in_order\":") + boolean(r.in_order());
  out += ",\"first_disorder\":" + (r.first_disorder ? std::to_string(*r.first_disorder) : std::string("null"));
  out += ",\"disorders\":" + std::to_string(r.disorders);
  out += ",\"duplicates\":" + std::to_string(r.duplicates);
  out += std::string(",\"unique_required\":") + boolean(r.unique);
  out += ",\"checksum\":\"" + r.checksum.crc_sum_hex() + "\"";
  out += ",\"hash_sum\":\"" + r.checksum.hash_sum_hex() + "\"";
  if (!r.inputs.empty()) {
    out += ",\"input\":{\"files\":[";
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      if (i > 0) out += ',';
      out += json_string(r.inputs[i]);
    }
    out += "],\"records\":" + std::to_string(r.input_checksum.records);
    out += ",\"checksum\":\"" + r.input_checksum.crc_sum_hex() + "\"";
    out += ",\"hash_sum\":\"" + r.input_checksum.hash_sum_hex() + "\"";
    out += std::string(",\"match\":") + boolean(r.matches_input()) + "}";
  }
  out += std::string(",\"valid\":") + boolean(r.valid());
  return out + "}\n";
}

}  // namespace corank::tools
