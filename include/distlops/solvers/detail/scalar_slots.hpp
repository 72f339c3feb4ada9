// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file scalar_slots.hpp
/// `ScalarSlots<Space>`: the scalars of a solver iteration kept in the vectors' memory space,
/// so that an iteration on the device crosses to the host once, when the host must decide.
///
/// A solver enqueues a batch of real reductions of its vectors (squared norms, Re(a^H b), the
/// sums behind the sparsity penalties) into numbered slots, combines the batch over the ranks
/// with one collective per distinct communicator, derives step scalars from the slots on the
/// device (step_length, reciprocal_sqrt), updates vectors with coefficients read from slots
/// (axpy_by_slot, axpby_by_slot, scale_by_slot) and finally reads every slot back with one
/// synchronisation. On the host the slots are host memory and the same code runs: each batch
/// is one MPI allreduce, and read_back() is a copy.
///
/// Reductions follow DistributedArray::vdot/norm and their stacked counterparts: a block's
/// local part is reduced over its layout's sub-communicator (the mask group of a masked
/// layout); a replicated block or a LocalArray is complete on every rank and is added after
/// the collectives. Blocks of different communicators land in separate regions of the slot
/// memory, each combined by its own collective, and are summed into the first region. The
/// order of the collectives is that of the blocks, the same on every rank.
///
/// Slots are doubles; a batch covers a contiguous range of slots, zeroed when it starts. No
/// function allocates after construction. The members that touch the slots' memory are compiled
/// in the library (solvers/scalar_slots.cpp), block by block, over the kernels of
/// solvers/slot_kernels.hpp.

#include <array>
#include <utility>

#include "distlops/core/buffer.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/operators/vdot_sink.hpp"
#include "distlops/solvers/detail/lsqr_recurrence.hpp"

namespace distlops::detail {

/// Calls f(a_data, b_data, local_size, comm) for every contiguous local block of the pair
/// (a, b) of vectors of the same structure; comm is the communicator the block's local sums
/// are combined over, or null when the local sum is already the global one (replicated
/// layouts, local arrays).
template <Scalar T, MemorySpace Space, class F>
void for_each_reduction_block(const DistributedArray<T, Space>& a,
                              const DistributedArray<T, Space>& b, F&& f) {
  const Layout& layout = a.layout();
  f(a.data(), b.data(), a.local_size(), layout.replicated() ? nullptr : &layout.sub_communicator());
}
template <Scalar T, MemorySpace Space, class F>
void for_each_reduction_block(const StackedDistributedArray<T, Space>& a,
                              const StackedDistributedArray<T, Space>& b, F&& f) {
  for (std::size_t i = 0; i < a.narrays(); ++i) {
    if (a.is_nested(i)) {
      for_each_reduction_block(a.nested(i), b.nested(i), f);
    } else {
      for_each_reduction_block(a[i], b[i], f);
    }
  }
}
template <Scalar T, MemorySpace Space, class F>
void for_each_reduction_block(const LocalArray<T, Space>& a, const LocalArray<T, Space>& b, F&& f) {
  f(a.data(), b.data(), a.size(), static_cast<const Communicator*>(nullptr));
}

/// Calls f(y_data, x_data, local_size) for every contiguous local block of the pair (y, x).
template <Scalar T, MemorySpace Space, class F>
void for_each_block_pair(DistributedArray<T, Space>& y, const DistributedArray<T, Space>& x,
                         F&& f) {
  f(y.data(), x.data(), y.local_size());
}
template <Scalar T, MemorySpace Space, class F>
void for_each_block_pair(StackedDistributedArray<T, Space>& y,
                         const StackedDistributedArray<T, Space>& x, F&& f) {
  for (std::size_t i = 0; i < y.narrays(); ++i) {
    if (y.is_nested(i)) {
      for_each_block_pair(y.nested(i), x.nested(i), f);
    } else {
      for_each_block_pair(y[i], x[i], f);
    }
  }
}
template <Scalar T, MemorySpace Space, class F>
void for_each_block_pair(LocalArray<T, Space>& y, const LocalArray<T, Space>& x, F&& f) {
  f(y.data(), x.data(), y.size());
}

/// Calls f(comm, local_size, a_data, b_data...) for every contiguous local block of the vectors
/// (a, b...) of the same structure; comm as in for_each_reduction_block.
template <class F, Scalar T, MemorySpace Space, class... B>
void for_each_block_group(F&& f, const DistributedArray<T, Space>& a, B&... b) {
  const Layout& layout = a.layout();
  f(layout.replicated() ? nullptr : &layout.sub_communicator(), a.local_size(), a.data(),
    b.data()...);
}
template <class F, Scalar T, MemorySpace Space, class... B>
void for_each_block_group(F&& f, const StackedDistributedArray<T, Space>& a, B&... b) {
  for (std::size_t i = 0; i < a.narrays(); ++i) {
    if (a.is_nested(i)) {
      for_each_block_group(f, a.nested(i), b.nested(i)...);
    } else {
      for_each_block_group(f, a[i], b[i]...);
    }
  }
}
template <class F, Scalar T, MemorySpace Space, class... B>
void for_each_block_group(F&& f, const LocalArray<T, Space>& a, B&... b) {
  f(static_cast<const Communicator*>(nullptr), a.size(), a.data(), b.data()...);
}

template <MemorySpace Space>
class ScalarSlots {
 public:
  /// The most slots: their bytes are one read-back of the CUDA context (value_bytes).
  static constexpr int capacity = 32;
  /// The most distinct communicators (the local group included) in one batch.
  static constexpr int max_groups = 4;

