// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file local_array.hpp
/// `LocalArray<T, Space>`: one rank's N-d array (C order) in memory of Space, owning its
/// storage or aliasing someone else's (wrap, view). It is the vector type of local operators
/// (operators that act on one rank's data) and carries the same algebra as DistributedArray,
/// without communication. Copies are deep.

#include <cmath>
#include <memory>
#include <span>
#include <string>

#include "distlops/core/buffer.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/types.hpp"

namespace distlops {

template <Scalar T, MemorySpace Space = Host>
class LocalArray {
 public:
  using value_type = T;
  using real_type = real_type_t<T>;
  using space_type = Space;

  LocalArray() = default;
  /// Uninitialised storage for an array of `shape`.
  explicit LocalArray(Shape shape) : shape_(std::move(shape)), size_(element_count(shape_)) {
    for (Index extent : shape_) {
      if (extent < 0) throw InvalidArgument("LocalArray: negative extent in " + to_string(shape_));
    }
    storage_ = std::make_shared<Buffer<T, Space>>(size_);
    data_ = storage_->data();
  }
  LocalArray(Shape shape, T value) : LocalArray(std::move(shape)) { fill(value); }
  /// An array over existing memory of Space (element_count(shape) elements), without copy.
  static LocalArray wrap(Shape shape, T* data) {
    LocalArray result;
    result.size_ = element_count(shape);
    result.shape_ = std::move(shape);
    result.data_ = data;
    return result;
  }

  LocalArray(const LocalArray& other) : shape_(other.shape_), size_(other.size_) {
    storage_ = std::make_shared<Buffer<T, Space>>(size_);
    data_ = storage_->data();
    kernels::copy(Space{}, size_, other.data_, data_);
  }
  LocalArray(LocalArray&&) noexcept = default;
  /// Deep copy; into the existing storage when the shapes are equal (no allocation).
  LocalArray& operator=(const LocalArray& other) {
    if (this == &other) return *this;
    if (data_ != nullptr && shape_ == other.shape_) {
      kernels::copy(Space{}, size_, other.data_, data_);
      return *this;
    }
    *this = LocalArray(other);
    return *this;
  }
  LocalArray& operator=(LocalArray&&) noexcept = default;
  ~LocalArray() = default;

  const Shape& shape() const { return shape_; }
  /// The vector-space description used by operators: the shape.
  const Shape& layout() const { return shape_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  Index size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::span<T> span() requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }
  std::span<const T> span() const requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }

  /// Points this array (which must not own storage) at other memory of the same shape: lets
  /// operators reuse one view object per block instead of creating views on every apply.
  void rebind(T* data) {
    if (storage_) throw InvalidArgument("LocalArray::rebind: the array owns its storage");
    data_ = data;
  }

  /// The same memory seen with another shape of the same size.
  LocalArray view(Shape shape) const {
    if (element_count(shape) != size_) {
      throw ShapeMismatch("LocalArray::view: " + to_string(shape) + " does not have the " +
                          std::to_string(size_) + " elements of " + to_string(shape_));
    }
    LocalArray result = wrap(std::move(shape), data_);
    result.storage_ = storage_;
    return result;
  }

  // ---- algebra (shapes must be equal) -----------------------------------------------------------
  LocalArray& fill(T value) {
    kernels::fill(Space{}, size_, value, data_);
    return *this;
  }
  LocalArray& set_zero() { return fill(T(0)); }
  LocalArray& copy_from(const LocalArray& other) {
    require_same_shape(other, "copy_from");
    kernels::copy(Space{}, size_, other.data_, data_);
    return *this;
  }
  LocalArray& axpy(T a, const LocalArray& x) {
    require_same_shape(x, "axpy");
    kernels::axpy(Space{}, size_, a, x.data_, data_);
    return *this;
  }
  LocalArray& axpby(T a, const LocalArray& x, T b) {
    require_same_shape(x, "axpby");
    kernels::axpby(Space{}, size_, a, x.data_, b, data_);
    return *this;
  }
  LocalArray& axpbypcz(T a, const LocalArray& x, T b, const LocalArray& y, T c) {
    require_same_shape(x, "axpbypcz");
    require_same_shape(y, "axpbypcz");
    kernels::axpbypcz(Space{}, size_, a, x.data_, b, y.data_, c, data_);
    return *this;
  }
  LocalArray& scale(T a) {
    kernels::scale(Space{}, size_, a, data_);
    return *this;
  }
  LocalArray& conj_in_place() {
    kernels::conj(Space{}, size_, data_, data_);
    return *this;
  }
  LocalArray zeros_like() const { return LocalArray(shape_, T(0)); }
  LocalArray empty_like() const { return LocalArray(shape_); }
  LocalArray copy() const { return *this; }

  T dot(const LocalArray& other) const {
    require_same_shape(other, "dot");
    return kernels::dot(Space{}, size_, data_, other.data_);
  }
  T vdot(const LocalArray& other) const {
    require_same_shape(other, "vdot");
    return kernels::vdot(Space{}, size_, data_, other.data_);
  }
  /// The 2-norm (the local arrays of operators are vectors, so only the 2-norm is offered).
  real_type norm() const {
    return std::sqrt(
        kernels::norm_reduce(Space{}, kernels::NormKind::power_sum, real_type(2), size_, data_));
  }

 private:
  void require_same_shape(const LocalArray& other, const char* operation) const {
    if (shape_ != other.shape_) {
      throw ShapeMismatch(std::string("LocalArray ") + operation + ": shapes differ: " +
                          to_string(shape_) + " vs " + to_string(other.shape_));
    }
  }

  Shape shape_;
  Index size_ = 0;
  std::shared_ptr<Buffer<T, Space>> storage_;  // null for arrays over user memory
  T* data_ = nullptr;
};

}  // namespace distlops
