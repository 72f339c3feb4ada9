#include "distlops/operators/signal/fredholm1.hpp"

#include "distlops/core/collective_check.hpp"
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

template <Scalar T>
class LocalFredholm1Operator final : public LinearOperatorBase<LocalArray<T, Host>> {
 public:
  using Local = LocalArray<T, Host>;
  LocalFredholm1Operator(const Local& g, Index nz, bool keep_adjoint)
      : LinearOperatorBase<Local>({g.shape()[0], g.shape()[2], nz},
                                  {g.shape()[0], g.shape()[1], nz}, "Fredholm1"),
        products_(g.data(), g.shape()[0], g.shape()[1], g.shape()[2], nz, T(1), false,
                  keep_adjoint) {}
  void forward(const Local& x, Local& y) const override { products_.forward(x.data(), y.data()); }
  void adjoint(const Local& y, Local& x) const override { products_.adjoint(y.data(), x.data()); }

 private:
  detail::SliceProducts<T> products_;
};

template <Scalar T>
class Fredholm1Operator final : public LinearOperatorBase<DistributedArray<T, Host>> {
 public:
  using Array = DistributedArray<T, Host>;
  Fredholm1Operator(const LocalArray<T, Host>& g, Index nz, const Fredholm1Options& options,
                    const Layout& slices)
      : LinearOperatorBase<Array>(layout_of(slices, g.shape()[2], nz, options.partition),
                                  layout_of(slices, g.shape()[1], nz, options.partition),
                                  "Fredholm1"),
        products_(g.data(), g.shape()[0], g.shape()[1], g.shape()[2], nz, T(1), false,
                  options.keep_adjoint),
        replicated_(is_replicated(options.partition)) {
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
    workspace_ = Buffer<T, Host>(std::max(model_counts_[me], data_counts_[me]));
  }

  void forward(const Array& x, Array& y) const override {
    if (!replicated_) {
      products_.forward(x.data(), y.data());
      return;
    }
    const int me = this->domain().rank();
    products_.forward(x.data() + model_offsets_[me], workspace_.data());
    this->range().communicator().allgatherv(workspace_.data(), data_counts_[me], y.data(),
                                            data_counts_, data_offsets_);
  }
  void adjoint(const Array& y, Array& x) const override {
    if (!replicated_) {
      products_.adjoint(y.data(), x.data());
      return;
    }
    const int me = this->domain().rank();
    products_.adjoint(y.data() + data_offsets_[me], workspace_.data());
    this->domain().communicator().allgatherv(workspace_.data(), model_counts_[me], x.data(),
                                             model_counts_, model_offsets_);
  }

 private:
  static Layout layout_of(const Layout& slices, Index n, Index nz, Partition partition) {
    const Shape shape{slices.global_shape()[0], n, nz};
    if (is_replicated(partition)) return Layout(slices.communicator(), shape, partition);
    std::vector<Shape> locals;
    for (int r = 0; r < slices.size(); ++r)
      locals.push_back({slices.local_extent(r), n, nz});
    return Layout(slices.communicator(), shape, LayoutOptions{.local_shapes = locals});
  }

  detail::SliceProducts<T> products_;
  bool replicated_;
  std::vector<Index> model_counts_, model_offsets_, data_counts_, data_offsets_;
  mutable Buffer<T, Host> workspace_;
};

}  // namespace

namespace local {
template <Scalar T>
LocalOperator<T, Host> Fredholm1(const LocalArray<T, Host>& g, Index nz, bool keep_adjoint) {
  check_kernel(g.shape(), nz);
  return LocalOperator<T, Host>::template make<LocalFredholm1Operator<T>>(g, nz, keep_adjoint);
}
}  // namespace local

template <Scalar T>
LinearOperator<T, Host> Fredholm1(const LocalArray<T, Host>& local_g, Index nz,
                                  const Fredholm1Options& options, const Communicator& comm) {
  const Shape& shape = local_g.shape();
  Fingerprint fingerprint;
  fingerprint.add(nz).add(options.partition).add(options.keep_adjoint);
  if (shape.size() == 3) fingerprint.add(shape[1]).add(shape[2]);
  collective_check(comm, fingerprint, "Fredholm1: nx, ny, nz or options",
                   [&] { check_kernel(shape, nz); });
  // The split of the slices over the ranks (collective).
  const Layout slices = Layout::from_local_shape(comm, {shape[0]});
  return LinearOperator<T, Host>::template make<Fredholm1Operator<T>>(local_g, nz, options, slices);
}

#define DISTLOPS_INSTANTIATE_FREDHOLM1(T)                                             \
  namespace local {                                                                   \
  template LocalOperator<T, Host> Fredholm1(const LocalArray<T, Host>&, Index, bool); \
  }                                                                                   \
  template LinearOperator<T, Host> Fredholm1(const LocalArray<T, Host>&, Index,       \
                                             const Fredholm1Options&, const Communicator&);
DISTLOPS_INSTANTIATE_FREDHOLM1(float)
DISTLOPS_INSTANTIATE_FREDHOLM1(double)
DISTLOPS_INSTANTIATE_FREDHOLM1(std::complex<float>)
DISTLOPS_INSTANTIATE_FREDHOLM1(std::complex<double>)
#undef DISTLOPS_INSTANTIATE_FREDHOLM1

}  // namespace distlops