  /// `count` slots, all zero. Allocates the slot memory (the only allocation).
  explicit ScalarSlots(int count);
  ScalarSlots(const ScalarSlots&) = delete;
  ScalarSlots& operator=(const ScalarSlots&) = delete;

  /// Starts a batch of reductions into slots [first, first + count): every slot of the range
  /// is zeroed before its first contribution.
  void begin(int first, int count) {
    if (first < 0 || count < 1 || first + count > count_) {
      throw InvalidArgument("ScalarSlots::begin: slots [" + std::to_string(first) + ", " +
                            std::to_string(first + count) + ") out of " + std::to_string(count_));
    }
    first_ = first;
    batch_ = count;
    groups_ = 0;
  }

  /// slot += ||v||^2 (v^H v, as squared_norm()).
  template <class V>
  void add_squared_norm(int slot, const V& v) {
    add_vdot_parts(slot, false, v, v);
  }
  /// slot += Re(a^H b).
  template <class V>
  void add_real_vdot(int slot, const V& a, const V& b) {
    add_vdot_parts(slot, false, a, b);
  }
  /// y = op x and slot += Re(x^H y): in the operator's own pass where it has a fused kernel
  /// (BasicLinearOperator::apply_vdot: x read once), else the apply then add_real_vdot. The two
  /// sum the same terms, in a different order.
  template <class Op, class V>
  void add_apply_real_vdot(int slot, const Op& op, const V& x, V& y) {
    check_batch_slot(slot);
    SlotSink sink(*this, slot);
    if (!op.apply_vdot(x, y, sink)) add_real_vdot(slot, x, y);
  }
  /// slot += Re(a^H b), slot + 1 += Im(a^H b).
  template <class V>
  void add_vdot(int slot, const V& a, const V& b) {
    check_slot(slot + 1);
    add_vdot_parts(slot, true, a, b);
  }
  /// x += (fx step) c and r += (fr step) q, with step read from its slot (x and r untouched
  /// when it is zero), then slot += ||r||^2 of the updated r: one pass over the four vectors
  /// instead of three (two axpy and a norm), with the same rounding.
  template <class V>
  void add_axpy_pair_squared_norm(int slot, int step, V& x, double fx, const V& c, V& r, double fr,
                                  const V& q) {
    using T = typename V::value_type;
    check_batch_slot(slot);
    const double* s = device(step);
    for_each_block_group(
        [&](const Communicator* comm, Index n, const T* cd, T* xd, const T* qd, T* rd) {
          add_axpy_pair_squared_norm_block(region_for(comm) + slot, n, s, fx, cd, xd, fr, qd, rd);
        },
        c, x, q, r);
  }
  /// slot += the sum behind the penalty of exponent p (thresholding.hpp): sum |v_i|^p for
  /// p > 0, the number of non-zeros for p == 0.
  template <class V>
  void add_power_sum(int slot, const V& v, double p) {
    using T = typename V::value_type;
    const kernels::NormKind kind =
        p == 0 ? kernels::NormKind::count_nonzero : kernels::NormKind::power_sum;
    const auto exponent = static_cast<real_type_t<T>>(p == 0 ? 1 : p);
    check_batch_slot(slot);
    for_each_reduction_block(v, v, [&](const T* data, const T*, Index n, const Communicator* c) {
      add_norm_reduce_block(region_for(c) + slot, kind, exponent, n, data);
    });
  }

