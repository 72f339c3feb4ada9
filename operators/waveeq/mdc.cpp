// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "distlops/operators/waveeq/mdc.hpp"

#include <cmath>
#include <memory>

#include "../signal/slice_products.hpp"
#include "../signal/stage_for.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/redistribute.hpp"

namespace distlops {

namespace {

// The sizes of the problem, the same on every rank.
struct MdcSizes {
  Index nt = 0, nv = 0, ns = 0, nr = 0, nfmax = 0;
  Index local_frequencies = 0;
};

// Model or data (n traces: nr or ns) in the user's axis order, split along the trace axis or
// replicated.
Layout user_layout(const Communicator& comm, const MdcSizes& sizes, Index n,
                   const MDCOptions& options) {
  const Shape shape =
      options.transpose ? Shape{n, sizes.nv, sizes.nt} : Shape{sizes.nt, n, sizes.nv};
  if (is_replicated(options.partition)) return Layout(comm, shape, options.partition);
  return Layout(comm, shape, Partition::SCATTER, options.transpose ? 0 : 1);
}

// The kept spectrum (nfmax, n, nv) with the traces split as in `user` (or replicated).
Layout spectrum_layout(const Layout& user, const MdcSizes& sizes, Index n) {
  const Shape shape{sizes.nfmax, n, sizes.nv};
  if (user.replicated()) return Layout(user.communicator(), shape, user.partition());
  std::vector<Shape> locals;
  for (int r = 0; r < user.size(); ++r)
    locals.push_back({sizes.nfmax, user.local_extent(r), sizes.nv});
  return Layout(user.communicator(), shape, LayoutOptions{.axis = 1, .local_shapes = locals});
}

// The kept spectrum split over frequencies as G is.
Layout frequency_layout(const Layout& slices, const MdcSizes& sizes, Index n) {
  std::vector<Shape> locals;
  for (int r = 0; r < slices.size(); ++r)
    locals.push_back({slices.local_extent(r), n, sizes.nv});
  return Layout(slices.communicator(), {sizes.nfmax, n, sizes.nv},
                LayoutOptions{.axis = 0, .local_shapes = locals});
}

// PyLops' FFT along time (norm "ortho", real input) of one rank's block of traces, keeping the
// first nfmax bins; the block is (nt, traces, nv), or (traces, nv, nt) with `transpose`.
template <class Stage>
std::unique_ptr<Stage> time_transform(const MdcSizes& sizes, Index traces, bool shift,
                                      const MDCOptions& options) {
  detail::FftAxis time;
  time.length = sizes.nt;
  time.transform = true;
  time.nfft = sizes.nt;
  time.real = true;
  time.ifftshift_before = shift;
  time.keep = sizes.nfmax;
  detail::FftAxis trace, source;
  trace.length = traces;
  source.length = sizes.nv;
  Shape strides;
  if (options.transpose) strides = {1, sizes.nv * sizes.nt, sizes.nt};
  return std::make_unique<Stage>(std::vector<detail::FftAxis>{time, trace, source},
                                 1.0 / std::sqrt(static_cast<double>(sizes.nt)), options.planning,
                                 strides);
}

// G as (nf, ns, nr), whatever the order it was given in.
template <class C>
std::vector<C> kernel_in_frequency_order(const LocalArray<C, Host>& g, const MdcSizes& sizes,
                                         bool transpose) {
  const Index nf = sizes.local_frequencies, ns = sizes.ns, nr = sizes.nr;
  if (!transpose) return std::vector<C>(g.data(), g.data() + g.size());
  std::vector<C> result(static_cast<std::size_t>(g.size()));
  for (Index s = 0; s < ns; ++s) {
    for (Index r = 0; r < nr; ++r) {
      for (Index f = 0; f < nf; ++f)
        result[static_cast<std::size_t>((f * ns + s) * nr + r)] = g.data()[(s * nr + r) * nf + f];
    }
  }
  return result;
}

template <std::floating_point R, MemorySpace Space>
class MDCOperator final : public LinearOperatorBase<DistributedArray<R, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  using Array = DistributedArray<R, Space>;
  using C = std::complex<R>;
  using Stage = detail::StageFor<Space, R>;
  using Products = detail::SliceProducts<C, Space>;

  MDCOperator(const LocalArray<C, Host>& g, const MdcSizes& sizes, const MDCOptions& options,
              const Layout& slices, const Layout& model, const Layout& data)
      : LinearOperatorBase<Array>(model, data, "MDC"),
        model_transform_(time_transform<Stage>(
            sizes, model.replicated() ? sizes.nr : model.local_extent(model.rank()),
            options.twosided, options)),
        data_transform_(time_transform<Stage>(
            sizes, data.replicated() ? sizes.ns : data.local_extent(data.rank()), false, options)),
        products_("MDC", kernel_in_frequency_order(g, sizes, options.transpose).data(),
                  sizes.local_frequencies, sizes.ns, sizes.nr, sizes.nv,
                  C(options.prescaled
                        ? 1.0
                        : options.dr * options.dt * std::sqrt(static_cast<double>(sizes.nt))),
                  options.conj, options.keep_adjoint) {
    const Layout model_spectrum = spectrum_layout(model, sizes, sizes.nr);
    const Layout data_spectrum = spectrum_layout(data, sizes, sizes.ns);
    const Layout model_frequencies = frequency_layout(slices, sizes, sizes.nr);
    const Layout data_frequencies = frequency_layout(slices, sizes, sizes.ns);
    model_spectrum_ = Buffer<C, Space>(model_spectrum.local_size());
    data_spectrum_ = Buffer<C, Space>(data_spectrum.local_size());
    if (model.size() == 1) return;  // spectra and frequency blocks coincide on one rank
    model_there_ = std::make_unique<RedistributePlan>(model_spectrum, model_frequencies);
    model_back_ = std::make_unique<RedistributePlan>(model_frequencies, model_spectrum);
    data_there_ = std::make_unique<RedistributePlan>(data_frequencies, data_spectrum);
    data_back_ = std::make_unique<RedistributePlan>(data_spectrum, data_frequencies);
    model_frequencies_ = Buffer<C, Space>(model_frequencies.local_size());
    data_frequencies_ = Buffer<C, Space>(data_frequencies.local_size());
  }

