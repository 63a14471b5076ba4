#pragma once
// A collation: an order of text other than its bytes' (a glibc locale's
// LC_COLLATE, an ICU collator), seen the way corank's normalized keys need it.
// Its sort keys are byte strings whose memcmp order is the collation's order,
// so the first bytes of a key's sort key are its record's prefix and the
// radix, merge and GPU paths stay as they are; only records whose prefixes tie
// are compared in full. Implementations are immutable and may be used from
// every thread at once.
#include <cstddef>
#include <string>
#include <string_view>

namespace corank::text {

class Collation {
public:
  virtual ~Collation() = default;

  // <0, 0, >0 in the collation's order. 0 only for texts the collation holds
  // equal: GNU sort's strcoll may call different bytes equal, an ICU collation
  // here never does (it settles its ties by the bytes, as PostgreSQL does).
  virtual int compare(std::string_view a, std::string_view b) const = 0;
  // Writes n bytes into out, an order-preserving digest of text:
  // compare(a, b) < 0 implies memcmp(prefix(a), prefix(b), n) <= 0.
  virtual void prefix(std::string_view text, unsigned char* out, std::size_t n) const = 0;
  // The whole sort key, equal for texts that compare equal (-R hashes it).
  virtual void sort_key(std::string_view text, std::string& out) const = 0;
  // The name it was opened by ("en_US.UTF-8", "de-u-co-phonebk"), for --debug.
  virtual const std::string& name() const = 0;
};

}  // namespace corank::text
