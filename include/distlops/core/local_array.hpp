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

/// One rank's N-d array of scalars T (C order) in memory of Space: the vector type of local
/// operators. Never communicates; operands of its algebra must have equal shapes (ShapeMismatch).
template <Scalar T, MemorySpace Space = Host>
class LocalArray {
 public:
  using value_type = T;              ///< The scalar type.
  using real_type = real_type_t<T>;  ///< The type of norms: T's real type.
  using space_type = Space;          ///< Where the elements live: Host or Cuda.

  /// An empty array: no shape, no element, no storage; only assignable.
  LocalArray() = default;
  /// Uninitialised storage for an array of `shape`; InvalidArgument for a negative extent.
  explicit LocalArray(Shape shape) : shape_(std::move(shape)), size_(element_count(shape_)) {
    for (Index extent : shape_) {
      if (extent < 0) throw InvalidArgument("LocalArray: negative extent in " + to_string(shape_));
    }
    storage_ = std::make_shared<Buffer<T, Space>>(size_);
    data_ = storage_->data();
  }
  /// An array of `shape` with every element set to `value`.
  LocalArray(Shape shape, T value) : LocalArray(std::move(shape)) { fill(value); }
  /// An array over existing memory of Space (element_count(shape) elements), without copy; the
  /// memory must outlive the array and its views.
  static LocalArray wrap(Shape shape, T* data) {
    LocalArray result;
    result.size_ = element_count(shape);
    result.shape_ = std::move(shape);
    result.data_ = data;
    return result;
  }

  /// Deep copy into new storage (also of a wrapped array).
  LocalArray(const LocalArray& other) : shape_(other.shape_), size_(other.size_) {
    storage_ = std::make_shared<Buffer<T, Space>>(size_);
    data_ = storage_->data();
    kernels::copy(Space{}, size_, other.data_, data_);
  }
  /// Takes the other array's storage or view.
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
  /// Takes the other array's storage or view.
  LocalArray& operator=(LocalArray&&) noexcept = default;
  /// Frees owned storage once no view shares it.
  ~LocalArray() = default;

  /// The shape, C order.
  const Shape& shape() const { return shape_; }
  /// The vector-space description used by operators: the shape.
  const Shape& layout() const { return shape_; }
  /// Number of dimensions.
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// Number of elements.
  Index size() const { return size_; }
  /// The first element, in memory of Space.
  T* data() { return data_; }
  /// The first element, read-only, in memory of Space.
  const T* data() const { return data_; }
  /// Host arrays: the elements as a span.
  std::span<T> span() requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }
  /// Host arrays: the elements as a read-only span.
  std::span<const T> span() const requires std::same_as<Space, Host> {
    return {data_, static_cast<std::size_t>(size_)};
  }

  /// Points this array (which must not own storage) at other memory of the same shape: lets
  /// operators reuse one view object per block instead of creating views on every apply.
  void rebind(T* data) {
    if (storage_) throw InvalidArgument("LocalArray::rebind: the array owns its storage");
    data_ = data;
  }

  /// The same memory seen with another shape of the same size (ShapeMismatch otherwise); shares
  /// ownership of owned storage.
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
  /// Every element = value; returns *this.
  LocalArray& fill(T value) {
    kernels::fill(Space{}, size_, value, data_);
    return *this;
  }
  /// Every element = 0; returns *this.
  LocalArray& set_zero() { return fill(T(0)); }
  /// this = other, into the existing storage; returns *this.
  LocalArray& copy_from(const LocalArray& other) {
    require_same_shape(other, "copy_from");
    kernels::copy(Space{}, size_, other.data_, data_);
    return *this;
  }
  /// this += a * x; returns *this.
  LocalArray& axpy(T a, const LocalArray& x) {
    require_same_shape(x, "axpy");
    kernels::axpy(Space{}, size_, a, x.data_, data_);
    return *this;
  }
  /// this = a * x + b * this; returns *this.
  LocalArray& axpby(T a, const LocalArray& x, T b) {
    require_same_shape(x, "axpby");
    kernels::axpby(Space{}, size_, a, x.data_, b, data_);
    return *this;
  }
  /// this = a * x + b * y + c * this; returns *this.
  LocalArray& axpbypcz(T a, const LocalArray& x, T b, const LocalArray& y, T c) {
    require_same_shape(x, "axpbypcz");
    require_same_shape(y, "axpbypcz");
    kernels::axpbypcz(Space{}, size_, a, x.data_, b, y.data_, c, data_);
    return *this;
  }
  /// this *= a; returns *this.
  LocalArray& scale(T a) {
    kernels::scale(Space{}, size_, a, data_);
    return *this;
  }
  /// this = conj(this) (a no-op for real types); returns *this.
  LocalArray& conj_in_place() {
    kernels::conj(Space{}, size_, data_, data_);
    return *this;
  }
  /// A new array of the same shape, every element zero.
  LocalArray zeros_like() const { return LocalArray(shape_, T(0)); }
  /// A new array of the same shape, uninitialised.
  LocalArray empty_like() const { return LocalArray(shape_); }
  /// A deep copy.
  LocalArray copy() const { return *this; }

  /// sum_i x_i y_i (bilinear: no conjugation).
  T dot(const LocalArray& other) const {
    require_same_shape(other, "dot");
    return kernels::dot(Space{}, size_, data_, other.data_);
  }
  /// sum_i conj(x_i) y_i.
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
