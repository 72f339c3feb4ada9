// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The solvers (cg, cgls, lsqr, ista, fista, power iteration) for operators over plain and
// stacked arrays. They run without the GIL; the Python callback takes it back each iteration.
// Results go back as dictionaries, which the package turns into PyLops-MPI's tuples.
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/fista.hpp"
#include "distlops/solvers/ista.hpp"
#include "distlops/solvers/lsqr.hpp"
#include "distlops/solvers/power_iteration.hpp"
#include "solver_run.hpp"

namespace distlops::python {
namespace {

template <class Domain>
nb::dict result_dict(SolverResult<Domain>&& result) {
  nb::dict d;
  d["iterations"] = result.iterations;
  d["reason"] = std::string(to_string(result.reason));
  d["stopped_by_tolerance"] = result.reason == StopReason::tolerance;
  d["residual_norms"] = result.residual_norms;
  d["costs"] = result.costs;
  d["seconds"] = result.seconds;
  d["x"] = nb::cast(std::move(result.x));
  return d;
}

#define DISTLOPS_COMMON_ARGS                                              \
  nb::arg("niter"), nb::arg("tol"), nb::arg("show"), nb::arg("itershow"), \
      nb::arg("callback").none(), nb::call_guard<nb::gil_scoped_release>()

template <class D, class R>
void bind_least_squares(nb::module_& m) {
  using Op = BasicLinearOperator<D, R>;
  m.def(
      "cgls",
      [](const Op& op, const R& y, const D* x0, double damp, int niter, double tol, bool show,
         std::vector<int> itershow, nb::handle callback) {
        CglsOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        options.damp = damp;
        CglsResult<D> result = x0 ? cgls(op, y, *x0, options) : cgls(op, y, options);
        const double r1 = result.r1norm, r2 = result.r2norm;
        nb::gil_scoped_acquire gil;
        nb::dict d = result_dict<D>(std::move(result));
        d["r1norm"] = r1;
        d["r2norm"] = r2;
        return d;
      },
      nb::arg("op"), nb::arg("y"), nb::arg("x0").none(), nb::arg("damp"), DISTLOPS_COMMON_ARGS);
  m.def(
      "lsqr",
      [](const Op& op, const R& y, const D* x0, double damp, double atol, double btol,
         double conlim, int niter, double tol, bool show, std::vector<int> itershow,
         nb::handle callback) {
        LsqrOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        options.damp = damp;
        options.atol = atol;
        options.btol = btol;
        options.conlim = conlim;
        LsqrResult<D> result = x0 ? lsqr(op, y, *x0, options) : lsqr(op, y, options);
        const LsqrResult<D> scalars{{},           result.istop, result.r1norm, result.r2norm,
                                    result.anorm, result.acond, result.arnorm, result.xnorm};
        nb::gil_scoped_acquire gil;
        nb::dict d = result_dict<D>(std::move(result));
        d["istop"] = scalars.istop;
        d["r1norm"] = scalars.r1norm;
        d["r2norm"] = scalars.r2norm;
        d["anorm"] = scalars.anorm;
        d["acond"] = scalars.acond;
        d["arnorm"] = scalars.arnorm;
        d["xnorm"] = scalars.xnorm;
        return d;
      },
      nb::arg("op"), nb::arg("y"), nb::arg("x0").none(), nb::arg("damp"), nb::arg("atol"),
      nb::arg("btol"), nb::arg("conlim"), DISTLOPS_COMMON_ARGS);
  m.def(
      "ista",
      [](const Op& op, const R& y, const D* x0, bool accelerated, double eps,
         std::optional<double> alpha, int eigs_niter, double eigs_tol, ThresholdKind threshold,
         std::vector<double> decay, double rtol, double rtol1, int niter, double tol, bool show,
         std::vector<int> itershow, nb::handle callback) {
        IstaOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        options.eps = eps;
        options.alpha = alpha;
        options.eigs.niter = eigs_niter;
        options.eigs.tol = eigs_tol;
        options.threshold = threshold;
        options.decay = std::move(decay);
        options.rtol = rtol;
        options.rtol1 = rtol1;
        IstaResult<D> result = accelerated
                                   ? (x0 ? fista(op, y, *x0, options) : fista(op, y, options))
                                   : (x0 ? ista(op, y, *x0, options) : ista(op, y, options));
        const double used_alpha = result.alpha, used_threshold = result.threshold;
        const std::vector<double> updates = result.model_updates;
        nb::gil_scoped_acquire gil;
        nb::dict d = result_dict<D>(std::move(result));
        d["alpha"] = used_alpha;
        d["threshold"] = used_threshold;
        d["model_updates"] = updates;
        return d;
      },
      nb::arg("op"), nb::arg("y"), nb::arg("x0").none(), nb::arg("accelerated"), nb::arg("eps"),
      nb::arg("alpha").none(), nb::arg("eigs_niter"), nb::arg("eigs_tol"), nb::arg("threshold"),
      nb::arg("decay"), nb::arg("rtol"), nb::arg("rtol1"), DISTLOPS_COMMON_ARGS);
}

template <class V>
void bind_square(nb::module_& m) {
  using Op = BasicLinearOperator<V, V>;
  m.def(
      "cg",
      [](const Op& op, const V& y, const V* x0, int niter, double tol, bool show,
         std::vector<int> itershow, nb::handle callback) {
        CgOptions<V> options;
        apply_run<V>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        CgResult<V> result = x0 ? cg(op, y, *x0, options) : cg(op, y, options);
        nb::gil_scoped_acquire gil;
        return result_dict<V>(std::move(result));
      },
      nb::arg("op"), nb::arg("y"), nb::arg("x0").none(), DISTLOPS_COMMON_ARGS);
  m.def(
      "power_iteration",
      [](const Op& op, const V* start, int niter, double tol, std::uint64_t seed) {
        PowerIterationOptions options{.niter = niter, .tol = tol, .seed = seed};
        PowerIterationResult<V> result =
            start ? power_iteration(op, *start, options) : power_iteration(op, options);
        nb::gil_scoped_acquire gil;
        nb::dict d;
        d["eigenvalue"] = result.eigenvalue;
        d["iterations"] = result.iterations;
        d["converged"] = result.converged;
        d["eigenvector"] = nb::cast(std::move(result.eigenvector));
        return d;
      },
      nb::arg("op"), nb::arg("start").none(), nb::arg("niter"), nb::arg("tol"), nb::arg("seed"),
      nb::call_guard<nb::gil_scoped_release>());
}

template <class T>
void bind_solvers_for_type(nb::module_& m) {
  using DA = DistributedArray<T, Host>;
  using SDA = StackedDistributedArray<T, Host>;
  bind_least_squares<DA, DA>(m);
  bind_least_squares<SDA, SDA>(m);
  bind_least_squares<DA, SDA>(m);
  bind_least_squares<SDA, DA>(m);
  bind_square<DA>(m);
  bind_square<SDA>(m);
}

}  // namespace

void bind_solvers(nb::module_& m) {
  nb::enum_<ThresholdKind>(m, "ThresholdKind")
      .value("soft", ThresholdKind::soft)
      .value("hard", ThresholdKind::hard)
      .value("half", ThresholdKind::half);
  for_each_scalar([&]<class T>() { bind_solvers_for_type<T>(m); });
}

}  // namespace distlops::python
