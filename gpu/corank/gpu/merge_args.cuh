// What every merge kernel reads and writes. Value == NoValue means keys only,
// and then the value pointers are null.
#pragma once

#include <cstdint>
#include <type_traits>

#include "corank/gpu/merge_policy.cuh"

namespace corank::gpu {

template <class Key, class Value>
struct MergeArgs {
  static constexpr bool has_values = !std::is_same_v<Value, NoValue>;
  const Key* a_keys;
  const Value* a_values;
  std::int64_t a_size;
  const Key* b_keys;
  const Value* b_values;
  std::int64_t b_size;
  Key* c_keys;
  Value* c_values;
};

}  // namespace corank::gpu
