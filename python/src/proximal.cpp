// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The proximal operators (L1, L2, L21, Box, EuclideanBall and their pre/post-compositions, and
// those written in Python) and the proximal solvers (ProximalGradient, ADMM with an l2 term,
// LinearizedADMM, PrimalDual) over plain and stacked arrays. The solvers run without the GIL;
// results go back as dictionaries that the package turns into PyProximal's return values.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/solvers/proximal/admm.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "distlops/solvers/proximal/composition.hpp"
#include "distlops/solvers/proximal/euclidean_ball.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/linearized_admm.hpp"
#include "distlops/solvers/proximal/primal_dual.hpp"
#include "distlops/solvers/proximal/proximal_gradient.hpp"
#include "gil_safe_object.hpp"
#include "solver_run.hpp"

namespace distlops::python {
namespace {

using release = nb::call_guard<nb::gil_scoped_release>;

/// The arguments of SolverRun, last in every solver's signature.
#define DISTLOPS_PROXIMAL_RUN_ARGS                                        \
  nb::arg("niter"), nb::arg("tol"), nb::arg("show"), nb::arg("itershow"), \
      nb::arg("callback").none(), release()

/// Runs a step-wise solver from x0 (and the auxiliary vector's start `aux0`, when not null) to
/// its end and returns its result with the auxiliary vector `aux` (ADMM's z, PrimalDual's y),
/// which the function form does not keep.
template <class Solver, class Domain, class Aux>
nb::dict solve_with_aux(Solver& solver, const Domain& x0, const Aux* aux0,
                        const Aux& (Solver::*aux)() const) {
  if (aux0) {
    solver.setup(x0, *aux0);
  } else {
    solver.setup(x0);
  }
  while (!solver.finished())
    solver.step();
  Aux kept((solver.*aux)());
  auto result = solver.finalize();
  nb::gil_scoped_acquire gil;
  nb::dict d;
  d["iterations"] = result.iterations;
  d["reason"] = std::string(to_string(result.reason));
  d["residual_norms"] = result.residual_norms;
  d["costs"] = result.costs;
  d["tau"] = result.tau;
  d["x"] = nb::cast(std::move(result.x));
  d["aux"] = nb::cast(std::move(kept));
  return d;
}

/// Calls Python code from a thread without the GIL (a solver's); a Python exception becomes an
/// Error saying its type and message, so that the ranks can agree on it, except one that is the
/// library's agreed error crossing the user's Python code, which is raised again as it was.
template <class Call>
auto call_python(Call&& call) {
  nb::gil_scoped_acquire gil;
  try {
    return call();
  } catch (nb::python_error& error) {
    const std::string message = nb::str(error.value()).c_str();
    detail::rethrow_if_agreed(message);
    const std::string type = nb::cast<std::string>(error.type().attr("__name__"));
    throw Error(type + ": " + message);
  }
}

/// A proximal operator written in Python (a subclass of distlops.ProxOperator defining __call__
/// and prox, and proxdual and grad where it has them): the package passes functions of the
/// library's vectors that call it back. Its code is the user's (runs_user_code()): every call
/// agrees on its outcome, so a Python exception on some ranks is raised on every rank.
template <class V>
class PythonProxOperator final : public ProxOperator<V> {
 public:
  PythonProxOperator(std::string name, nb::object value, nb::object prox, nb::object proxdual,
                     nb::object grad)
      : name_(std::move(name)),
        value_(hold(std::move(value))),
        prox_(hold(std::move(prox))),
        proxdual_(hold(std::move(proxdual))),
        grad_(hold(std::move(grad))) {}
  std::string name() const override { return name_; }
  std::shared_ptr<const ProxOperator<V>> clone() const override {
    return std::make_shared<PythonProxOperator>(*this);
  }
  bool differentiable() const override { return grad_ != nullptr; }

 protected:
  double do_value(const V& x) const override {
    return call_python([&] { return nb::cast<double>(value_->get()(argument(x))); });
  }
  void do_prox(const V& x, double tau, V& out) const override {
    call_python([&] { assign(prox_->get()(argument(x), tau), out); });
  }
  void do_prox_conjugate(const V& x, double tau, V& out) const override {
    if (!proxdual_) {
      ProxOperator<V>::do_prox_conjugate(x, tau, out);
      return;
    }
    call_python([&] { assign(proxdual_->get()(argument(x), tau), out); });
  }
  void do_gradient(const V& x, V& out) const override {
    if (!grad_) {
      ProxOperator<V>::do_gradient(x, out);
      return;
    }
    call_python([&] { assign(grad_->get()(argument(x)), out); });
  }

 private:
  static std::shared_ptr<GilSafeObject> hold(nb::object function) {
    if (function.is_none()) return nullptr;
    return std::make_shared<GilSafeObject>(std::move(function));
  }
  // The vector lent to Python for the call (a view: no copy).
  static nb::object argument(const V& x) {
    return nb::cast(const_cast<V*>(&x), nb::rv_policy::reference);
  }
  // out = what Python returned (x's layout, checked on this rank: the call agrees on it).
  void assign(const nb::object& result, V& out) const {
    const V& value = nb::cast<const V&>(result);
    const AgreedOperands local;
    if (!vector_traits<V>::has_layout(value, out.layout())) {
      throw ShapeMismatch(name_ + ": the result is expected with " +
                          vector_traits<V>::describe(out.layout()) + ", got " +
                          vector_traits<V>::describe(value.layout()));
    }
    out.copy_from(value);
  }

