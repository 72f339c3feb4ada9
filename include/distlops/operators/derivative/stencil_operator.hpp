// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file stencil_operator.hpp
/// `StencilOperator<Vector>`: y = sum over terms t of D_t x, where D_t is the finite difference
/// of stencil.hpp along axis a_t of an N-d array (C order). The one finite-difference engine
/// behind FirstDerivative, SecondDerivative, Laplacian and Gradient, local (Vector =
/// LocalArray<T, Space>, described by its shape) and distributed (Vector = DistributedArray<T,
/// Space> of any layout: slabs along any axis, process grids, explicit boxes, any split, ranks
/// that hold nothing). Both accept the same terms and check them alike.
///
/// The cells a rank's stencils need across the faces of its block, along every cut axis, travel
/// as one GhostExchange (GhostRegion::faces, cells from whichever ranks own them) into face
/// blocks, never a copy of the block. Host: the block is cut into boxes in which every term has a
/// constant stencil (the interior, or one boundary row), and each box is one kernels::combine
/// call per line of its last axis, summing all terms at once; the boxes that need no ghost cell
/// are computed while the cells travel, the boxes next to the faces follow. Cuda: one kernel
/// launch for the whole block whatever the number of boxes, each thread evaluating its stencils
/// with stencil::at, after the cells have crossed through the space's transport. On the host, an
/// apply with beta == 0 whose local output exceeds kernels::streaming_threshold_bytes() writes it
/// with streaming stores (no read of the destination's cache lines; the same values). The plan and
/// the buffers of the face blocks are made once, at construction; applying allocates nothing.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distlops/core/detail/streaming_stores.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/derivative/stencil.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// One term of a StencilOperator: the derivative `spec` along `axis` (negative values count
/// from the end).
struct StencilTerm {
  /// Axis of the derivative (negative values count from the end).
  int axis = 0;
  /// Which derivative, its kind, order, edge flag and weight factor.
  stencil::Spec<double> spec;
};

/// The finite-difference engine: y = sum_t D_t x over its terms, D_t the stencil.hpp derivative
/// along axis a_t. Vector is LocalArray (no communication) or DistributedArray (ghost cells
/// exchanged across the block's faces along every cut axis, overlapped with the interior).
/// FirstDerivative, SecondDerivative, Laplacian and Gradient build it; domain and range share
/// one layout.
template <class Vector>
class StencilOperator final : public LinearOperatorBase<Vector> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The scalar type of the arrays.
  using value_type = typename Vector::value_type;
  /// The memory space of the arrays.
  using space_type = typename Vector::space_type;
  /// A Layout (distributed arrays) or a Shape (local arrays).
  using layout_type = vector_layout_t<Vector>;
  /// Whether the arrays are distributed (DistributedArray) or local (LocalArray).
  static constexpr bool distributed =
      std::same_as<Vector, DistributedArray<value_type, space_type>>;
  /// Most dimensions of the arrays.
  static constexpr int max_dimensions = 16;
  /// Most terms of one operator.
  static constexpr int max_terms = 16;

  /// `layout` (a Layout, collective: ghost-exchange planning; or the shape of local arrays) is
  /// both domain and range. InvalidArgument, naming the operator `name`, for no term, an axis
  /// out of range, a derivative other than 1 or 2, an order other than 3 or 5, a non-finite
  /// scale, or `edge` on an axis shorter than its one-sided formula reads (2 samples for centered
  /// first derivatives of order 3, 3 otherwise).
  StencilOperator(layout_type layout, std::vector<StencilTerm> terms, std::string name);

  void forward(const Vector& x, Vector& y) const override {
    run(false, x, y, value_type(1), value_type(0));
  }
  void adjoint(const Vector& y, Vector& x) const override {
    run(true, y, x, value_type(1), value_type(0));
  }
  /// y = alpha sum_t D_t x + beta y in one pass (y is not read when beta == 0). Collective for
  /// distributed arrays cut along a differentiated axis.
  void forward_add(value_type alpha, const Vector& x, value_type beta, Vector& y) const override {
    run(false, x, y, alpha, beta);
  }
  /// x = alpha sum_t D_t^T y + beta x in one pass (the weights are real: D^H = D^T).
  void adjoint_add(value_type alpha, const Vector& y, value_type beta, Vector& x) const override {
    run(true, y, x, alpha, beta);
  }
  /// y = sum_t D_t x and this rank's x^H y in the same pass; returns true. Host: each output
  /// line's sum is formed while the line is written, from the row kernel's registers for real
  /// types or from the line just written (in cache) otherwise, and the lines' sums are added in
  /// double. Cuda: each thread adds its points' terms in double, each thread block sums its
  /// threads', and one more block sums the blocks' (kernels::stencil_vdot); a block of more than
  /// 2^32 - 1 points has the plain apply and false (the caller reduces).
  bool forward_vdot(const Vector& x, Vector& y, VdotSink& sink) const override;

  /// Bytes one apply must move at the least: read the input once, write the output once.
  Index minimal_bytes() const {
    return 2 * vector_traits<Vector>::size(this->domain()) * Index(sizeof(value_type));
  }

 private:
  using T = value_type;
  using Space = space_type;
  /// A term with its axis in [0, ndim) and weights in the precision of T.
  struct Term {
    int axis;
    stencil::Spec<real_type_t<T>> spec;
  };
  /// The plan of the forward or of the adjoint: the ghost exchange across the faces of the
  /// block, the geometry the kernels read, and the host's walk over the block
  /// (stencil_operator.cpp).
  struct Plan;
  // Where a fused forward (alpha 1, beta 0) adds Re and Im of in^H out over the local block:
  // memory of the space; no fusion when re is null.
  struct VdotOut {
    double* re = nullptr;
    double* im = nullptr;
  };

  std::shared_ptr<const Plan> make_plan(bool adjoint, const std::vector<StencilTerm>& terms) const;
  void run(bool adjoint, const Vector& in, Vector& out, T alpha, T beta, VdotOut vdot = {}) const;

  Shape global_shape_;
  Shape local_shape_;
  Shape block_start_;  // global index of the block's first plane along each axis
  std::vector<Term> terms_;
  std::shared_ptr<const Plan> forward_;
  std::shared_ptr<const Plan> adjoint_;
  // The face blocks of the ghost exchange (one buffer for every axis and side).
  mutable Buffer<T, Space> ghosts_;
  // A fused forward's scratch: the Cuda space's thread blocks' sums, the host's two partials.
  mutable Buffer<double, Space> vdot_partials_;
  // The Cuda space: the transport of the ghost cells.
  KeptTransport<Space> transport_;
};

/// \cond
#define DISTLOPS_DETAIL_STENCIL_OPERATOR(PREFIX, T, SPACE)     \
  PREFIX template class StencilOperator<LocalArray<T, SPACE>>; \
  PREFIX template class StencilOperator<DistributedArray<T, SPACE>>;
#define DISTLOPS_DETAIL_EXTERN_STENCIL_OPERATOR(T, SPACE) \
  DISTLOPS_DETAIL_STENCIL_OPERATOR(extern, T, SPACE)
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_STENCIL_OPERATOR)
#undef DISTLOPS_DETAIL_EXTERN_STENCIL_OPERATOR
/// \endcond

}  // namespace distlops