  void forward(const Array& x, Array& y) const override {
    model_transform_->forward(x.data(), model_spectrum_.data());
    C* model_frequencies = relay(model_there_.get(), model_spectrum_, model_frequencies_);
    C* data_frequencies = model_there_ ? data_frequencies_.data() : data_spectrum_.data();
    products_.forward(model_frequencies, data_frequencies);
    if (data_there_) data_there_->execute(transport_, data_frequencies, data_spectrum_.data());
    data_transform_->adjoint(data_spectrum_.data(), y.data());
  }
  void adjoint(const Array& y, Array& x) const override {
    data_transform_->forward(y.data(), data_spectrum_.data());
    C* data_frequencies = relay(data_back_.get(), data_spectrum_, data_frequencies_);
    C* model_frequencies = data_back_ ? model_frequencies_.data() : model_spectrum_.data();
    products_.adjoint(data_frequencies, model_frequencies);
    if (model_back_) model_back_->execute(transport_, model_frequencies, model_spectrum_.data());
    model_transform_->adjoint(model_spectrum_.data(), x.data());
  }

 private:
  // Runs `plan` from `from` into `to` and returns `to`; without a plan, `from` is used as is.
  C* relay(const RedistributePlan* plan, Buffer<C, Space>& from, Buffer<C, Space>& to) const {
    if (!plan) return from.data();
    plan->execute(transport_, from.data(), to.data());
    return to.data();
  }

  std::unique_ptr<Stage> model_transform_, data_transform_;
  Products products_;
  // Carries the plans' data between ranks, kept between applies.
  KeptTransport<Space> transport_;
  std::unique_ptr<RedistributePlan> model_there_, model_back_, data_there_, data_back_;
  mutable Buffer<C, Space> model_spectrum_, data_spectrum_, model_frequencies_, data_frequencies_;
};

}  // namespace

template <std::floating_point R, MemorySpace Space>
LinearOperator<R, Space> MDC(const LocalArray<std::complex<R>, Host>& local_g, Index nt, Index nv,
                             const MDCOptions& options, const Communicator& comm) {
  const Shape& shape = local_g.shape();
  MdcSizes sizes;
  sizes.nt = nt;
  sizes.nv = nv;
  Fingerprint fingerprint;
  fingerprint.add(nt).add(nv).add(options.dt).add(options.dr).add(options.twosided);
  fingerprint.add(options.conj).add(options.transpose).add(options.prescaled);
  fingerprint.add(options.keep_adjoint).add(options.partition).add(options.planning);
  if (shape.size() == 3) {
    sizes.local_frequencies = options.transpose ? shape[2] : shape[0];
    sizes.ns = options.transpose ? shape[0] : shape[1];
    sizes.nr = options.transpose ? shape[1] : shape[2];
    fingerprint.add(sizes.ns).add(sizes.nr);
  }
  collective_check(comm, fingerprint, "MDC: nt, nv, the shape of G or options", [&] {
    if (shape.size() != 3) {
      throw InvalidArgument("MDC: G must have 3 axes, got shape " + to_string(shape));
    }
    if (nt < 1 || nv < 1) {
      throw InvalidArgument("MDC: nt = " + std::to_string(nt) + " and nv = " + std::to_string(nv) +
                            " must be positive");
    }
    if (options.twosided && nt % 2 == 0) {
      throw InvalidArgument("MDC: nt = " + std::to_string(nt) +
                            " must be odd for a two-sided convolution");
    }
  });
  const Layout slices = Layout::from_local_shape(comm, {sizes.local_frequencies});
  sizes.nfmax = slices.global_shape()[0];
  if (sizes.nfmax > nt / 2 + 1) {
    throw InvalidArgument("MDC: G holds " + std::to_string(sizes.nfmax) +
                          " frequencies, more than the " + std::to_string(nt / 2 + 1) +
                          " of a real transform of " + std::to_string(nt) + " samples");
  }
  const Layout model = user_layout(comm, sizes, sizes.nr, options);
  const Layout data = user_layout(comm, sizes, sizes.ns, options);
  return LinearOperator<R, Space>::template make<MDCOperator<R, Space>>(local_g, sizes, options,
                                                                        slices, model, data);
}

#define DISTLOPS_INSTANTIATE_MDC(S) DISTLOPS_DETAIL_MDC(, float, S) DISTLOPS_DETAIL_MDC(, double, S)
DISTLOPS_FOR_EACH_SPACE(DISTLOPS_INSTANTIATE_MDC)
#undef DISTLOPS_INSTANTIATE_MDC

}  // namespace distlops
