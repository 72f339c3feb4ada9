#pragma once
/// \file stencil_operator.hpp
/// `StencilOperator`: y = sum over terms t of (band rule of t along axis a_t) x, on an N-d
/// array distributed along any axis. Derivatives, Laplacians and gradients are stencil
/// operators.
///
/// One pass: the array is cut into boxes in which every term has a constant stencil (the
/// interior, or one boundary row), and each box is computed by one kernel call per line of
/// its last axis, summing all terms at once. When a term acts along the distribution axis,
/// the planes it needs from other ranks travel as non-blocking messages (any number of
/// planes, from any number of ranks) while the boxes that need none are computed; the boxes
/// next to the block edges follow. The plan (boxes, messages) is made once, at
/// construction; applying allocates nothing beyond the ghost planes of the first apply.

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/operators/derivative/band_rule.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// A band rule applied along one axis, weighted.
struct StencilTerm {
  int axis = 0;
  BandRule rule;
};

template <Scalar T, MemorySpace Space = Host>
class StencilOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  using Array = DistributedArray<T, Space>;
  /// Most taps one output point may combine (all terms together).
  static constexpr int max_taps = 32;
  /// Most dimensions of the arrays.
  static constexpr int max_dimensions = 8;

  /// Collective (ghost-exchange planning). `layout` is both domain and range; each term's
  /// rule must be made for the global length of its axis.
  StencilOperator(const Layout& layout, std::vector<StencilTerm> terms, std::string name);

  void forward(const Array& x, Array& y) const override { run(forward_, x, y, T(1), T(0)); }
  void adjoint(const Array& y, Array& x) const override { run(adjoint_, y, x, T(1), T(0)); }
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override {
    run(forward_, x, y, alpha, beta);
  }
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override {
    run(adjoint_, y, x, alpha, beta);
  }

  /// Bytes one apply must move at the least: read the input once, write the output once.
  Index minimal_bytes() const { return 2 * this->domain().global_size() * Index(sizeof(T)); }

 private:
  struct Tap {
    int axis;
    Index offset;
    double weight;
  };
  struct Segment {
    Index start;
    Index count;
    bool interior;  // every term along this axis uses its interior stencil, all sources local
  };
  struct Box {
    std::vector<std::size_t> segment;  // one segment index per axis
    std::vector<Tap> taps;
    bool needs_ghosts = false;
  };
  struct Plan {
    std::vector<StencilTerm> terms;
    std::vector<std::vector<Segment>> segments;  // per axis
    std::vector<Box> boxes;
    std::optional<GhostExchange> exchange;
    Shape front_strides;  // of the ghost blocks, when there is an exchange
    Shape back_strides;
  };

  Plan make_plan(std::vector<StencilTerm> terms) const;
  void run(const Plan& plan, const Array& in, Array& out, T alpha, T beta) const;
  void run_box(const Plan& plan, const Box& box, const T* in, T* out, T alpha, T beta) const;
  void run_device(const Plan& plan, const Array& in, Array& out, T alpha, T beta) const;

  int distributed_axis_ = -1;  // -1 when the layout is replicated
  Shape local_shape_;
  Shape local_strides_;
  Index block_start_ = 0;  // global index of the first local plane along the distributed axis
  Plan forward_;
  Plan adjoint_;
  mutable Buffer<T, Space> front_ghosts_;
  mutable Buffer<T, Space> back_ghosts_;
  // The Cuda space: the transport of the ghost planes.
  KeptTransport<Space> transport_;
};

DISTLOPS_EXTERN_TEMPLATE_CLASS(StencilOperator)

}  // namespace distlops
