// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stacked_distributed_array.hpp
/// `StackedDistributedArray<T, Space>`: a sequence of DistributedArrays (or of nested stacked
/// arrays) that behaves as one vector: the concatenation of its blocks, flattened
/// (PyLops-MPI's StackedDistributedArray). It offers the algebra and reductions of
/// DistributedArray so that solvers run on either unchanged. Copies are deep.

#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/stacked_layout.hpp"

namespace distlops {

/// A sequence of blocks, each a DistributedArray or a nested stack, seen as one vector: the
/// concatenation of the flattened blocks. Element-wise operations act block by block without
/// communication; reductions are collective and return the same value on every rank.
template <Scalar T, MemorySpace Space = Host>
class StackedDistributedArray {
 public:
  using value_type = T;                      ///< The scalar type.
  using real_type = real_type_t<T>;          ///< The type of norms: T's real type.
  using space_type = Space;                  ///< Where the blocks live: Host or Cuda.
  using Array = DistributedArray<T, Space>;  ///< The type of a plain block.

  /// No block.
  StackedDistributedArray() = default;
  /// A stack of plain arrays.
  explicit StackedDistributedArray(std::vector<Array> arrays);
  /// Uninitialised blocks with the given layouts (nested like `layout`).
  explicit StackedDistributedArray(const StackedLayout& layout);
  /// Deep copy of every block.
  StackedDistributedArray(const StackedDistributedArray& other);
  /// Takes the other stack's blocks.
  StackedDistributedArray(StackedDistributedArray&&) noexcept = default;
  /// Deep copy; reuses the storage of blocks whose layouts already match.
  StackedDistributedArray& operator=(const StackedDistributedArray& other);
  /// Takes the other stack's blocks.
  StackedDistributedArray& operator=(StackedDistributedArray&&) noexcept = default;
  /// Frees the blocks.
  ~StackedDistributedArray() = default;

  /// Appends a plain block; returns *this.
  StackedDistributedArray& push_back(Array array);
  /// Appends a nested stack as one block; returns *this.
  StackedDistributedArray& push_back(StackedDistributedArray nested);

  /// Number of blocks (nested stacks count as one block).
  std::size_t narrays() const { return blocks_.size(); }
  /// True when block i is a nested stack.
  bool is_nested(std::size_t i) const;
  /// Block i as a plain array (InvalidArgument when it is a nested stack).
  Array& operator[](std::size_t i);
  /// Block i as a read-only plain array (InvalidArgument when it is a nested stack).
  const Array& operator[](std::size_t i) const;
  /// Block i as a nested stack (InvalidArgument when it is a plain array).
  StackedDistributedArray& nested(std::size_t i);
  /// Block i as a read-only nested stack (InvalidArgument when it is a plain array).
  const StackedDistributedArray& nested(std::size_t i) const;

  /// Total number of elements of all blocks.
  Index global_size() const;
  /// The layouts of the blocks.
  StackedLayout layout() const;
  /// True when the blocks have exactly the layouts (and nesting) of `layout`.
  bool has_layout(const StackedLayout& layout) const;

  /// A stack whose blocks alias this one's, each seen with the corresponding layout of
  /// `layout` (DistributedArray::view: the same local size on every rank, e.g. flat blocks seen
  /// as N-d ones). Operators apply it for stacked inputs and outputs as they do for plain
  /// arrays. ShapeMismatch on every rank when the nesting or a block's local sizes differ.
  /// Collective (one allreduce agrees on the verdict and the layouts) outside an AgreedOperands
  /// scope.
  StackedDistributedArray view(const StackedLayout& layout);
  /// Read-only view (the result must not be modified).
  const StackedDistributedArray view(const StackedLayout& layout) const;
  /// The communicator of the first plain array (every block must share one for reductions).
  const Communicator& communicator() const;

  /// The concatenation of every block's gathered global array (flattened), on every rank.
  /// Collective; the stacks' nesting and layouts are agreed first.
  std::vector<T> gather() const;

  // ---- element-wise (blocks must match: same nesting and same layouts) -------------------------
  /// Every element of every block = value. The element-wise members return *this and raise
  /// ShapeMismatch on every rank when the operands' nesting or layouts differ.
  StackedDistributedArray& fill(T value);
  /// Every element = 0.
  StackedDistributedArray& set_zero() { return fill(T(0)); }
  /// this = other, into the existing blocks.
  StackedDistributedArray& copy_from(const StackedDistributedArray& other);
  /// this += a * x.
  StackedDistributedArray& axpy(T a, const StackedDistributedArray& x);
  /// this = a * x + b * this.
  StackedDistributedArray& axpby(T a, const StackedDistributedArray& x, T b);
  /// this = a * x + b * y + c * this.
  StackedDistributedArray& axpbypcz(T a, const StackedDistributedArray& x, T b,
                                    const StackedDistributedArray& y, T c);
  /// this *= a.
  StackedDistributedArray& scale(T a);
  /// this = conj(this); a no-op for real types.
  StackedDistributedArray& conj_in_place();