  /// Sums the batch over the ranks: one collective per distinct communicator (NCCL on device
  /// memory, or MPI, on host memory directly or staged), then the regions into the first.
  /// Collective over the batch's communicators; does not synchronise with the device on the
  /// NCCL path.
  void combine();

  /// The slot in the space's memory (for the updates below).
  const double* device(int slot) const {
    check_slot(slot);
    return memory_.data() + slot;
  }

  /// out = numerator / (first + weight second), or 0 when that curvature is not positive or
  /// not finite (kernels::slots::guarded_step); second < 0: none. On the device.
  void step_length(int out, double numerator, int first, int second = -1, double weight = 0);
  /// out = 1 / sqrt(squared), or `otherwise` when squared is not positive and finite.
  void reciprocal_sqrt(int out, int squared, double otherwise);
  /// LSQR's recurrence (lsqr_recurrence.hpp) on slots laid out as LsqrSlots: after ||u||^2
  /// and after ||v||^2. On the device.
  void lsqr_after_u(double dampsq);
  void lsqr_after_v(const LsqrParameters& parameters);

  /// Copies every slot to the host: one synchronisation with the device.
  void read_back();
  /// The slot's value at the last read_back().
  double operator[](int slot) const {
    check_slot(slot);
    return host_[static_cast<std::size_t>(slot)];
  }

  /// The slots as one array: in the space's memory (for the solvers' own scalar kernels) and
  /// its host copy. upload() copies the host copy to the space's memory (a synchronisation on
  /// the device; for states restored before a loop, never inside one).
  double* data() { return memory_.data(); }
  double* host_data() { return host_.data(); }
  void upload() {
    memory::copy_bytes<Space, Host>(memory_.data(), host_.data(),
                                    static_cast<std::size_t>(count_) * sizeof(double));
  }

 private:
  /// Space memory for the intermediate result of one reduction (a complex double).
  static constexpr int scratch_doubles = 2;

  // The sink of a fused apply: each block's partial sum lands in its group's region, as the
  // add_* reductions place theirs.
  class SlotSink final : public VdotSink {
   public:
    SlotSink(ScalarSlots& slots, int slot) : slots_(slots), slot_(slot) {}
    double* target(const Communicator* group) override { return slots_.region_for(group) + slot_; }
    bool imaginary() const override { return false; }

   private:
    ScalarSlots& slots_;
    int slot_;
  };

  void check_slot(int slot) const {
    if (slot < 0 || slot >= count_) {
      throw InvalidArgument("ScalarSlots: slot " + std::to_string(slot) + " out of " +
                            std::to_string(count_));
    }
  }
  void check_batch_slot(int slot) const {
    if (slot < first_ || slot >= first_ + batch_) {
      throw InvalidArgument("ScalarSlots: slot " + std::to_string(slot) +
                            " is not in the current batch");
    }
  }
  double* region(int g) { return memory_.data() + g * capacity; }
  double* mutable_slot(int slot) { return memory_.data() + slot; }
  void* scratch() { return memory_.data() + max_groups * capacity; }

