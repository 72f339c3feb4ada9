// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The solvers (cg, cgls, lsqr, ista, fista, power iteration) for operators over plain and
// stacked arrays, in each memory space. The step-wise solvers are bound once, as StepwiseSolver: a
// factory per solver sets one up, and the package's class solvers (CG, CGLS, ...) step it while its
// function forms call solve(). Steps run without the GIL; the Python callback takes it back
// each iteration. Results go back as dictionaries, which the package turns into PyLops-MPI's
// tuples.
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <utility>
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

using release = nb::call_guard<nb::gil_scoped_release>;

// The result of each solver as a dictionary (called with the GIL held).
template <class D>
nb::dict to_dict(SolverResult<D>&& result) {
  nb::dict d;
  d["iterations"] = result.iterations;
  d["reason"] = std::string(to_string(result.reason));
  d["stopped_by_tolerance"] = result.reason == StopReason::tolerance;
  d["non_finite"] = result.reason == StopReason::non_finite;
  d["residual_norms"] = result.residual_norms;
  d["costs"] = result.costs;
  d["seconds"] = result.seconds;
  d["x"] = nb::cast(std::move(result.x));
  return d;
}
template <class D>
nb::dict to_dict(CglsResult<D>&& result) {
  const double r1 = result.r1norm, r2 = result.r2norm;
  nb::dict d = to_dict(static_cast<SolverResult<D>&&>(result));
  d["r1norm"] = r1;
  d["r2norm"] = r2;
  return d;
}
template <class D>
nb::dict to_dict(LsqrResult<D>&& result) {
  const LsqrResult<D> scalars{{},           result.istop, result.r1norm, result.r2norm,
                              result.anorm, result.acond, result.arnorm, result.xnorm};
  nb::dict d = to_dict(static_cast<SolverResult<D>&&>(result));
  d["istop"] = scalars.istop;
  d["r1norm"] = scalars.r1norm;
  d["r2norm"] = scalars.r2norm;
  d["anorm"] = scalars.anorm;
  d["acond"] = scalars.acond;
  d["arnorm"] = scalars.arnorm;
  d["xnorm"] = scalars.xnorm;
  return d;
}
template <class D>
nb::dict to_dict(IstaResult<D>&& result) {
  const double alpha = result.alpha, threshold = result.threshold;
  std::vector<double> updates = std::move(result.model_updates);
  nb::dict d = to_dict(static_cast<SolverResult<D>&&>(result));
  d["alpha"] = alpha;
  d["threshold"] = threshold;
  d["model_updates"] = std::move(updates);
  return d;
}

/// A step-wise solver after setup(), whatever its kind and vector types: what the Python
/// class StepwiseSolver calls. Its vectors are handed out as references into the solver (the
/// binding keeps the solver alive while they are), valid until finalize().
class StepwiseSolverHandle {
 public:
  virtual ~StepwiseSolverHandle() = default;
  /// One iteration. Collective.
  virtual void step() = 0;
  virtual bool finished() const = 0;
  virtual int iteration() const = 0;
  /// Why the run stopped, or nothing while it goes on (or only reached niter).
  virtual std::optional<std::string> reason() const = 0;
  virtual std::vector<double> residual_norms() const = 0;
  virtual std::vector<double> costs() const = 0;
  /// The current iterate.
  virtual nb::object x() = 0;
  /// A named vector of the solver's state ("residual", "z"), where the solver has it.
  virtual nb::object vector(const std::string& name) = 0;
  /// The solver's named scalar ("alpha"), where it has it.
  virtual double scalar(const std::string& name) const = 0;
  /// The history of ||x_k - x_{k-1}|| (ISTA, FISTA).
  virtual std::vector<double> model_updates() const = 0;
  /// The result as a dictionary (the iterate moved out: the state is gone). Collective.
  virtual nb::dict finalize() = 0;
  /// Steps until finished, then finalize(). Collective.
  nb::dict solve() {
    {
      nb::gil_scoped_release unlocked;
      while (!finished())
        step();
    }
    return finalize();
  }
};

template <class Solver>
class Stepwise final : public StepwiseSolverHandle {
 public:
  template <class... Args>
  explicit Stepwise(Args&&... args) : solver_(std::forward<Args>(args)...) {}
  Solver& solver() { return solver_; }