  std::string name_;
  std::shared_ptr<GilSafeObject> value_, prox_, proxdual_, grad_;
};

template <class V>
void bind_prox_for_vector(nb::module_& m, const std::string& suffix) {
  using Prox = ProxOperator<V>;
  nb::class_<Prox>(m, ("ProxOperator_" + suffix).c_str())
      .def_prop_ro("name", &Prox::name)
      .def_prop_ro("differentiable", &Prox::differentiable)
      .def("value", &Prox::value, release())
      .def("prox", nb::overload_cast<const V&, double>(&Prox::prox, nb::const_), release())
      .def("prox_conjugate", nb::overload_cast<const V&, double>(&Prox::prox_conjugate, nb::const_),
           release())
      .def("gradient", nb::overload_cast<const V&>(&Prox::gradient, nb::const_), release());
  nb::class_<L1<V>, Prox>(m, ("L1_" + suffix).c_str())
      .def(nb::init<double>(), nb::arg("sigma"))
      .def(nb::init<const V&, double>(), nb::arg("weights"), nb::arg("sigma"))
      .def(
          "__init__",
          [](L1<V>* self, nb::callable schedule) {
            // sigma(k) runs on the solver's thread, which takes the GIL back for the call.
            auto held = std::make_shared<GilSafeObject>(std::move(schedule));
            new (self) L1<V>([held](int k) {
              return call_python([&] { return nb::cast<double>(held->get()(k)); });
            });
          },
          nb::arg("schedule"))
      .def_prop_ro("prox_calls", &L1<V>::prox_calls);
  nb::class_<PythonProxOperator<V>, Prox>(m, ("PythonProxOperator_" + suffix).c_str())
      .def(nb::init<std::string, nb::object, nb::object, nb::object, nb::object>(), nb::arg("name"),
           nb::arg("value"), nb::arg("prox"), nb::arg("proxdual").none(), nb::arg("grad").none());
  nb::class_<Box<V>, Prox>(m, ("Box_" + suffix).c_str())
      .def(nb::init<double, double>(), nb::arg("lower"), nb::arg("upper"))
      .def(nb::init<const V&, const V&>(), nb::arg("lower"), nb::arg("upper"), release());
  nb::class_<EuclideanBall<V>, Prox>(m, ("EuclideanBall_" + suffix).c_str())
      .def(nb::init<double>(), nb::arg("radius"))
      .def(nb::init<const V&, double>(), nb::arg("center"), nb::arg("radius"));
  nb::class_<Precomposed<V>, Prox>(m, ("Precomposed_" + suffix).c_str())
      .def(nb::init<const Prox&, double>(), nb::arg("f"), nb::arg("a"))
      .def(nb::init<const Prox&, double, const V&>(), nb::arg("f"), nb::arg("a"), nb::arg("b"));
  nb::class_<Postcomposed<V>, Prox>(m, ("Postcomposed_" + suffix).c_str())
      .def(nb::init<const Prox&, double>(), nb::arg("f"), nb::arg("s"))
      .def(nb::init<const Prox&, double, const V&>(), nb::arg("f"), nb::arg("s"), nb::arg("v"));
  nb::class_<L2<V, V>, Prox>(m, ("L2_" + suffix).c_str())
      .def(nb::init<double>(), nb::arg("sigma"))
      .def(nb::init<const V&, double>(), nb::arg("b"), nb::arg("sigma"))
      .def(
          "__init__",
          [](L2<V, V>* self, const BasicLinearOperator<V, V>& op, const V& b, double sigma,
             int niter,
             double rtol) { new (self) L2<V, V>(op, b, sigma, {.niter = niter, .rtol = rtol}); },
          nb::arg("op"), nb::arg("b"), nb::arg("sigma"), nb::arg("niter"), nb::arg("rtol"));

  m.def(
      "proximal_gradient",
      [](const Prox& f, const Prox& g, const V& x0, double epsg, std::optional<double> tau,
         double tau0, double beta, double eta, int niterback, const std::string& acceleration,
         int niter, double tol, bool show, std::vector<int> itershow, nb::handle callback) {
        ProximalGradientOptions<V> options;
        apply_run<V>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::model_only);
        options.epsg = epsg;
        options.tau = tau;
        options.tau0 = tau0;
        options.beta = beta;
        options.eta = eta;
        options.niterback = niterback;
        if (acceleration == "none") {
          options.acceleration = Acceleration::none;
        } else if (acceleration == "vandenberghe") {
          options.acceleration = Acceleration::vandenberghe;
        } else if (acceleration == "fista") {
          options.acceleration = Acceleration::fista;
        } else {
          throw InvalidArgument(
              "ProximalGradient: acceleration must be None, 'vandenberghe' or "
              "'fista', got '" +
              acceleration + "'");
        }
        ProximalGradient<V> solver(f, g, options);
        solver.setup(x0);
        while (!solver.finished())
          solver.step();
        auto result = solver.finalize();
        nb::gil_scoped_acquire gil;
        nb::dict d;
        d["iterations"] = result.iterations;
        d["costs"] = result.costs;
        d["tau"] = result.tau;
        d["x"] = nb::cast(std::move(result.x));
        return d;
      },
      nb::arg("f"), nb::arg("g"), nb::arg("x0"), nb::arg("epsg"), nb::arg("tau").none(),
      nb::arg("tau0"), nb::arg("beta"), nb::arg("eta"), nb::arg("niterback"),
      nb::arg("acceleration"), DISTLOPS_PROXIMAL_RUN_ARGS);
}

/// The solvers whose second proximal operator acts on another vector type (A: D -> Aux).
template <class D, class Aux>
void bind_split_solvers(nb::module_& m) {
  m.def(
      "admm_l2",
      [](const ProxOperator<Aux>& g, const BasicLinearOperator<D, D>& op, const D& b,
         const BasicLinearOperator<D, Aux>& a, const D& x0, const Aux* z0, bool gfirst, double tau,
         int inner_niter, double inner_rtol, int niter, double tol, bool show,
         std::vector<int> itershow, nb::handle callback) {
        AdmmOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::model_only);
        options.tau = tau;
        options.inner_niter = inner_niter;
        options.inner_rtol = inner_rtol;
        options.g_first = gfirst;
        Admm<D, D, Aux> solver(g, op, b, a, options);
        return solve_with_aux(solver, x0, z0, &Admm<D, D, Aux>::z);
      },
      nb::arg("g"), nb::arg("op"), nb::arg("b"), nb::arg("a"), nb::arg("x0"), nb::arg("z0").none(),
      nb::arg("gfirst"), nb::arg("tau"), nb::arg("inner_niter"), nb::arg("inner_rtol"),
      DISTLOPS_PROXIMAL_RUN_ARGS);
  m.def(
      "linearized_admm",
      [](const ProxOperator<D>& f, const ProxOperator<Aux>& g, const BasicLinearOperator<D, Aux>& a,
         const D& x0, const Aux* z0, double tau, std::optional<double> mu, bool check_steps,
         int niter, double tol, bool show, std::vector<int> itershow, nb::handle callback) {
        LinearizedAdmmOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::model_only);
        options.tau = tau;
        options.mu = mu;
        options.check_steps = check_steps;
        LinearizedAdmm<D, Aux> solver(f, g, a, options);
        return solve_with_aux(solver, x0, z0, &LinearizedAdmm<D, Aux>::z);
      },
      nb::arg("f"), nb::arg("g"), nb::arg("a"), nb::arg("x0"), nb::arg("z0").none(), nb::arg("tau"),
      nb::arg("mu").none(), nb::arg("check_steps"), DISTLOPS_PROXIMAL_RUN_ARGS);
  m.def(
      "primal_dual",
      [](const ProxOperator<D>& f, const ProxOperator<Aux>& g, const BasicLinearOperator<D, Aux>& k,
         const D& x0, const Aux* y0, bool gfirst, std::optional<double> tau,
         std::optional<double> sigma, double theta, bool check_steps, int niter, double tol,
         bool show, std::vector<int> itershow, nb::handle callback) {
        PrimalDualOptions<D> options;
        apply_run<D>(options, {niter, tol, show, std::move(itershow), callback},
                     CallbackForm::model_only);
        options.tau = tau;
        options.sigma = sigma;
        options.theta = theta;
        options.check_steps = check_steps;
        options.dual_first = gfirst;
        PrimalDual<D, Aux> solver(f, g, k, options);
        return solve_with_aux(solver, x0, y0, &PrimalDual<D, Aux>::y);
      },
      nb::arg("f"), nb::arg("g"), nb::arg("k"), nb::arg("x0"), nb::arg("y0").none(),
      nb::arg("gfirst"), nb::arg("tau").none(), nb::arg("sigma").none(), nb::arg("theta"),
      nb::arg("check_steps"), DISTLOPS_PROXIMAL_RUN_ARGS);
}

template <class T>
void bind_proximal_for_type(nb::module_& m) {
  using DA = DistributedArray<T, Host>;
  using SDA = StackedDistributedArray<T, Host>;
  const std::string t = dtype_name<T>();
  bind_prox_for_vector<DA>(m, t);
  bind_prox_for_vector<SDA>(m, "stacked_" + t);
  nb::class_<L21<SDA>, ProxOperator<SDA>>(m, ("L21_stacked_" + t).c_str())
      .def(nb::init<double>(), nb::arg("sigma"));
  bind_split_solvers<DA, DA>(m);
  bind_split_solvers<DA, SDA>(m);
}

}  // namespace

void bind_proximal(nb::module_& m) {
  for_each_scalar([&]<class T>() { bind_proximal_for_type<T>(m); });
}

}  // namespace distlops::python