  /// Element-wise this += other.
  StackedDistributedArray& operator+=(const StackedDistributedArray& other);
  /// Element-wise this -= other.
  StackedDistributedArray& operator-=(const StackedDistributedArray& other);
  /// Element-wise (Hadamard) this *= other.
  StackedDistributedArray& operator*=(const StackedDistributedArray& other);
  /// Element-wise this /= other.
  StackedDistributedArray& operator/=(const StackedDistributedArray& other);
  /// Adds `value` to every element.
  StackedDistributedArray& operator+=(T value);
  /// Subtracts `value` from every element.
  StackedDistributedArray& operator-=(T value);
  /// Multiplies every element by `value`.
  StackedDistributedArray& operator*=(T value);
  /// Divides every element by `value`.
  StackedDistributedArray& operator/=(T value);

  /// Element-wise x + y in a new stack.
  friend StackedDistributedArray operator+(StackedDistributedArray x,
                                           const StackedDistributedArray& y) {
    return x += y;
  }
  /// Element-wise x - y in a new stack.
  friend StackedDistributedArray operator-(StackedDistributedArray x,
                                           const StackedDistributedArray& y) {
    return x -= y;
  }
  /// Element-wise (Hadamard) x * y in a new stack.
  friend StackedDistributedArray operator*(StackedDistributedArray x,
                                           const StackedDistributedArray& y) {
    return x *= y;
  }
  /// Element-wise x / y in a new stack.
  friend StackedDistributedArray operator/(StackedDistributedArray x,
                                           const StackedDistributedArray& y) {
    return x /= y;
  }
  /// x_i + s in a new stack.
  friend StackedDistributedArray operator+(StackedDistributedArray x, T s) { return x += s; }
  /// x_i - s in a new stack.
  friend StackedDistributedArray operator-(StackedDistributedArray x, T s) { return x -= s; }
  /// x_i * s in a new stack.
  friend StackedDistributedArray operator*(StackedDistributedArray x, T s) { return x *= s; }
  /// x_i / s in a new stack.
  friend StackedDistributedArray operator/(StackedDistributedArray x, T s) { return x /= s; }
  /// s + x_i in a new stack.
  friend StackedDistributedArray operator+(T s, StackedDistributedArray x) { return x += s; }
  /// s * x_i in a new stack.
  friend StackedDistributedArray operator*(T s, StackedDistributedArray x) { return x *= s; }
  /// s - x_i in a new stack.
  friend StackedDistributedArray operator-(T s, StackedDistributedArray x) {
    return x.scale(T(-1)) += s;
  }
  /// -x_i in a new stack.
  friend StackedDistributedArray operator-(StackedDistributedArray x) { return x.scale(T(-1)); }

  /// A deep copy.
  StackedDistributedArray copy() const { return *this; }
  /// The complex conjugate, in a new stack (a copy for real types).
  StackedDistributedArray conj() const { return copy().conj_in_place(); }
  /// Same nesting and layouts, every element zero.
  StackedDistributedArray zeros_like() const;
  /// Same nesting and layouts, uninitialised.
  StackedDistributedArray empty_like() const;

  // ---- reductions: one allreduce for all blocks when they share a communicator and no mask ----
  /// sum_i x_i y_i over the concatenated vector (bilinear). Collective.
  T dot(const StackedDistributedArray& other) const;
  /// sum_i conj(x_i) y_i over the concatenated vector. Collective.
  T vdot(const StackedDistributedArray& other) const;
  /// Norm of the concatenated vector, ord as in DistributedArray::norm. Collective.
  real_type norm(double ord = 2) const;

  /// Calls f(array) for every plain array, depth first.
  template <class F>
  void for_each_array(F&& f) const;
  /// Calls f(array) for every plain array, depth first, with mutable access.
  template <class F>
  void for_each_array(F&& f);

 private:
  using Block = std::variant<Array, std::unique_ptr<StackedDistributedArray>>;
  // Agrees over the ranks (outside an AgreedOperands scope) that `other` has this stack's
  // nesting and block layouts; the same ShapeMismatch on every rank otherwise.
  void require_same_structure(const StackedDistributedArray& other, const char* operation) const;
  // The local comparison behind require_same_structure.
  void check_same_structure(const StackedDistributedArray& other, const char* operation) const;
  // Mixes the nesting and every block's layout into `fingerprint`.
  void add_structure(Fingerprint& fingerprint) const;
  // The first plain array's communicator; null without blocks.
  const Communicator* first_communicator() const;
  template <class F>
  void for_each_pair(const StackedDistributedArray& other, F&& f);
  template <class Reduce>
  T reduce_pairs(const StackedDistributedArray& other, const char* operation, Reduce local) const;

  std::vector<Block> blocks_;
};

template <Scalar T, MemorySpace Space>
template <class F>
void StackedDistributedArray<T, Space>::for_each_array(F&& f) const {
  for (const Block& block : blocks_) {
    if (const Array* array = std::get_if<Array>(&block)) {
      f(*array);
    } else {
      std::get<1>(block)->for_each_array(f);
    }
  }
}

template <Scalar T, MemorySpace Space>
template <class F>
void StackedDistributedArray<T, Space>::for_each_array(F&& f) {
  for (Block& block : blocks_) {
    if (Array* array = std::get_if<Array>(&block)) {
      f(*array);
    } else {
      std::get<1>(block)->for_each_array(f);
    }
  }
}

// The library's instantiations, compiled in libdistlops: not API.
/// \cond
#define DISTLOPS_DECLARE_STACKED(T, S) extern template class StackedDistributedArray<T, S>;
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DECLARE_STACKED)
#undef DISTLOPS_DECLARE_STACKED
/// \endcond

}  // namespace distlops