  void step() override { solver_.step(); }
  bool finished() const override { return solver_.finished(); }
  int iteration() const override { return solver_.iteration(); }
  std::optional<std::string> reason() const override {
    const std::optional<StopReason> reason = solver_.reason();
    if (!reason) return std::nullopt;
    return std::string(to_string(*reason));
  }
  std::vector<double> residual_norms() const override { return solver_.residual_norms(); }
  std::vector<double> costs() const override { return solver_.costs(); }
  nb::object x() override {
    require_state("x");
    return reference(solver_.x());
  }
  nb::object vector(const std::string& name) override {
    require_state(name);
    if constexpr (requires { solver_.residual(); }) {
      if (name == "residual") return reference(solver_.residual());
    }
    if constexpr (requires { solver_.z(); }) {
      if (name == "z") return reference(solver_.z());
    }
    throw InvalidArgument("this solver has no vector '" + name + "'");
  }
  double scalar(const std::string& name) const override {
    if constexpr (requires { solver_.alpha(); }) {
      if (name == "alpha") return solver_.alpha();
    }
    throw InvalidArgument("this solver has no scalar '" + name + "'");
  }
  std::vector<double> model_updates() const override {
    if constexpr (requires { solver_.model_updates(); }) {
      return solver_.model_updates();
    } else {
      throw InvalidArgument("this solver keeps no model updates");
    }
  }
  nb::dict finalize() override {
    std::optional<decltype(solver_.finalize())> result;
    {
      nb::gil_scoped_release unlocked;
      result.emplace(solver_.finalize());
    }
    finalized_ = true;
    return to_dict(std::move(*result));
  }

 private:
  void require_state(const std::string& what) const {
    if (finalized_) throw InvalidArgument(what + ": the solver was finalized");
  }
  template <class V>
  static nb::object reference(const V& vector) {
    return nb::cast(const_cast<V*>(&vector), nb::rv_policy::reference);
  }

  Solver solver_;
  bool finalized_ = false;
};

/// A handle of a new Solver(args...), set up with y and x0 (null: zeros). Collective.
template <class Solver, class Range, class Domain, class... Args>
std::unique_ptr<StepwiseSolverHandle> set_up(const Range& y, const Domain* x0, Args&&... args) {
  auto handle = std::make_unique<Stepwise<Solver>>(std::forward<Args>(args)...);
  handle->solver().setup(y, x0);
  return handle;
}

// Every factory takes the operator, y, x0 and the run's arguments first (then its own) and
// keeps them alive with the solver: the solver reads y and x0 until finalize() and calls the
// callback at every step.
#define DISTLOPS_STEPWISE_ARGS(...)                                                                \
  nb::arg("op"), nb::arg("y"), nb::arg("x0").none(), nb::arg("callback").none(), nb::arg("niter"), \
      nb::arg("tol"), nb::arg("show"), nb::arg("itershow") __VA_OPT__(, ) __VA_ARGS__,             \
      nb::keep_alive<0, 1>(), nb::keep_alive<0, 2>(), nb::keep_alive<0, 3>(),                      \
      nb::keep_alive<0, 4>(), release()