  // The region of the batch's group of `comm` (null: the local group), registered and its
  // batch range zeroed on first use. Groups are told apart by their MPI handle.
  double* region_for(const Communicator* comm) {
    for (int g = 0; g < groups_; ++g) {
      const Communicator* known = communicators_[g];
      if (known == comm || (known && comm && known->native() == comm->native())) return region(g);
    }
    if (groups_ == max_groups) {
      throw InvalidArgument("ScalarSlots: more than " + std::to_string(max_groups) +
                            " communicators in one batch");
    }
    communicators_[groups_] = comm;
    double* fresh = region(groups_++);
    zero(batch_, fresh + first_);
    return fresh;
  }
  void zero(int count, double* slots);

  // One contiguous block of the vectors: the kernels, compiled in the library for each scalar
  // type (solvers/scalar_slots.cpp).
  template <Scalar T>
  void add_vdot_block(double* re, double* im, Index n, const T* x, const T* y);
  template <Scalar T>
  void add_axpy_pair_squared_norm_block(double* re, Index n, const double* step, double fx,
                                        const T* c, T* x, double fr, const T* q, T* r);
  template <Scalar T>
  void add_norm_reduce_block(double* slot, kernels::NormKind kind, real_type_t<T> p, Index n,
                             const T* x);

  template <class V>
  void add_vdot_parts(int slot, bool imaginary, const V& a, const V& b) {
    using T = typename V::value_type;
    check_batch_slot(slot);
    if (imaginary) check_batch_slot(slot + 1);
    for_each_reduction_block(a, b, [&](const T* x, const T* y, Index n, const Communicator* c) {
      double* target = region_for(c) + slot;
      add_vdot_block(target, imaginary ? target + 1 : nullptr, n, x, y);
    });
  }

  int count_;
  Buffer<double, Space> memory_;
  std::array<double, capacity> host_{};
  std::array<const Communicator*, max_groups> communicators_{};
  int groups_ = 0;
  int first_ = 0;
  int batch_ = 0;
};

/// The vector updates whose coefficients are read from slot memory, on one contiguous block
/// (solvers/scalar_slots.cpp, the kernels of every scalar type and space).
template <Scalar T, MemorySpace Space>
struct SlotUpdates {
  /// y += factor * *a * x (y untouched when the coefficient is zero).
  static void axpy(Index n, const double* a, double factor, const T* x, T* y);
  /// y = *a x + *b y (y untouched when *a == 0 and *b == 1, not read when *b == 0).
  static void axpby(Index n, const double* a, const T* x, const double* b, T* y);
  /// y = factor * *a * y (y untouched when the coefficient is 1).
  static void scale(Index n, const double* a, double factor, T* y);
};

/// y += factor * slot * x, with the coefficient read from slot memory (y untouched when it is
/// zero).
template <class V>
void axpy_by_slot(V& y, const double* slot, double factor, const V& x) {
  using T = typename V::value_type;
  using Updates = SlotUpdates<T, typename V::space_type>;
  for_each_block_pair(y, x,
                      [&](T* yd, const T* xd, Index n) { Updates::axpy(n, slot, factor, xd, yd); });
}
/// y = a * x + b * y with a and b read from slot memory (y untouched when a == 0 and b == 1).
template <class V>
void axpby_by_slot(V& y, const double* a, const V& x, const double* b) {
  using T = typename V::value_type;
  using Updates = SlotUpdates<T, typename V::space_type>;
  for_each_block_pair(y, x, [&](T* yd, const T* xd, Index n) { Updates::axpby(n, a, xd, b, yd); });
}
/// y = factor * slot * y (y untouched when the coefficient is 1).
template <class V>
void scale_by_slot(V& y, const double* slot, double factor) {
  using T = typename V::value_type;
  using Updates = SlotUpdates<T, typename V::space_type>;
  for_each_block_pair(y, y, [&](T* yd, const T*, Index n) { Updates::scale(n, slot, factor, yd); });
}

/// \cond
#define DISTLOPS_DETAIL_EXTERN_SCALAR_SLOTS(Space) extern template class ScalarSlots<Space>;
DISTLOPS_FOR_EACH_SPACE(DISTLOPS_DETAIL_EXTERN_SCALAR_SLOTS)
#undef DISTLOPS_DETAIL_EXTERN_SCALAR_SLOTS
DISTLOPS_EXTERN_TEMPLATE_CLASS(SlotUpdates)
/// \endcond

}  // namespace distlops::detail
