#pragma once
/// \file local_array.hpp
/// `LocalArray<T, Space>`: one rank's N-d array (an owning buffer and its C-order shape), as
/// returned by DistributedArray::add_ghost_cells.

#include "distlops/core/buffer.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

template <class T, MemorySpace Space = Host>
struct LocalArray {
  Buffer<T, Space> buffer;
  Shape shape;

  LocalArray() = default;
  explicit LocalArray(Shape array_shape)
      : buffer(element_count(array_shape)), shape(std::move(array_shape)) {}

  T* data() { return buffer.data(); }
  const T* data() const { return buffer.data(); }
  Index size() const { return buffer.size(); }
  std::span<T> span() requires std::same_as<Space, Host> { return buffer.span(); }
  std::span<const T> span() const requires std::same_as<Space, Host> { return buffer.span(); }
};

}  // namespace distlops
