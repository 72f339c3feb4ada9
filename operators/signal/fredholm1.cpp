// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/operators/signal/fredholm1.hpp"

#include <type_traits>

#include "../rank_exchange.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "slice_products.hpp"

namespace distlops {

namespace {

void check_kernel(const Shape& shape, Index nz) {
  if (shape.size() != 3) {
    throw InvalidArgument("Fredholm1: G must have 3 axes (nsl, nx, ny), got shape " +
                          to_string(shape));
  }
  if (nz < 0) throw InvalidArgument("Fredholm1: nz = " + std::to_string(nz) + " is negative");
}

// The slice products of G (copied into the space once).
template <Scalar T, MemorySpace Space>
detail::SliceProducts<T, Space> products_of(const LocalArray<T, Host>& g, Index nz,
                                            bool keep_adjoint) {
  return {"Fredholm1", g.data(), g.shape()[0], g.shape()[1], g.shape()[2],
          nz,          T(1),     false,        keep_adjoint};
}

template <Scalar T, MemorySpace Space>
class LocalFredholm1Operator final : public LinearOperatorBase<LocalArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Local = LocalArray<T, Space>;
  LocalFredholm1Operator(const LocalArray<T, Host>& g, Index nz, bool keep_adjoint)
      : LinearOperatorBase<Local>({g.shape()[0], g.shape()[2], nz},
                                  {g.shape()[0], g.shape()[1], nz}, "Fredholm1"),
        products_(products_of<T, Space>(g, nz, keep_adjoint)) {}
  void forward(const Local& x, Local& y) const override { products_.forward(x.data(), y.data()); }
  void adjoint(const Local& y, Local& x) const override { products_.adjoint(y.data(), x.data()); }

 private:
  detail::SliceProducts<T, Space> products_;
};

template <Scalar T, MemorySpace Space>
class Fredholm1Operator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Array = DistributedArray<T, Space>;
  Fredholm1Operator(const LocalArray<T, Host>& g, Index nz, const Fredholm1Options& options,
                    const Layout& slices)
      : LinearOperatorBase<Array>(layout_of(slices, g.shape()[2], nz, options.partition),
                                  layout_of(slices, g.shape()[1], nz, options.partition),
                                  "Fredholm1"),
        products_(products_of<T, Space>(g, nz, options.keep_adjoint)),
        replicated_(is_replicated(options.partition)),
        exchange_(slices.communicator()) {
    if (!replicated_) return;
    // Where this rank's slices sit in the whole model and data, and what the all-gathers move.
    const Communicator& comm = slices.communicator();
    const Index ny = g.shape()[2], nx = g.shape()[1];
    for (int r = 0; r < comm.size(); ++r) {
      model_counts_.push_back(slices.local_extent(r) * ny * nz);
      model_offsets_.push_back(slices.offset(r) * ny * nz);
      data_counts_.push_back(slices.local_extent(r) * nx * nz);
      data_offsets_.push_back(slices.offset(r) * nx * nz);
    }
    const int me = comm.rank();
    workspace_ = Buffer<T, Space>(std::max(model_counts_[me], data_counts_[me]));
  }

  void forward(const Array& x, Array& y) const override { run(false, x.data(), y.data()); }
  void adjoint(const Array& y, Array& x) const override { run(true, y.data(), x.data()); }

 private:
  // This rank's slice products (with G^H for the adjoint), all-gathered where the arrays are
  // replicated.
  void run(bool adjoint, const T* in, T* out) const {
    const auto products = [&](const T* from, T* to) {
      adjoint ? products_.adjoint(from, to) : products_.forward(from, to);
    };
    if (!replicated_) {
      products(in, out);
      return;
    }
    const int me = this->domain().rank();
    products(in + (adjoint ? data_offsets_ : model_offsets_)[me], workspace_.data());
    exchange_.allgatherv(workspace_.data(), out, adjoint ? model_counts_ : data_counts_,
                         adjoint ? model_offsets_ : data_offsets_);
  }

  static Layout layout_of(const Layout& slices, Index n, Index nz, Partition partition) {
    const Shape shape{slices.global_shape()[0], n, nz};
    if (is_replicated(partition)) return Layout(slices.communicator(), shape, partition);
    std::vector<Shape> locals;
    for (int r = 0; r < slices.size(); ++r)
      locals.push_back({slices.local_extent(r), n, nz});
    return Layout(slices.communicator(), shape, LayoutOptions{.local_shapes = locals});
  }

  detail::SliceProducts<T, Space> products_;
  bool replicated_;
  detail::RankExchange<T, Space> exchange_;
  std::vector<Index> model_counts_, model_offsets_, data_counts_, data_offsets_;
  mutable Buffer<T, Space> workspace_;
};

}  // namespace

namespace local {
template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Fredholm1(const LocalArray<T, Host>& g, Index nz, bool keep_adjoint) {
  check_kernel(g.shape(), nz);
  return LocalOperator<T, Space>::template make<LocalFredholm1Operator<T, Space>>(g, nz,
                                                                                  keep_adjoint);
}
}  // namespace local

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Fredholm1(const LocalArray<T, Host>& local_g, Index nz,
                                   const Fredholm1Options& options, const Communicator& comm) {
  const Shape& shape = local_g.shape();
  Fingerprint fingerprint;
  fingerprint.add(nz).add(options.partition).add(options.keep_adjoint);
  if (shape.size() == 3) fingerprint.add(shape[1]).add(shape[2]);
  collective_check(comm, fingerprint, "Fredholm1: nx, ny, nz or options",
                   [&] { check_kernel(shape, nz); });
  // The split of the slices over the ranks (collective).
  const Layout slices = Layout::from_local_shape(comm, {shape[0]});
  return LinearOperator<T, Space>::template make<Fredholm1Operator<T, Space>>(local_g, nz, options,
                                                                              slices);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_FREDHOLM1, )

}  // namespace distlops
