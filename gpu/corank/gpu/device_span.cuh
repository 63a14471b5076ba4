// A non-owning view of device memory with a 64-bit length.
#pragma once

#include <cstdint>
#include <type_traits>

namespace corank::gpu {

template <class T>
struct DeviceSpan {
  T* data = nullptr;
  std::int64_t size = 0;

  DeviceSpan() = default;
  DeviceSpan(T* d, std::int64_t n) : data(d), size(n) {}
  // DeviceSpan<T> -> DeviceSpan<const T>, as for pointers.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  DeviceSpan(DeviceSpan<U> other) : data(other.data), size(other.size) {}
};

}  // namespace corank::gpu