template <class D, class R>
void bind_least_squares(nb::module_& m) {
  using Op = BasicLinearOperator<D, R>;
  m.def(
      "cgls_solver",
      [](const Op& op, const R& y, const D* x0, nb::handle callback, int niter, double tol,
         bool show, std::vector<int> itershow, double damp) {
        CglsOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        options.damp = damp;
        return set_up<Cgls<D, R>>(y, x0, op, options);
      },
      DISTLOPS_STEPWISE_ARGS(nb::arg("damp")));
  m.def(
      "lsqr_solver",
      [](const Op& op, const R& y, const D* x0, nb::handle callback, int niter, double tol,
         bool show, std::vector<int> itershow, double damp, double atol, double btol,
         double conlim) {
        LsqrOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        options.damp = damp;
        options.atol = atol;
        options.btol = btol;
        options.conlim = conlim;
        return set_up<Lsqr<D, R>>(y, x0, op, options);
      },
      DISTLOPS_STEPWISE_ARGS(nb::arg("damp"), nb::arg("atol"), nb::arg("btol"), nb::arg("conlim")));
  m.def(
      "ista_solver",
      [](const Op& op, const R& y, const D* x0, nb::handle callback, int niter, double tol,
         bool show, std::vector<int> itershow, bool accelerated,
         const BasicLinearOperator<D, D>* sop, double eps, std::optional<double> alpha,
         int eigs_niter, double eigs_tol, ThresholdKind threshold, std::vector<double> decay,
         double rtol, double rtol1, bool residual_by_apply) {
        IstaOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        if (sop) options.sop = *sop;
        options.eps = eps;
        options.alpha = alpha;
        options.eigs.niter = eigs_niter;
        options.eigs.tol = eigs_tol;
        options.threshold = threshold;
        options.decay = std::move(decay);
        options.rtol = rtol;
        options.rtol1 = rtol1;
        options.residual_by_apply = residual_by_apply;
        return set_up<Ista<D, R>>(y, x0, op, options, accelerated);
      },
      DISTLOPS_STEPWISE_ARGS(nb::arg("accelerated"), nb::arg("sop").none(), nb::arg("eps"),
                             nb::arg("alpha").none(), nb::arg("eigs_niter"), nb::arg("eigs_tol"),
                             nb::arg("threshold"), nb::arg("decay"), nb::arg("rtol"),
                             nb::arg("rtol1"), nb::arg("residual_by_apply") = false));
}

template <class V>
void bind_square(nb::module_& m) {
  using Op = BasicLinearOperator<V, V>;
  m.def(
      "cg_solver",
      [](const Op& op, const V& y, const V* x0, nb::handle callback, int niter, double tol,
         bool show, std::vector<int> itershow) {
        CgOptions<V> options;
        apply_run<V>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::full);
        return set_up<Cg<V>>(y, x0, op, options);
      },
      DISTLOPS_STEPWISE_ARGS());
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
      release());
}

// Models plain or stacked, data plain or stacked. The Cuda space binds the plain models only (a
// stacked data side included: a regularised problem, [Op; eps * D]), which halves what its
// binding adds to the extension's compile time.
template <class T, class Space>
void bind_solvers_for_type(nb::module_& m) {
  using DA = DistributedArray<T, Space>;
  using SDA = StackedDistributedArray<T, Space>;
  bind_least_squares<DA, DA>(m);
  bind_least_squares<DA, SDA>(m);
  bind_square<DA>(m);
  if constexpr (std::same_as<Space, Host>) {
    bind_least_squares<SDA, SDA>(m);
    bind_least_squares<SDA, DA>(m);
    bind_square<SDA>(m);
  }
}

}  // namespace

void bind_solvers(nb::module_& m) {
  nb::enum_<ThresholdKind>(m, "ThresholdKind")
      .value("soft", ThresholdKind::soft)
      .value("hard", ThresholdKind::hard)
      .value("half", ThresholdKind::half);
  nb::class_<StepwiseSolverHandle>(m, "StepwiseSolver")
      .def("step", &StepwiseSolverHandle::step, release())
      .def_prop_ro("finished", &StepwiseSolverHandle::finished)
      .def_prop_ro("iteration", &StepwiseSolverHandle::iteration)
      .def_prop_ro("reason", &StepwiseSolverHandle::reason)
      .def_prop_ro("residual_norms", &StepwiseSolverHandle::residual_norms)
      .def_prop_ro("costs", &StepwiseSolverHandle::costs)
      .def_prop_ro("model_updates", &StepwiseSolverHandle::model_updates)
      .def("x", &StepwiseSolverHandle::x, nb::keep_alive<0, 1>())
      .def("vector", &StepwiseSolverHandle::vector, nb::arg("name"), nb::keep_alive<0, 1>())
      .def("scalar", &StepwiseSolverHandle::scalar, nb::arg("name"))
      .def("finalize", &StepwiseSolverHandle::finalize)
      .def("solve", &StepwiseSolverHandle::solve);
  for_each_space([&]<class Space>() {
    for_each_scalar([&]<class T>() { bind_solvers_for_type<T, Space>(m); });
  });
}

}  // namespace distlops::python
